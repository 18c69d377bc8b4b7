import { describe, expect, it } from 'vitest';
import { formatBadge } from '../../src/shell/AppFrame';

describe('navigation badges', () => {
  it('show the count up to 99 and 99+ above', () => {
    expect(formatBadge(1)).toBe('1');
    expect(formatBadge(99)).toBe('99');
    expect(formatBadge(100)).toBe('99+');
    expect(formatBadge(12345)).toBe('99+');
  });
});

import { describe, expect, it } from 'vitest';
import { CUSTOM_STATUS_MAX, customStatusProblem } from './commands';

describe('custom status text', () => {
  it('needs some words, at most 100 characters once trimmed', () => {
    expect(customStatusProblem('')).toBe('messaging:customStatus.empty');
    expect(customStatusProblem('   ')).toBe('messaging:customStatus.empty');
    expect(customStatusProblem('Workshop until 3')).toBeNull();
    expect(customStatusProblem(` ${'x'.repeat(CUSTOM_STATUS_MAX)} `)).toBeNull();
    expect(customStatusProblem('x'.repeat(CUSTOM_STATUS_MAX + 1))).toBe('messaging:customStatus.tooLong');
  });
});

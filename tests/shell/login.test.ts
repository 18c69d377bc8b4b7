import { describe, expect, it } from 'vitest';
import { safeRedirect } from '../../src/shell/redirect';

describe('login redirect', () => {
  it('only returns to same-origin paths and never back to login', () => {
    expect(safeRedirect('/history?filter=missed')).toBe('/history?filter=missed');
    expect(safeRedirect(undefined)).toBe('/');
    expect(safeRedirect('https://evil.example/')).toBe('/');
    expect(safeRedirect('//evil.example/')).toBe('/');
    expect(safeRedirect('/login?redirect=/x')).toBe('/');
    expect(safeRedirect('/logout')).toBe('/');
  });
});

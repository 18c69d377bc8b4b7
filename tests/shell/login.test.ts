import { describe, expect, it } from 'vitest';
import { loginUrl, redirectParam } from '../../src/shell/landing';
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

describe('landing without a session', () => {
  const at = (href: string) => {
    const u = new URL(href, 'http://uc.test');
    return { pathname: u.pathname, search: u.search, hash: u.hash };
  };

  it('sends every page to the login page, remembering the one asked for', () => {
    expect(loginUrl(at('/history?filter=missed'))).toBe(`/login?redirect=${encodeURIComponent('/history?filter=missed')}`);
    expect(redirectParam(new URL(loginUrl(at('/contacts/p1#x')), 'http://uc.test').search)).toBe('/contacts/p1#x');
  });

  it('keeps the login page as it is and forgets the home and the logout page', () => {
    expect(loginUrl(at('/login?redirect=%2Fhistory'))).toBe('/login?redirect=%2Fhistory');
    expect(loginUrl(at('/'))).toBe('/login');
    expect(loginUrl(at('/logout'))).toBe('/login');
    expect(redirectParam('')).toBeUndefined();
  });
});

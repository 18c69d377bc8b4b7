import { describe, expect, it } from 'vitest';
import { setupTokenFromHash } from '../wire/passwordSetupLink';
import { linkProblem, setPasswordForm } from './setPassword';

describe('the set-password page', () => {
  it('takes the token from the fragment only when it has the form of one', () => {
    const token = 'aZ09_-'.repeat(7) + 'x';
    expect(setupTokenFromHash(`#${token}`)).toBe(token);
    expect(setupTokenFromHash('')).toBeNull();
    expect(setupTokenFromHash(`#${token.slice(1)}`)).toBeNull();
    expect(setupTokenFromHash('#not a token')).toBeNull();
  });

  it('needs every rule of the password change, and the confirmation to match', () => {
    const weak = setPasswordForm('welcome', 'welcome');
    expect(weak.ready).toBe(false);
    expect(weak.checks.filter((c) => !c.met).map((c) => c.rule)).toEqual(['digit', 'uppercase', 'length', 'special']);
    expect(setPasswordForm('Welcome-2026!', 'Welcome-2026').checks.find((c) => c.rule === 'match')?.met).toBe(false);
    expect(setPasswordForm('', '').checks.find((c) => c.rule === 'match')?.met).toBe(false);
    expect(setPasswordForm('Welcome-2026!', 'Welcome-2026!').ready).toBe(true);
  });

  it('names what is wrong with the link; a refused password is not a link problem', () => {
    expect(linkProblem(410, 'link_used')).toBe('used');
    expect(linkProblem(410, 'link_expired')).toBe('expired');
    expect(linkProblem(404, 'link_invalid')).toBe('invalid');
    expect(linkProblem(403, 'account_disabled')).toBe('disabled');
    expect(linkProblem(400, 'validation_failed')).toBeNull();
    expect(linkProblem(429, 'too_many_attempts')).toBeNull();
    expect(linkProblem(503, 'link_used')).toBeNull();
  });
});

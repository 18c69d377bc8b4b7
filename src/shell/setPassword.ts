import { passwordChecks, type PasswordRule } from '../wire/password';

/*
 * The set-password page's rules, without React: the form's checklist (the password change's rules
 * and the confirmation), and what each refusal of the server makes the page say.
 */

export type SetPasswordCheck = { rule: PasswordRule | 'match'; met: boolean };

/** Every rule of the specification's "Password change", and the confirmation matching; ready when all are met. */
export function setPasswordForm(password: string, confirm: string): { checks: SetPasswordCheck[]; ready: boolean } {
  const checks: SetPasswordCheck[] = [...passwordChecks(password), { rule: 'match', met: password !== '' && password === confirm }];
  return { checks, ready: checks.every((c) => c.met) };
}

/** Why a link cannot be used (the whole page says so), from the server's error code. */
export type LinkProblem = 'used' | 'expired' | 'invalid' | 'disabled';
const PROBLEMS: Record<string, LinkProblem> = { link_used: 'used', link_expired: 'expired', link_invalid: 'invalid', account_disabled: 'disabled' };

/** The link's problem for a 4xx of the check or of the save; null for anything else (a refused password, a wait). */
export function linkProblem(status: number, code: string | undefined): LinkProblem | null {
  return status >= 400 && status < 500 && code ? (PROBLEMS[code] ?? null) : null;
}

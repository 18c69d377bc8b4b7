/**
 * The password rules of the specification ("Password change"), shared by the password panel's live
 * checklist and the server, so the form never accepts what the server refuses.
 */
export const PASSWORD_RULES = ['digit', 'uppercase', 'lowercase', 'length', 'special'] as const;
export type PasswordRule = (typeof PASSWORD_RULES)[number];

export const PASSWORD_MIN_LENGTH = 8;
/** How many of the user's most recent passwords (the current one included) a new one may not repeat. */
export const PASSWORD_HISTORY_DEPTH = 5;
/** The server's message for a reused password; the form recognises it by this exact text (error catalogue). */
export const PASSWORD_REUSED_MESSAGE = 'New password must not match previous passwords.';

const TESTS: Record<PasswordRule, (p: string) => boolean> = {
  digit: (p) => /\p{Nd}/u.test(p),
  uppercase: (p) => /\p{Lu}/u.test(p),
  lowercase: (p) => /\p{Ll}/u.test(p),
  length: (p) => [...p].length >= PASSWORD_MIN_LENGTH,
  // Anything that is neither a letter, a digit nor white space.
  special: (p) => /[^\p{L}\p{Nd}\s]/u.test(p),
};

/** Each rule and whether the password meets it, in the order the checklist shows them. */
export function passwordChecks(password: string): { rule: PasswordRule; met: boolean }[] {
  return PASSWORD_RULES.map((rule) => ({ rule, met: TESTS[rule](password) }));
}

export const passwordStrong = (password: string): boolean => PASSWORD_RULES.every((r) => TESTS[r](password));

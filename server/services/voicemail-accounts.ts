/**
 * How the voicemail phone (server/services/voicemail.ts) knows what a call is for: baresip answers
 * a call with the account whose user is the request-URI's user, so Kamailio says it there. A
 * mailbox's own number (`1002`) takes a message; `greeting-1002` only plays that box's greeting and
 * hangs up (the `repeat_greeting` destination): its account plays a file that ends after the
 * greeting, and no message is filed for it (server/voicemail/deposit.ts follows mailbox accounts only).
 */

/** What Kamailio puts before the mailbox in the request-URI for a greeting-only call. */
export const GREETING_ONLY_PREFIX = 'greeting-';

export const greetingOnlyUser = (mailbox: string): string => `${GREETING_ONLY_PREFIX}${mailbox}`;

/** What a voicemail-phone account user is for: a mailbox taking a message, or a greeting alone; null: neither. */
export function voicemailAccount(user: string | null): { mailbox: string; greetingOnly: boolean } | null {
  const m = /^(greeting-)?([0-9]{1,5})$/.exec(user ?? '');
  return m ? { mailbox: m[2]!, greetingOnly: m[1] !== undefined } : null;
}

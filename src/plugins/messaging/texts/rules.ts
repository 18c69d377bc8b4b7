/** The texts screens' rules (specification, "SMS" and "File attachments"), with no UI and no network. */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { isBanned, SMS_COUNTER_WITHIN, SMS_MAX_CHARS, textBody, usNumber } from '../../../wire/texts';

export { attachmentProblem, textBody, usNumber, SMS_MAX_CHARS, ATTACHMENT_MAX_TOTAL_BYTES, pastCutoff, cutoffsComplete } from '../../../wire/texts';

/** The counter shows only within 100 characters of the limit (and counts down past zero). */
export function counter(length: number): number | null {
  return length >= SMS_MAX_CHARS - SMS_COUNTER_WITHIN ? SMS_MAX_CHARS - length : null;
}

/** Enter sends unless the text is over the limit (Shift+Enter always adds a line). */
export const enterSends = (length: number) => length <= SMS_MAX_CHARS;

export interface Recipients {
  /** E.164, in the order given, without duplicates. */
  numbers: string[];
  /** Typed entries that are no US number: left out of the recipients without an error. */
  ignored: string[];
  /** Banned numbers among them: the text is refused. */
  banned: string[];
}

/**
 * Recipients of a new text: manual entries (split on commas, semicolons and new lines) count only as
 * US numbers after stripping non-digits, others are ignored; picked numbers are taken as given. The
 * sender's own number and the current user's numbers are left out.
 */
export function recipients(manual: string, picked: readonly string[], own: { sender: string; currentUser: readonly string[] }, banned: readonly string[]): Recipients {
  const out: string[] = [];
  const ignored: string[] = [];
  const mine = new Set([own.sender, ...own.currentUser.map((n) => usNumber(n) ?? n)]);
  const entries = manual
    .split(/[,;\n]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  for (const raw of [...picked, ...entries]) {
    const n = usNumber(raw);
    if (!n) {
      ignored.push(raw);
      continue;
    }
    if (mine.has(n) || out.includes(n)) continue;
    out.push(n);
  }
  return { numbers: out, ignored, banned: out.filter((n) => isBanned(n, banned)) };
}

export type NewTextProblem = 'recipientRequired' | 'messageRequired' | 'banned' | 'tooLong';

/** A new text needs a recipient and a message (text or media), no banned number, at most 1000 characters. */
export function newTextProblem(r: Recipients, input: string, hasMedia: boolean): NewTextProblem | null {
  if (!r.numbers.length) return 'recipientRequired';
  if (r.banned.length) return 'banned';
  if (input.length > SMS_MAX_CHARS) return 'tooLong';
  if (textBody(input, hasMedia) === null) return 'messageRequired';
  return null;
}

/** A number as people read it: national for US numbers, international otherwise. */
export function formatNumber(e164: string): string {
  const p = parsePhoneNumberFromString(e164, 'US');
  if (!p) return e164;
  return p.countryCallingCode === '1' ? p.formatNational() : p.formatInternational();
}

/** Server refusals → the screen's words (texts.errors.<key>); anything else is the generic failure. */
export function errorKey(code: string | undefined): string {
  switch (code) {
    case 'text_too_long':
      return 'tooLong';
    case 'invalid_recipient':
    case 'recipient_required':
      return 'recipientRequired';
    case 'banned_number':
      return 'banned';
    case 'mms_disabled':
      return 'mmsDisabled';
    case 'extension_not_allowed':
    // A "picture" whose content is not one: to the user, a file that cannot be sent.
    case 'content_mismatch':
      return 'extension';
    case 'attachments_too_large':
    case 'payload_too_large':
      return 'tooLarge';
    case 'message_required':
      return 'messageRequired';
    default:
      return 'sendFailed';
  }
}

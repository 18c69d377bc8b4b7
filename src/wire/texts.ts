import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import * as z from 'zod/mini';
import { ATTACHMENT_MAX_TOTAL_BYTES, mediaKindOf } from './media';

/*
 * Texts (SMS/MMS): length limit, counter, recipients and body rules, once for the client and the
 * server. Not re-exported from the wire index: libphonenumber-js is loaded with the texts screens,
 * not at boot.
 */

/** At most this many characters in one text. */
export const SMS_MAX_CHARS = 1000;
/** The character counter shows once the text is within this many characters of the limit. */
export const SMS_COUNTER_WITHIN = 100;
/** The attachment limit and file type lists are shared with chat (./media). */
export { ATTACHMENT_MAX_TOTAL_BYTES, FILE_TYPES, extensionOf, mediaKindOf, type MediaKind } from './media';
/** Numbers no text may go to whatever the organisation says (premium-rate 900 numbers). */
export const ALWAYS_BANNED_PREFIXES = ['+1900'] as const;

/**
 * A manually typed recipient: only its digits count; it must then be a valid US number (10 digits,
 * or 11 starting with 1). Returns the E.164 form, or null: such an entry is left out of the
 * recipients, not treated as an error.
 */
export function usNumber(input: string): string | null {
  const digits = input.replace(/\D/g, '');
  if (digits.length !== 10 && !(digits.length === 11 && digits.startsWith('1'))) return null;
  const p = parsePhoneNumberFromString(digits.length === 11 ? `+${digits}` : digits, 'US');
  return p && p.country === 'US' && p.isValid() ? p.number : null;
}

/** Banned: the organisation's list, or a prefix no text may go to. Numbers in E.164. */
export function isBanned(e164: string, banned: readonly string[]): boolean {
  return banned.includes(e164) || ALWAYS_BANNED_PREFIXES.some((p) => e164.startsWith(p));
}

/**
 * What is sent for this input: empty input is a single space (a text carrying only media), other
 * text is trimmed; null when there is nothing to send (blank text and no media).
 */
export function textBody(input: string, hasMedia: boolean): string | null {
  if (input === '') return hasMedia ? ' ' : null;
  const t = input.trim();
  if (t) return t;
  return hasMedia ? ' ' : null;
}

export type AttachmentProblem = 'extension' | 'mmsDisabled' | 'tooLarge';

/** Attachments: MMS on for the sending number, allowed extensions, total ≤ ATTACHMENT_MAX_TOTAL_BYTES. */
export function attachmentProblem(files: ReadonlyArray<{ name: string; size: number }>, mmsEnabled: boolean): AttachmentProblem | null {
  if (!files.length) return null;
  if (!mmsEnabled) return 'mmsDisabled';
  if (files.some((f) => mediaKindOf(f.name) === null)) return 'extension';
  if (files.reduce((n, f) => n + f.size, 0) > ATTACHMENT_MAX_TOTAL_BYTES) return 'tooLarge';
  return null;
}

// ---- message cut-off -------------------------------------------------------------------------

export const CUTOFF_KINDS = ['sms', 'group_sms', 'chat', 'group_chat'] as const;
export type CutoffKind = (typeof CUTOFF_KINDS)[number];
export const CUTOFF_DEFAULT_DAYS = 90;
/** A cut-off of 730 days marks "no real message time": such messages are never cut off. */
export const CUTOFF_NO_TIME_MARKER = 730;
export type Cutoffs = Partial<Record<CutoffKind, number | null>>;

/** Whether a message of this kind and time is past the user's cut-off (and so not shown). */
export function pastCutoff(kind: CutoffKind, sentAt: number, cutoffs: Cutoffs, now: number): boolean {
  const days = cutoffs[kind] ?? CUTOFF_DEFAULT_DAYS;
  if (days === CUTOFF_NO_TIME_MARKER) return false;
  return sentAt < now - days * 86_400_000;
}

/** The preferences panel saves the four values only when none is missing. */
export function cutoffsComplete(c: Cutoffs): c is Record<CutoffKind, number> {
  return CUTOFF_KINDS.every((k) => typeof c[k] === 'number');
}

// ---- conversation addresses ------------------------------------------------------------------

/** Host of the conversation addresses: `c.<did>.<number>` (SMS) and `t.<did>.<hash>` (text group). */
export const textsHost = (domain: string) => `sms.${domain}`;
export const isTextAddress = (jid: string) => jid.startsWith('c.') || jid.startsWith('t.');

// ---- wire ------------------------------------------------------------------------------------

export const MessagingDid = z.object({
  /** E.164. */
  number: z.string(),
  label: z.string(),
  mms_enabled: z.boolean(),
});
export type MessagingDid = z.infer<typeof MessagingDid>;

/** `GET /v1/p1/messaging-dids`: the user's messaging numbers and the numbers texts may not go to. */
export const MessagingDidsResponse = z.object({
  dids: z.array(MessagingDid),
  banned_numbers: z.array(z.string()),
});
export type MessagingDidsResponse = z.infer<typeof MessagingDidsResponse>;

export const TextMedia = z.object({
  id: z.string(),
  /** Served only to its owner, with the bearer token. */
  url: z.string(),
  type: z.enum(['image', 'video', 'file']),
  ext: z.string(),
  ogName: z.string(),
  bytes: z.int(),
});
export type TextMedia = z.infer<typeof TextMedia>;

export const TextMessage = z.object({
  id: z.string(),
  direction: z.enum(['in', 'out']),
  /** Who sent it (E.164): the remote number for `in`, the user's own number for `out`. */
  from: z.string(),
  body: z.string(),
  media: z.array(TextMedia),
  status: z.enum(['delivered', 'failed', 'received']),
  sent_at: z.string(),
});
export type TextMessage = z.infer<typeof TextMessage>;

export const TextConversation = z.object({
  /** `c.…` (SMS) or `t.…` (text group) at textsHost. */
  jid: z.string(),
  kind: z.enum(['sms', 'group_sms']),
  /** The user's own number in this conversation. */
  did: z.string(),
  /** The other numbers (E.164), sorted. */
  members: z.array(z.string()),
  unread: z.int(),
  read_at: z.nullable(z.string()),
  last: z.nullable(TextMessage),
});
export type TextConversation = z.infer<typeof TextConversation>;

export const TextConversationsResponse = z.object({ conversations: z.array(TextConversation) });
export type TextConversationsResponse = z.infer<typeof TextConversationsResponse>;

export const TextMessagesResponse = z.object({ messages: z.array(TextMessage), complete: z.boolean() });
export type TextMessagesResponse = z.infer<typeof TextMessagesResponse>;

/** `POST /v1/texts/messages`. */
export const SendTextRequest = z.object({
  /** The client's message id (ucc-V1-…), so its other copies merge with the one on screen. */
  id: z.optional(z.string().check(z.regex(/^ucc-V1-[\w-]{1,60}$/))),
  from: z.string(),
  to: z.array(z.string()).check(z.minLength(1), z.maxLength(10)),
  body: z.string().check(z.maxLength(SMS_MAX_CHARS)),
  media: z._default(z.array(z.string()).check(z.maxLength(10)), []),
});
export type SendTextRequest = z.infer<typeof SendTextRequest>;

export const SendTextResponse = z.object({ conversation: TextConversation, message: TextMessage });
export type SendTextResponse = z.infer<typeof SendTextResponse>;

/** The inbound webhook's body (what a provider or a test POSTs), signed with the organisation's secret. */
export const InboundText = z.object({
  /** The provider's id of the message: a repeated delivery with the same id is stored once. */
  id: z.string().check(z.minLength(1), z.maxLength(200)),
  from: z.string(),
  /** The organisation's number(s) it was sent to, plus the other members of a group text. */
  to: z.array(z.string()).check(z.minLength(1), z.maxLength(10)),
  text: z._default(z.string().check(z.maxLength(SMS_MAX_CHARS)), ''),
  media: z._default(
    z.array(z.object({ filename: z.string().check(z.minLength(1), z.maxLength(200)), content_type: z.string(), data_base64: z.string() })).check(z.maxLength(10)),
    [],
  ),
});
export type InboundText = z.infer<typeof InboundText>;

/** `GET /v1/texts/carrier` (account owners and administrators): how a provider reaches this organisation. */
export const CarrierAccountResponse = z.object({
  carrier: z.string(),
  webhook_url: z.string(),
  /** Signs webhook bodies (`X-UC-Signature: sha256=<hex HMAC>`) and authenticates the loopback carrier's API. */
  secret: z.string(),
});
export type CarrierAccountResponse = z.infer<typeof CarrierAccountResponse>;

/** What the loopback carrier sent out (`GET /carrier/loopback/v1/messages`). */
export const CarrierMessage = z.object({
  id: z.string(),
  from: z.string(),
  to: z.array(z.string()),
  text: z.string(),
  media: z.array(z.object({ filename: z.string(), content_type: z.string(), bytes: z.int() })),
  created_at: z.string(),
});
export type CarrierMessage = z.infer<typeof CarrierMessage>;

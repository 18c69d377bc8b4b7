/**
 * The ad-hoc invite (specification: "Ad-hoc invite" entity and state machine), pure: no timers, no
 * connection. The inviter offers; the invitee accepts or declines; the inviter may cancel; on an
 * accept the inviter makes the meeting and sends `available`; `close` ends an invite whose meeting
 * could not be made. `expired` is local only: an offer past its `expires` (or an accept never
 * followed by `available`) that nobody may act on any more.
 */
export { ADHOC_INVITE_NS } from '../../../contracts';
/** Specification: "Ad-hoc invite expiry is 120000 ms". */
export const ADHOC_EXPIRY_MS = 120_000;
/** Specification: "available creates the meeting and joins (debounced 2 s)". */
export const ADHOC_JOIN_DEBOUNCE_MS = 2_000;

export const WIRE_STATUSES = ['offer', 'accept', 'decline', 'cancel', 'available', 'close'] as const;
export type WireStatus = (typeof WIRE_STATUSES)[number];
export type InviteStatus = WireStatus | 'expired';
export type Role = 'inviter' | 'invitee';

export interface AdHocInvite {
  inviteId: string;
  role: Role;
  /** The other side: a colleague's user id and name. */
  peerUserId: number;
  peerName: string;
  status: InviteStatus;
  /** ms since the epoch: the offer's end. */
  expires: number;
  /** The chat message that carried the offer. */
  messageId: string | null;
  meetingId: number | null;
  meetingAccessCode: string | null;
  /** The meeting's window address, once available. */
  url: string | null;
}

export type InviteEvent =
  | { kind: 'accept' | 'decline' | 'cancel' }
  | { kind: 'received'; status: WireStatus; meetingId?: number | null; meetingAccessCode?: string | null; url?: string | null }
  /** The inviter's meeting is made. */
  | { kind: 'ready'; meetingId: number; meetingAccessCode: string | null; url: string }
  /** The inviter could not make it. */
  | { kind: 'failed' }
  | { kind: 'tick' };

/** Why a user's action is refused: each has words for the user. */
export type Refusal = 'expired' | 'cancelled' | 'answered' | 'notYours';

export type Step =
  | { ok: true; invite: AdHocInvite; send?: WireStatus; createMeeting?: boolean; join?: boolean }
  | { ok: false; reason: Refusal | 'ignored'; invite: AdHocInvite };

/** Until when the invite waits for the other side: the offer's end; an accept waits as long again for `available`. */
export function pendingUntil(inv: AdHocInvite): number {
  return inv.status === 'offer' ? inv.expires : inv.status === 'accept' ? inv.expires + ADHOC_EXPIRY_MS : Infinity;
}

/** Still waiting for an answer (or, accepted, for the meeting) and not past its time. */
export const isPending = (inv: AdHocInvite, now: number): boolean => (inv.status === 'offer' || inv.status === 'accept') && now < pendingUntil(inv);

/** What the invite is now: a pending one past its time is expired. */
export function current(inv: AdHocInvite, now: number): AdHocInvite {
  return (inv.status === 'offer' || inv.status === 'accept') && now >= pendingUntil(inv) ? { ...inv, status: 'expired' } : inv;
}

const refuse = (invite: AdHocInvite, reason: Refusal | 'ignored'): Step => ({ ok: false, reason, invite });
const refusalOf = (inv: AdHocInvite): Refusal => (inv.status === 'expired' ? 'expired' : inv.status === 'cancel' ? 'cancelled' : 'answered');

/** The invite after an event, what to send and do; a refused action leaves it as it was. */
export function step(before: AdHocInvite, ev: InviteEvent, now: number): Step {
  const inv = current(before, now);
  const to = (status: InviteStatus, extra: Partial<AdHocInvite> = {}): AdHocInvite => ({ ...inv, ...extra, status });
  switch (ev.kind) {
    case 'tick':
      return inv.status === before.status ? refuse(inv, 'ignored') : { ok: true, invite: inv };
    case 'accept':
    case 'decline': {
      if (inv.role !== 'invitee') return refuse(inv, 'notYours');
      // Accepting or declining twice is blocked, as is anything on an expired or cancelled invite.
      if (inv.status !== 'offer') return refuse(inv, refusalOf(inv));
      return ev.kind === 'accept' ? { ok: true, invite: to('accept'), send: 'accept' } : { ok: true, invite: to('decline'), send: 'decline' };
    }
    case 'cancel':
      if (inv.role !== 'inviter') return refuse(inv, 'notYours');
      if (inv.status !== 'offer' && inv.status !== 'accept') return refuse(inv, refusalOf(inv));
      return { ok: true, invite: to('cancel'), send: 'cancel' };
    case 'ready':
      if (inv.role !== 'inviter' || inv.status !== 'accept') return refuse(inv, 'ignored');
      return { ok: true, invite: to('available', { meetingId: ev.meetingId, meetingAccessCode: ev.meetingAccessCode, url: ev.url }), send: 'available', join: true };
    case 'failed':
      if (inv.role !== 'inviter' || inv.status !== 'accept') return refuse(inv, 'ignored');
      return { ok: true, invite: to('close'), send: 'close' };
    case 'received':
      return received(inv, ev);
  }
}

function received(inv: AdHocInvite, ev: Extract<InviteEvent, { kind: 'received' }>): Step {
  const pending = inv.status === 'offer' || inv.status === 'accept';
  switch (ev.status) {
    case 'accept':
      // Only an offer still open may be accepted: a late accept finds it expired or cancelled.
      return inv.role === 'inviter' && inv.status === 'offer' ? { ok: true, invite: { ...inv, status: 'accept' }, createMeeting: true } : refuse(inv, 'ignored');
    case 'decline':
      return inv.role === 'inviter' && pending ? { ok: true, invite: { ...inv, status: 'decline' } } : refuse(inv, 'ignored');
    case 'cancel':
      return inv.role === 'invitee' && pending ? { ok: true, invite: { ...inv, status: 'cancel' } } : refuse(inv, 'ignored');
    case 'available':
      if (inv.role !== 'invitee' || inv.status !== 'accept' || !ev.url) return refuse(inv, 'ignored');
      return { ok: true, invite: { ...inv, status: 'available', meetingId: ev.meetingId ?? null, meetingAccessCode: ev.meetingAccessCode ?? null, url: ev.url }, join: true };
    case 'close':
      return pending ? { ok: true, invite: { ...inv, status: 'close' } } : refuse(inv, 'ignored');
    case 'offer':
      return refuse(inv, 'ignored');
  }
}

/** The payload element's attributes (the entity's fields) for a status of this invite. */
export function toAttrs(inv: AdHocInvite, status: WireStatus, from: number, to: number): Record<string, string> {
  const a: Record<string, string> = { status, inviteId: inv.inviteId, from: String(from), to: String(to), expires: String(inv.expires) };
  if (inv.messageId) a.messageId = inv.messageId;
  if (status === 'available') {
    if (inv.meetingId !== null) a.meetingId = String(inv.meetingId);
    if (inv.meetingAccessCode) a.meetingAccessCode = inv.meetingAccessCode;
    if (inv.url) a.url = inv.url;
  }
  return a;
}

export interface InvitePayload {
  status: WireStatus;
  inviteId: string;
  from: number;
  to: number;
  expires: number;
  messageId: string | null;
  meetingId: number | null;
  meetingAccessCode: string | null;
  url: string | null;
}

const int = (s: string | undefined): number | null => (s !== undefined && /^\d{1,15}$/.test(s) ? Number(s) : null);

/** Reads a received payload; anything malformed (a foreign client, a forged status) is null. */
export function fromAttrs(a: Readonly<Record<string, string>>): InvitePayload | null {
  const status = WIRE_STATUSES.find((s) => s === a.status);
  const from = int(a.from);
  const to = int(a.to);
  const expires = int(a.expires);
  if (!status || !a.inviteId || !/^[\w-]{1,64}$/.test(a.inviteId) || from === null || to === null || expires === null) return null;
  // Only an address of the web meetings: never a script or another scheme in a link the page opens.
  const url = a.url && /^https?:\/\//.test(a.url) ? a.url : null;
  return { status, inviteId: a.inviteId, from, to, expires, messageId: a.messageId ?? null, meetingId: int(a.meetingId), meetingAccessCode: a.meetingAccessCode ?? null, url };
}

/** A fresh offer from the inviter's side. */
export function newOffer(inviteId: string, peerUserId: number, peerName: string, now: number): AdHocInvite {
  return { inviteId, role: 'inviter', peerUserId, peerName, status: 'offer', expires: now + ADHOC_EXPIRY_MS, messageId: null, meetingId: null, meetingAccessCode: null, url: null };
}

/** The invitee's record of an offer received. */
export function receivedOffer(p: InvitePayload, peerName: string): AdHocInvite {
  return { inviteId: p.inviteId, role: 'invitee', peerUserId: p.from, peerName, status: 'offer', expires: p.expires, messageId: p.messageId, meetingId: null, meetingAccessCode: null, url: null };
}

/** Ad-hoc meetings need webMeetingManagement, adhocEnabled, contact status available, and not the current user (specification). */
export type AdHocBlock = 'noManagement' | 'noAdhoc' | 'notColleague' | 'self' | 'unavailable';
export function adHocBlock(p: { webMeetingManagement: boolean; adhocEnabled: boolean; userId: number | null; self: boolean; available: boolean }): AdHocBlock | null {
  if (!p.webMeetingManagement) return 'noManagement';
  if (!p.adhocEnabled) return 'noAdhoc';
  if (p.userId === null) return 'notColleague';
  if (p.self) return 'self';
  if (!p.available) return 'unavailable';
  return null;
}

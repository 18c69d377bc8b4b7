import i18next from 'i18next';
import { Notifications, Session, type ServiceLookup } from '../../../kernel';
import { ChatPayloadsApi, MessagingApi, type ChatPayloadEvent } from '../../../contracts';
import { createMeeting, serverMessage } from '../api';
import { log } from '../log';
import { openMeetingWindow } from '../meeting';
import { meetingWindowUrl } from '../model';
import { meetingsState } from '../state';
import { ADHOC_EXPIRY_MS, ADHOC_INVITE_NS, ADHOC_JOIN_DEBOUNCE_MS, current, fromAttrs, newOffer, pendingUntil, receivedOffer, step, toAttrs, type AdHocInvite, type InviteEvent, type Step, type WireStatus } from './model';

/*
 * The ad-hoc invites of this tab: what the model decides, done — messages through the chat
 * (ChatPayloadsApi: an element of our namespace and a readable body), the meeting made through the
 * meetings API, the meeting's window, the expiry timers.
 */

let services: ServiceLookup | null = null;
const expiryTimers = new Map<string, ReturnType<typeof setTimeout>>();
const joinTimers = new Map<string, ReturnType<typeof setTimeout>>();

const me = (s: ServiceLookup) => s.get(Session);
const myName = (s: ServiceLookup) => {
  const p = me(s).profile;
  return `${p.first_name} ${p.last_name}`.trim() || p.username;
};

/** Acts on invites from now on (the boot side listens to the chat); returns what stops it. */
export function startAdHoc(s: ServiceLookup): () => void {
  services = s;
  return () => {
    for (const t of [...expiryTimers.values(), ...joinTimers.values()]) clearTimeout(t);
    expiryTimers.clear();
    joinTimers.clear();
    services = null;
  };
}

function store(inv: AdHocInvite): void {
  meetingsState.adhoc[inv.inviteId] = inv;
  clearTimeout(expiryTimers.get(inv.inviteId));
  const until = pendingUntil(inv);
  if (until !== Infinity) expiryTimers.set(inv.inviteId, setTimeout(() => void apply(inv.inviteId, { kind: 'tick' }), Math.max(0, until - Date.now()) + 50));
}

/** The readable text each status carries, for other XMPP clients and this app's chat log. */
function bodyOf(s: ServiceLookup, inv: AdHocInvite, status: WireStatus): string {
  const values = { name: myName(s), peer: inv.peerName, minutes: ADHOC_EXPIRY_MS / 60_000, url: inv.url ?? '' };
  // Plain text (a chat body, never HTML): the link must not come out as `https:&#x2F;&#x2F;…`.
  return i18next.t(`meetings:adhoc.wire.${status}`, { ...values, interpolation: { escapeValue: false } });
}

async function send(s: ServiceLookup, inv: AdHocInvite, status: WireStatus): Promise<string | null> {
  const chat = s.maybe(ChatPayloadsApi);
  if (!chat) return null;
  const attrs = toAttrs(inv, status, me(s).userId, inv.peerUserId);
  return chat.send(inv.peerUserId, bodyOf(s, inv, status), { ns: ADHOC_INVITE_NS, name: 'invite', attrs }).catch((err: unknown) => (log.warn('ad-hoc invite not sent', err), null));
}

/** Runs an event through the model and does what it says; a refused user action is told why. */
export async function apply(inviteId: string, ev: InviteEvent, effects = true): Promise<Step | null> {
  const s = services;
  const before = meetingsState.adhoc[inviteId];
  if (!s || !before) return null;
  const r = step(before, ev, Date.now());
  if (!r.ok) {
    if (r.reason !== 'ignored' && r.reason !== 'notYours') s.get(Notifications).toast({ titleKey: `meetings:adhoc.refused.${r.reason}`, tone: 'warning' });
    // An expired invite is shown so even when nothing else changed.
    if (r.invite.status !== before.status) store(r.invite);
    return r;
  }
  store(r.invite);
  if (!effects) return r;
  if (r.send) void send(s, r.invite, r.send);
  if (r.createMeeting) void makeMeeting(s, r.invite);
  if (r.join) scheduleJoin(s, r.invite);
  if (r.invite.status !== before.status) announce(s, r.invite);
  return r;
}

/** Screen readers hear each change of an invite the user waits on. */
function announce(s: ServiceLookup, inv: AdHocInvite): void {
  s.get(Notifications).announce(i18next.t(`meetings:adhoc.status.${inv.role}.${inv.status}`, { name: inv.peerName }), 'polite');
}

/** The inviter: the invite modal opens and the offer goes into the chat with the colleague. */
export async function invite(s: ServiceLookup, userId: number, name: string): Promise<void> {
  services ??= s;
  const inv = newOffer(crypto.randomUUID(), userId, name, Date.now());
  store(inv);
  meetingsState.adhocModal = inv.inviteId;
  const messageId = await send(s, inv, 'offer');
  const now = meetingsState.adhoc[inv.inviteId];
  if (!now) return;
  if (messageId) store({ ...now, messageId });
  // Chat is not connected: nothing went out, so there is nothing to wait for.
  else store({ ...now, status: 'close' });
}

/** The inviter, once accepted: an instant private ad-hoc meeting with the colleague, then `available`. */
async function makeMeeting(s: ServiceLookup, inv: AdHocInvite): Promise<void> {
  try {
    const m = await createMeeting(s, {
      meeting_name: i18next.t('meetings:adhoc.meetingName', { name: myName(s), peer: inv.peerName }),
      instant: true,
      is_private: true,
      ad_hoc: true,
      invitees: [{ user_id: inv.peerUserId }],
    });
    if (!m.url) throw new Error('the meeting has no address');
    await apply(inv.inviteId, { kind: 'ready', meetingId: m.id, meetingAccessCode: m.meeting_access_code, url: m.url });
  } catch (err) {
    log.warn('ad-hoc meeting not made', err);
    const message = serverMessage(err);
    s.get(Notifications).toast({ titleKey: 'meetings:adhoc.failed', ...(message ? { message } : { messageKey: 'meetings:toasts.tryAgain' }), tone: 'error' });
    await apply(inv.inviteId, { kind: 'failed' });
  }
}

/** Both sides open the meeting's window 2 s after the last `available` (a repeat does not open it twice). */
function scheduleJoin(s: ServiceLookup, inv: AdHocInvite): void {
  clearTimeout(joinTimers.get(inv.inviteId));
  joinTimers.set(
    inv.inviteId,
    setTimeout(() => {
      joinTimers.delete(inv.inviteId);
      join(s, inv.inviteId);
    }, ADHOC_JOIN_DEBOUNCE_MS),
  );
}

/** Opens the invite's meeting window (the lobby at the meeting's address); the inviter's modal has done its work. */
export function join(s: ServiceLookup, inviteId: string): void {
  const inv = meetingsState.adhoc[inviteId];
  if (!inv?.url || inv.meetingId === null) return;
  const url = inv.url;
  if (meetingsState.adhocModal === inviteId) meetingsState.adhocModal = null;
  void openMeetingWindow(s, inv.meetingId, i18next.t('meetings:adhoc.meetingName', { name: myName(s), peer: inv.peerName }), (p) => meetingWindowUrl(url, p));
}

/** A message of our namespace in a chat: an offer to record, or the other side's answer. */
export function onPayload(s: ServiceLookup, e: ChatPayloadEvent): void {
  services ??= s;
  const p = fromAttrs(e.payload.attrs);
  if (!p) return;
  const self = me(s).userId;
  const known = meetingsState.adhoc[p.inviteId];
  if (p.status === 'offer') {
    if (known) return;
    // Our own offer read back (the archive, another device): shown, never acted on here.
    if (e.mine || p.from === self) {
      if (p.to !== self) store(current({ ...receivedOffer(p, e.peerName), role: 'inviter', peerUserId: p.to }, Date.now()));
      return;
    }
    if (p.to !== self || (e.peerUserId !== null && e.peerUserId !== p.from)) return;
    const inv = current(receivedOffer(p, e.peerName), Date.now());
    store(inv);
    if (e.live && inv.status === 'offer') notifyOffer(s, inv);
    return;
  }
  if (!known) return;
  // Our own answer from another device, or read back: the state follows, nothing is done twice.
  if (e.mine || p.from === self) {
    if (known.status !== p.status) store({ ...known, status: p.status, meetingId: p.meetingId ?? known.meetingId, meetingAccessCode: p.meetingAccessCode ?? known.meetingAccessCode, url: p.url ?? known.url });
    return;
  }
  if (p.from !== known.peerUserId) return;
  void apply(p.inviteId, { kind: 'received', status: p.status, meetingId: p.meetingId, meetingAccessCode: p.meetingAccessCode, url: p.url }, e.live);
}

/** The invitee is told wherever they are: a toast that leads to the chat (its Accept and Decline), for as long as the offer stands. */
function notifyOffer(s: ServiceLookup, inv: AdHocInvite): void {
  s.get(Notifications).toast({
    titleKey: 'meetings:adhoc.toast.title',
    messageKey: 'meetings:adhoc.toast.body',
    values: { name: inv.peerName },
    tone: 'info',
    timeoutMs: Math.max(0, inv.expires - Date.now()),
    action: { labelKey: 'meetings:adhoc.toast.open', run: () => s.maybe(MessagingApi)?.openChat(inv.peerUserId) },
  });
}

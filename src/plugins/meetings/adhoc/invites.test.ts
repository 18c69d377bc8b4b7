import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../strings/en.json';
import { ADHOC_INVITE_NS, ChatPayloadsApi, type ChatPayload, type ChatPayloadEvent } from '../../../contracts';
import { Notifications, Session, type ServiceLookup } from '../../../kernel';
import { meetingsState, resetMeetingsState } from '../state';

/*
 * The invites' work with the chat, the API and the window replaced: what goes out for each step,
 * the meeting made once, the window opened 2 s after the last `available`, and nothing done because
 * of a message read back from older history.
 */
const opened = vi.fn();
const created = vi.fn();
vi.mock('../meeting', () => ({ openMeetingWindow: (...a: unknown[]) => opened(...a) }));
vi.mock('../api', () => ({ createMeeting: (...a: unknown[]) => created(...a), serverMessage: () => undefined }));
const { apply, invite, onPayload, startAdHoc } = await import('./invites');
await i18next.init({ lng: 'en', resources: { en: { meetings: en } } });

const ME = 3;
const LEILA = 7;
let sent: Array<{ userId: number; body: string; payload: ChatPayload }>;
let toasts: unknown[];
let stop: () => void;
const services = {
  get: (key: { id: string }) => {
    if (key.id === Session.id) return { userId: ME, profile: { first_name: 'Pedro', last_name: 'Alves', username: 'pedro.alves' } };
    if (key.id === Notifications.id) return { toast: (t: unknown) => (toasts.push(t), ''), announce: () => undefined, dismiss: () => undefined };
    throw new Error(key.id);
  },
  maybe: (key: { id: string }) => (key.id === ChatPayloadsApi.id ? { send: async (userId: number, body: string, payload: ChatPayload) => (sent.push({ userId, body, payload }), `m${sent.length}`), subscribe: () => ({ dispose() {} }) } : undefined),
  has: () => true,
} as unknown as ServiceLookup;

const event = (attrs: Record<string, string>, over: Partial<ChatPayloadEvent> = {}): ChatPayloadEvent => ({
  payload: { ns: ADHOC_INVITE_NS, name: 'invite', attrs },
  peerUserId: LEILA,
  peerName: 'Leila Haddad',
  mine: false,
  messageId: 'x',
  live: true,
  ...over,
});

beforeEach(() => {
  vi.useFakeTimers();
  sent = [];
  toasts = [];
  opened.mockReset();
  created.mockReset();
  created.mockResolvedValue({ id: 41, meeting_access_code: '123456789', url: 'https://m.example/uc/pedro/abcde' });
  stop = startAdHoc(services);
});
afterEach(() => {
  stop();
  resetMeetingsState();
  vi.useRealTimers();
});

describe('ad-hoc invites (the inviter)', () => {
  it('offers, makes the meeting once on the accept, sends available and opens the window 2 s later, once', async () => {
    await invite(services, LEILA, 'Leila Haddad');
    const [offer] = sent;
    expect(offer).toMatchObject({ userId: LEILA, payload: { ns: ADHOC_INVITE_NS, attrs: { status: 'offer', from: String(ME), to: String(LEILA) } } });
    const id = offer!.payload.attrs.inviteId!;
    expect(meetingsState.adhocModal).toBe(id);
    const accept = { ...offer!.payload.attrs, status: 'accept', from: String(LEILA), to: String(ME) };
    onPayload(services, event(accept));
    // A repeat (a reconnect's catch-up) does not make a second meeting.
    onPayload(services, event(accept));
    // (Promises settle; the clock does not move.)
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map((s) => s.payload.attrs.status)).toEqual(['offer', 'available']);
    expect(created).toHaveBeenCalledTimes(1);
    expect(created.mock.calls[0]![1]).toMatchObject({ instant: true, is_private: true, ad_hoc: true, invitees: [{ user_id: LEILA }] });
    expect(sent[1]!.payload.attrs).toMatchObject({ meetingId: '41', meetingAccessCode: '123456789', url: 'https://m.example/uc/pedro/abcde' });
    expect(sent[1]!.body).toBe('The meeting is ready: https://m.example/uc/pedro/abcde');
    expect(sent[0]!.body).toBe('Pedro Alves invites you to a video meeting now. The invitation expires in 2 minutes.');
    await vi.advanceTimersByTimeAsync(1999);
    expect(opened).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(opened).toHaveBeenCalledTimes(1);
    expect(meetingsState.adhocModal).toBeNull();
  });

  it('a decline closes nothing by itself but shows it; cancel after it is refused with the reason', async () => {
    await invite(services, LEILA, 'Leila Haddad');
    const attrs = sent[0]!.payload.attrs;
    onPayload(services, event({ ...attrs, status: 'decline', from: String(LEILA), to: String(ME) }));
    expect(meetingsState.adhoc[attrs.inviteId!]!.status).toBe('decline');
    await apply(attrs.inviteId!, { kind: 'cancel' });
    expect(toasts).toMatchObject([{ titleKey: 'meetings:adhoc.refused.answered' }]);
    expect(sent).toHaveLength(1);
  });

  it('expires after 120000 ms without an answer', async () => {
    await invite(services, LEILA, 'Leila Haddad');
    const id = sent[0]!.payload.attrs.inviteId!;
    await vi.advanceTimersByTimeAsync(120_000 + 100);
    expect(meetingsState.adhoc[id]!.status).toBe('expired');
    onPayload(services, event({ ...sent[0]!.payload.attrs, status: 'accept', from: String(LEILA), to: String(ME) }));
    await vi.advanceTimersByTimeAsync(3000);
    expect(created).not.toHaveBeenCalled();
  });
});

describe('ad-hoc invites (the invitee)', () => {
  const offer = (over: Record<string, string> = {}) => ({ status: 'offer', inviteId: 'inv-9', from: String(LEILA), to: String(ME), expires: String(Date.now() + 120_000), ...over });

  it('an offer is recorded and notified; accept sends accept once, available opens the window', async () => {
    onPayload(services, event(offer()));
    expect(meetingsState.adhoc['inv-9']).toMatchObject({ role: 'invitee', status: 'offer', peerName: 'Leila Haddad' });
    expect(toasts).toHaveLength(1);
    await apply('inv-9', { kind: 'accept' });
    await apply('inv-9', { kind: 'accept' });
    expect(sent.map((s) => s.payload.attrs.status)).toEqual(['accept']);
    expect(toasts[1]).toMatchObject({ titleKey: 'meetings:adhoc.refused.answered' });
    onPayload(services, event(offer({ status: 'available', meetingId: '41', url: 'https://m.example/uc/leila/abcde' })));
    await vi.advanceTimersByTimeAsync(2000);
    expect(opened).toHaveBeenCalledTimes(1);
  });

  it('decline sends the rejection with its readable text', async () => {
    onPayload(services, event(offer()));
    await apply('inv-9', { kind: 'decline' });
    expect(sent).toMatchObject([{ userId: LEILA, body: 'Pedro Alves declined the meeting invitation.', payload: { attrs: { status: 'decline' } } }]);
  });

  it('what older history holds is shown, never acted on: no notification, no window', async () => {
    onPayload(services, event(offer(), { live: false }));
    expect(toasts).toHaveLength(0);
    await apply('inv-9', { kind: 'accept' });
    onPayload(services, event(offer({ status: 'available', meetingId: '41', url: 'https://m.example/uc/leila/abcde' }), { live: false }));
    await vi.advanceTimersByTimeAsync(3000);
    expect(opened).not.toHaveBeenCalled();
    expect(meetingsState.adhoc['inv-9']!.status).toBe('available');
  });

  it('an offer addressed to someone else, or past its time, gets no buttons', () => {
    onPayload(services, event(offer({ inviteId: 'other', to: '99' })));
    expect(meetingsState.adhoc.other).toBeUndefined();
    onPayload(services, event(offer({ inviteId: 'old', expires: String(Date.now() - 1) })));
    expect(meetingsState.adhoc.old!.status).toBe('expired');
    expect(toasts).toHaveLength(0);
  });
});

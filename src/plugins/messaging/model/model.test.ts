import { describe, expect, it } from 'vitest';
import { addressKind, chatBody, filterSessions, mergeMessages, MESSAGE_ID_PREFIX, newMessageId, nextStatus, totalUnread, uiKind, unreadCount, type ChatMessage } from './chat';
import { fromWire, IN_MEETING, PresenceDebouncer, ResourcePresence, restoredOwnState, toWire, type Clock } from './presence';

const msg = (over: Partial<ChatMessage>): ChatMessage => ({ id: 'x', stanzaId: null, from: 'bob@uc.local', body: 'hi', timestamp: 1, delayed: false, archived: false, mine: false, status: null, ...over });

describe('presence mapping', () => {
  it('sends only the show values chat (available), away, xa, dnd; invisible shows unavailable to others', () => {
    expect(toWire('available')).toEqual({ show: 'chat' });
    expect(toWire('away')).toEqual({ show: 'away' });
    expect(toWire('busy')).toEqual({ show: 'dnd' });
    expect(toWire('donotdisturb')).toEqual({ show: 'dnd', status: 'donotdisturb' });
    expect(toWire('lunch')).toEqual({ show: 'away', status: 'lunch' });
    expect(toWire('unavailable')).toEqual({ show: 'xa' });
    expect(toWire('custom', '  In the lab ')).toEqual({ show: 'chat', status: 'In the lab' });
    expect(toWire('invisible')).toEqual({ type: 'unavailable' });
  });

  it('reads others: do-not-disturb maps to busy, "on call" to available, unknown text to custom, unavailable to unavailable', () => {
    expect(fromWire({ show: 'chat' })).toEqual({ state: 'available', text: '' });
    expect(fromWire({})).toEqual({ state: 'available', text: '' });
    expect(fromWire({ show: 'xa' }).state).toBe('unavailable');
    expect(fromWire({ show: 'dnd' }).state).toBe('busy');
    expect(fromWire({ show: 'dnd', status: 'donotdisturb' }).state).toBe('busy');
    expect(fromWire({ show: 'away', status: 'lunch' }).state).toBe('lunch');
    expect(fromWire({ show: 'chat', status: 'On call' }).state).toBe('available');
    expect(fromWire({ show: 'chat', status: 'Back at 3' })).toEqual({ state: 'custom', text: 'Back at 3' });
    expect(fromWire({ type: 'unavailable', status: 'whatever' }).state).toBe('unavailable');
    // Round trip of every own state as others see it.
    expect(fromWire(toWire('invisible')).state).toBe('unavailable');
    expect(fromWire(toWire('donotdisturb')).state).toBe('busy');
  });

  it('an available user on a call publishes "on call", which others read as available; other states are unchanged by a call', () => {
    expect(toWire('available', '', true)).toEqual({ show: 'chat', status: 'on call' });
    expect(fromWire(toWire('available', '', true))).toEqual({ state: 'available', text: '' });
    expect(toWire('away', '', true)).toEqual({ show: 'away' });
    expect(toWire('custom', 'In the lab', true)).toEqual({ show: 'chat', status: 'In the lab' });
  });

  it('own unavailable is replaced by the previously stored state', () => {
    expect(restoredOwnState('away', null)).toBe('away');
    expect(restoredOwnState('unavailable', 'busy')).toBe('busy');
    expect(restoredOwnState('unavailable', 'unavailable')).toBe('available');
    expect(restoredOwnState(null, null)).toBe('available');
  });

  it('debounces others by 400 ms per user, and keeps "in a meeting" through the debounce', () => {
    let now = 0;
    const timers: Array<{ at: number; fn: () => void; live: boolean }> = [];
    const clock: Clock = {
      now: () => now,
      setTimeout: (fn, ms) => {
        const t = { at: now + ms, fn, live: true };
        timers.push(t);
        return t;
      },
      clearTimeout: (h) => h && ((h as { live: boolean }).live = false),
    };
    const advance = (ms: number) => {
      now += ms;
      for (const t of timers) if (t.live && t.at <= now) (t.live = false), t.fn();
    };
    const applied: string[] = [];
    const d = new PresenceDebouncer((jid, p) => applied.push(`${jid}:${p.state}`), clock);
    d.push('bob', { state: 'away', text: '' });
    advance(300);
    d.push('bob', { state: 'busy', text: '' });
    d.push('carol', { state: 'away', text: '' });
    advance(399);
    expect(applied).toEqual([]);
    advance(1);
    expect(applied).toEqual(['bob:busy', 'carol:away']);
    d.lock('bob');
    d.push('bob', { state: 'available', text: '' });
    advance(400);
    expect(applied).toEqual(['bob:busy', 'carol:away']);
    d.unlock('bob');
    d.push('bob', { state: 'available', text: '' });
    advance(400);
    expect(applied.at(-1)).toBe('bob:available');
  });
});

describe('In Meeting', () => {
  it('goes out as busy named In Meeting (invisible stays invisible) and reads back as in a meeting', () => {
    expect(toWire('available', '', false, true)).toEqual({ show: 'dnd', status: IN_MEETING });
    expect(toWire('away', '', true, true)).toEqual({ show: 'dnd', status: IN_MEETING });
    expect(toWire('invisible', '', false, true)).toEqual({ type: 'unavailable' });
    expect(fromWire({ show: 'dnd', status: 'in meeting' })).toEqual({ state: 'custom', text: IN_MEETING, inMeeting: true });
  });

  it("wins over the user's other windows, and when the meeting window goes the others' presence comes back", () => {
    const r = new ResourcePresence();
    const away = { state: 'away', text: '' } as const;
    const meeting = fromWire({ show: 'dnd', status: IN_MEETING });
    expect(r.update('bob', 'desk', away)).toEqual(away);
    expect(r.update('bob', 'meeting', meeting)).toEqual(meeting);
    // The desk window changes later: still in the meeting.
    expect(r.update('bob', 'desk', { state: 'busy', text: '' })).toEqual(meeting);
    // The meeting window closes (however it ends, the server says unavailable): the desk's state again.
    expect(r.update('bob', 'meeting', { state: 'unavailable', text: '' })).toEqual({ state: 'busy', text: '' });
    // The last window goes: offline.
    expect(r.update('bob', 'desk', { state: 'unavailable', text: '' })).toEqual({ state: 'unavailable', text: '' });
  });

  it('is shown at once and locked through the debounce', () => {
    const applied: string[] = [];
    let pendingFn: (() => void) | null = null;
    const clock: Clock = { now: () => 0, setTimeout: (fn) => ((pendingFn = fn), {}), clearTimeout: () => (pendingFn = null) };
    const d = new PresenceDebouncer((jid, p) => applied.push(`${jid}:${p.text || p.state}`), clock);
    d.push('bob', { state: 'away', text: '' });
    d.lock('bob', { state: 'custom', text: IN_MEETING, inMeeting: true });
    expect(applied).toEqual([`bob:${IN_MEETING}`]);
    expect(pendingFn).toBeNull();
  });
});

describe('chat rules', () => {
  it('message ids start with ucc-V1 and are unique', () => {
    const a = newMessageId();
    expect(a.startsWith(`${MESSAGE_ID_PREFIX}-`)).toBe(true);
    expect(MESSAGE_ID_PREFIX).toBe('ucc-V1');
    expect(new Set(Array.from({ length: 100 }, () => newMessageId())).size).toBe(100);
  });

  it('address prefixes and session kinds (group when more than 2 members)', () => {
    expect(addressKind('c.15551234@uc.local')).toBe('sms');
    expect(addressKind('t.abc@uc.local')).toBe('textGroup');
    expect(addressKind('v.room@conference.uc.local')).toBe('meeting');
    expect(addressKind('bob@uc.local')).toBe('user');
    expect(uiKind('chat', 2)).toBe('chat');
    expect(uiKind('chat', 3)).toBe('gchat');
    expect(uiKind('groupchat', 2)).toBe('gchat');
    expect(uiKind('sms', 2)).toBe('sms');
    expect(uiKind('mms', 4)).toBe('gsms');
  });

  it('a delivery status never goes backwards', () => {
    expect(nextStatus(null, 'delivered')).toBe('delivered');
    expect(nextStatus('delivered', 'received')).toBe('received');
    expect(nextStatus('received', 'delivered')).toBe('received');
    expect(nextStatus('received', 'failed')).toBe('received');
    expect(nextStatus(null, 'failed')).toBe('failed');
    expect(nextStatus('failed', 'delivered')).toBe('delivered');
  });

  it('sends trimmed text; blank input sends nothing', () => {
    expect(chatBody('  hi \n')).toBe('hi');
    expect(chatBody(' \n ')).toBeNull();
    expect(chatBody('<b>x</b>')).toBe('<b>x</b>');
  });

  it('unread: others\' messages after the read position; muted sessions are left out of the badge', () => {
    const ms = [msg({ timestamp: 1 }), msg({ timestamp: 5, mine: true }), msg({ timestamp: 6 }), msg({ timestamp: 7 })];
    expect(unreadCount(ms, 0)).toBe(3);
    expect(unreadCount(ms, 6)).toBe(1);
    expect(totalUnread([{ unread: 2, muted: false }, { unread: 5, muted: true }, { unread: 1, muted: false }])).toBe(3);
  });

  it('the messages bar: all/unread/muted, search on subject or member names, newest first', () => {
    const s = [
      { jid: 'a', name: 'Bob Martinez', members: ['Bob Martinez'], unread: 1, muted: false, lastActivity: 1 },
      { jid: 'b', name: 'Carol Ode', members: ['Carol Ode'], unread: 0, muted: true, lastActivity: 3 },
      { jid: 'c', name: 'Sales', subject: 'Quarter', members: ['Dan Ray'], unread: 0, muted: false, lastActivity: 2 },
    ];
    expect(filterSessions(s, 'all', '').map((x) => x.jid)).toEqual(['b', 'c', 'a']);
    expect(filterSessions(s, 'unread', '').map((x) => x.jid)).toEqual(['a']);
    expect(filterSessions(s, 'muted', '').map((x) => x.jid)).toEqual(['b']);
    expect(filterSessions(s, 'all', 'quart').map((x) => x.jid)).toEqual(['c']);
    expect(filterSessions(s, 'all', 'dan').map((x) => x.jid)).toEqual(['c']);
    expect(filterSessions(s, 'all', 'MARTI').map((x) => x.jid)).toEqual(['a']);
  });

  it('merging keeps one copy of a message seen live, from offline storage and from the archive', () => {
    const live = msg({ id: 'ucc-V1-1', timestamp: 10 });
    const again = msg({ id: 'ucc-V1-1', stanzaId: '1700', timestamp: 10, archived: true });
    const older = msg({ id: 'ucc-V1-0', stanzaId: '1600', timestamp: 5, archived: true });
    const merged = mergeMessages([live], [again, older]);
    expect(merged.map((m) => m.id)).toEqual(['ucc-V1-0', 'ucc-V1-1']);
    expect(merged[1]!.stanzaId).toBe('1700');
    expect(mergeMessages(merged, [msg({ id: 'other', stanzaId: '1600' })])).toHaveLength(2);
  });
});

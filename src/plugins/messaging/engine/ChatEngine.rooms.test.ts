import { Strophe } from 'strophe.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chat, resetChat } from '../state';
import { ChatEngine } from './ChatEngine';
import { testEngineDeps } from './testEngineDeps';

/*
 * The group-session lifecycle through the engine, with a scripted stand-in for the Strophe
 * connection (the real ejabberd is exercised by tests/services and e2e/group-chat.spec.ts).
 */

const xml = (s: string) => Strophe.xmlHtmlNode(s).documentElement as unknown as Element;
const ROOM = 'g-1@conference.uc.local';
const ROOM2 = 'g-2@conference.uc.local';

type Handler = (el: Element) => boolean;

class FakeConnection {
  handlers: Array<{ fn: Handler; name: string | null }> = [];
  sent: Element[] = [];
  jid = 'alice@uc.local/uc-test';
  connected = false;
  _proto = {};
  private n = 0;
  private cb: ((status: number) => void) | null = null;
  /** Room archives by room JID: ids and bodies, oldest first. */
  archive: Record<string, Array<{ id: string; body: string }>> = {};

  /** One RSM page before `<before>` (newest first page when empty), results sent as messages first. */
  private page(room: string, q: Element, id: string): Element {
    const all = this.archive[room]!;
    const max = Number(q.getElementsByTagName('max')[0]?.textContent ?? 25);
    const before = q.getElementsByTagName('before')[0]?.textContent || null;
    const end = before ? all.findIndex((m) => m.id === before) : all.length;
    const slice = all.slice(Math.max(0, end - max), end);
    const queryid = q.getAttribute('queryid');
    for (const [i, m] of slice.entries()) {
      this.receive(
        `<message xmlns="jabber:client" from="${room}"><result xmlns="urn:xmpp:mam:2" queryid="${queryid}" id="${m.id}"><forwarded xmlns="urn:xmpp:forward:0"><delay xmlns="urn:xmpp:delay" stamp="${new Date(Date.UTC(2026, 0, 1, 0, 0, Number(m.id)) + i).toISOString()}"/><message xmlns="jabber:client" from="${room}/bob" type="groupchat" id="a${m.id}"><body>${m.body}</body></message></forwarded></result></message>`,
      );
    }
    const complete = end - max <= 0;
    return xml(
      `<iq type="result" id="${id}"><fin xmlns="urn:xmpp:mam:2" complete="${complete}"><set xmlns="http://jabber.org/protocol/rsm">${slice.length ? `<first>${slice[0]!.id}</first><last>${slice.at(-1)!.id}</last>` : ''}<count>${all.length}</count></set></fin></iq>`,
    );
  }

  /** IQ answers by a test: return an error condition to refuse. */
  refuse: (iq: Element) => string | null = () => null;

  addHandler(fn: Handler, _ns: string | null, name: string | null) {
    const h = { fn, name };
    this.handlers.push(h);
    return h;
  }
  deleteHandler(h: unknown) {
    this.handlers = this.handlers.filter((x) => x !== h);
  }
  getUniqueId(p: string) {
    return `${p}-${++this.n}`;
  }
  connect(_jid: string, _pass: string, cb: (status: number) => void) {
    this.cb = cb;
    this.connected = true;
    queueMicrotask(() => cb(Strophe.Status.CONNECTED));
  }
  drop() {
    this.connected = false;
    this.cb?.(Strophe.Status.DISCONNECTED);
  }
  reset() {}
  disconnect() {}
  send(el: Element) {
    this.sent.push(el);
  }
  /** Delivers a stanza to the engine's handlers. */
  receive(s: string) {
    const el = xml(s);
    for (const h of this.handlers.slice()) if (!h.name || h.name === el.nodeName) h.fn(el);
  }
  sendIQ(el: Element, ok: (r: Element) => void, fail: (r: Element | null) => void) {
    const id = el.getAttribute('id') ?? '';
    queueMicrotask(() => {
      const condition = this.refuse(el);
      if (condition) return fail(xml(`<iq type="error" id="${id}"><error type="cancel"><${condition} xmlns="urn:ietf:params:xml:ns:xmpp-stanzas"/></error></iq>`));
      const q = el.getElementsByTagName('query')[0];
      const to = el.getAttribute('to');
      if (q?.getAttribute('xmlns') === 'urn:xmpp:mam:2' && to && this.archive[to]) return ok(this.page(to, q, id));
      if (q?.getAttribute('xmlns') === 'urn:xmpp:mam:2') return ok(xml(`<iq type="result" id="${id}"><fin xmlns="urn:xmpp:mam:2" complete="true"><set xmlns="http://jabber.org/protocol/rsm"><count>0</count></set></fin></iq>`));
      if (q?.getAttribute('xmlns') === 'jabber:iq:private') return ok(xml(`<iq type="result" id="${id}"><query xmlns="jabber:iq:private"><chats xmlns="urn:uc:chats:0">{}</chats></query></iq>`));
      ok(xml(`<iq type="result" id="${id}"/>`));
    });
  }
}

const room = (jid: string, subject: string) => ({
  jid,
  subject,
  created_at: '2026-01-01T00:00:00.000Z',
  members: [
    { user_id: 1, jid: 'alice@uc.local', name: 'Alice Nguyen', affiliation: 'owner' },
    { user_id: 2, jid: 'bob@uc.local', name: 'Bob Martinez', affiliation: 'owner' },
    { user_id: 3, jid: 'carol@uc.local', name: 'Carol Okafor', affiliation: 'owner' },
  ],
});

let rooms: ReturnType<typeof room>[];
let conn: FakeConnection;
let engine: ChatEngine;
/** What the engine asked to announce, notify and chime for. */
let announced: Array<[string, string, string]>;
const api = {
  get: vi.fn(async (path: string) => {
    if (path === '/v1/chat/contacts') return { contacts: [{ user_id: 2, jid: 'bob@uc.local', name: 'Bob Martinez' }] };
    if (path === '/v1/xmpp-token') return { jid: 'alice@uc.local', token: 't', expires_at: new Date(Date.now() + 600_000).toISOString(), ws_url: 'ws://x/ws' };
    if (path === '/v1/chat/rooms') return { rooms };
    throw new Error(path);
  }),
  post: vi.fn(),
  put: vi.fn(),
  delete: vi.fn(async () => undefined),
};

async function connected(): Promise<void> {
  await vi.waitFor(() => expect(chat.status).toBe('connected'));
}

beforeEach(async () => {
  resetChat();
  rooms = [room(ROOM, 'Launch'), room(ROOM2, 'Ops')];
  conn = new FakeConnection();
  announced = [];
  // Ops has 30 archived messages: a newest page of 25, then 5 older.
  conn.archive[ROOM2] = Array.from({ length: 30 }, (_, i) => ({ id: String(100 + i), body: `old ${i}` }));
  engine = new ChatEngine(
    testEngineDeps({
      api: api as never,
      createConnection: () => conn as never,
      announceNew: (from, body, jid) => announced.push([from, body, jid]),
    }),
  );
  engine.start();
  await connected();
});

afterEach(() => engine.dispose());

describe('group sessions', () => {
  it('are created from the API list, hydrated with the newest page, members with role and affiliation', () => {
    const s = chat.sessions[ROOM]!;
    expect(s).toMatchObject({ type: 'groupchat', name: 'Launch', subject: 'Launch', phase: 'hydrated' });
    expect(s.history.complete).toBe(true);
    expect(s.members.map((m) => `${m.name}:${m.affiliation}:${m.role}`)).toEqual(['Alice Nguyen:owner:moderator', 'Bob Martinez:owner:moderator', 'Carol Okafor:owner:moderator']);
  });

  it('take room messages (MucSub) with their author, count them unread and mark our own Received when the room sends them back', () => {
    conn.receive(
      `<message xmlns="jabber:client" from="${ROOM}" to="alice@uc.local"><event xmlns="http://jabber.org/protocol/pubsub#event"><items node="urn:xmpp:mucsub:nodes:messages"><item><message xmlns="jabber:client" from="${ROOM}/bob" type="groupchat" id="m1"><body>hi</body><stanza-id xmlns="urn:xmpp:sid:0" by="${ROOM}" id="17"/></message></item></items></event></message>`,
    );
    const s = chat.sessions[ROOM]!;
    expect(s.messages.map((m) => [m.from, m.body, m.mine])).toEqual([['bob@uc.local', 'hi', false]]);
    expect(s.unread).toBe(1);
    engine.send(ROOM, 'hello');
    const out = conn.sent.at(-1)!;
    expect(out.getAttribute('type')).toBe('groupchat');
    const id = out.getAttribute('id')!;
    conn.receive(
      `<message xmlns="jabber:client" from="${ROOM}"><event xmlns="http://jabber.org/protocol/pubsub#event"><items node="urn:xmpp:mucsub:nodes:messages"><item><message xmlns="jabber:client" from="${ROOM}/alice" type="groupchat" id="${id}"><body>hello</body></message></item></items></event></message>`,
    );
    expect(s.messages.filter((m) => m.mine).map((m) => m.status)).toEqual(['received']);
    expect(s.unread).toBe(1);
  });

  it('alert (announce, desktop notification, sound) for a new message in a group not on screen, with the group to open; not when muted or on screen', () => {
    const say = (id: string, body: string) =>
      conn.receive(
        `<message xmlns="jabber:client" from="${ROOM}" to="alice@uc.local"><event xmlns="http://jabber.org/protocol/pubsub#event"><items node="urn:xmpp:mucsub:nodes:messages"><item><message xmlns="jabber:client" from="${ROOM}/bob" type="groupchat" id="${id}"><body>${body}</body></message></item></items></event></message>`,
      );
    say('n1', 'standup moved');
    say('n1', 'standup moved');
    expect(announced).toEqual([['Bob Martinez (Launch)', 'standup moved', ROOM]]);
    engine.setMuted(ROOM, true);
    say('n2', 'muted');
    engine.setMuted(ROOM, false);
    // On screen in a tab in front: nothing; the same conversation in a hidden tab: alerted.
    chat.open = ROOM;
    vi.stubGlobal('document', { visibilityState: 'visible' });
    say('n3', 'on screen');
    vi.stubGlobal('document', { visibilityState: 'hidden' });
    say('n4', 'tab hidden');
    vi.unstubAllGlobals();
    expect(announced.map((a) => a[1])).toEqual(['standup moved', 'tab hidden']);
  });

  it('are destroyed when the group leaves the API list (removed: affiliation none), and the screen can say why', async () => {
    engine.setRosterGroup(ROOM, 'pin');
    rooms = [room(ROOM2, 'Ops')];
    conn.receive(`<message xmlns="jabber:client" from="uc.local" to="alice@uc.local" type="headline"><subject>urn:uc:rooms:0</subject><body>{"room":"${ROOM}"}</body></message>`);
    await vi.waitFor(() => expect(chat.sessions[ROOM]).toBeUndefined());
    expect(chat.ended[ROOM]).toBe('affiliationNone');
    expect(chat.rosterGroups.pin).not.toContain(ROOM);
    expect(chat.sessions[ROOM2]).toBeDefined();
  });

  it('are destroyed when the room refuses a message (access denied)', () => {
    engine.send(ROOM, 'anyone?');
    const id = conn.sent.at(-1)!.getAttribute('id')!;
    conn.receive(`<message xmlns="jabber:client" from="${ROOM}" type="error" id="${id}"><error type="auth"><forbidden xmlns="urn:ietf:params:xml:ns:xmpp-stanzas"/></error></message>`);
    expect(chat.sessions[ROOM]).toBeUndefined();
    expect(chat.ended[ROOM]).toBe('accessDenied');
  });

  it('end when the user leaves the group (the API is asked first)', async () => {
    expect(await engine.sessionAction('leave', ROOM)).toBe(true);
    expect(api.delete).toHaveBeenCalledWith(`/v1/chat/rooms/${encodeURIComponent(ROOM)}/members/me`);
    expect(chat.ended[ROOM]).toBe('left');
  });

  it('are re-hydrated after a reconnect (initialised, then hydrated again)', async () => {
    const s = chat.sessions[ROOM]!;
    conn.drop();
    expect(chat.status).toBe('disconnected');
    // What phase the session is in when its room archive is asked again.
    const phases: string[] = [];
    const next = new FakeConnection();
    next.refuse = (iq) => {
      if (iq.getAttribute('to') === ROOM) phases.push(chat.sessions[ROOM]!.phase);
      return null;
    };
    conn = next;
    engine.reconnect();
    await connected();
    expect(phases).toEqual(['initialised']);
    expect(s.phase).toBe('hydrated');
  });

  it('move between roster groups (pin, recent, closed), one at a time; a closed group comes back with a new message', () => {
    engine.setRosterGroup(ROOM, 'pin');
    engine.setRosterGroup(ROOM, 'closed');
    expect(chat.rosterGroups).toMatchObject({ pin: [], closed: [ROOM] });
    conn.receive(
      `<message xmlns="jabber:client" from="${ROOM}"><event xmlns="http://jabber.org/protocol/pubsub#event"><items node="urn:xmpp:mucsub:nodes:messages"><item><message xmlns="jabber:client" from="${ROOM}/carol" type="groupchat" id="m2"><body>back</body></message></item></items></event></message>`,
    );
    expect(chat.rosterGroups).toMatchObject({ recent: [ROOM], closed: [] });
  });

  it('page history by 25 from the room archive with historyStatus first/last/count/complete/pending', async () => {
    const s = chat.sessions[ROOM2]!;
    expect(s.messages.map((m) => m.body)).toEqual(Array.from({ length: 25 }, (_, i) => `old ${i + 5}`));
    expect(s.history).toEqual({ first: '105', last: '129', count: 30, complete: false, pending: false });
    const older = engine.loadOlder(ROOM2);
    expect(s.history.pending).toBe(true);
    await older;
    expect(s.messages).toHaveLength(30);
    expect(s.messages[0]!.body).toBe('old 0');
    expect(s.history).toEqual({ first: '100', last: '129', count: 30, complete: true, pending: false });
    // Authors come from the room nickname; all of them unread until read.
    expect(s.messages.every((m) => m.from === 'bob@uc.local' && !m.mine)).toBe(true);
    expect(s.unread).toBe(30);
    engine.markRead(ROOM2);
    expect(s.unread).toBe(0);
  });

  it('read the groups once for a burst of notices, and once more for a notice during that read', async () => {
    const reads = () => api.get.mock.calls.filter(([p]) => p === '/v1/chat/rooms').length;
    const before = reads();
    const notice = `<message xmlns="jabber:client" from="uc.local" to="alice@uc.local" type="headline"><subject>urn:uc:rooms:0</subject><body>{}</body></message>`;
    for (let i = 0; i < 5; i++) conn.receive(notice);
    rooms = [room(ROOM, 'Launch, renamed')];
    await vi.waitFor(() => expect(chat.sessions[ROOM]?.name).toBe('Launch, renamed'));
    await vi.waitFor(() => expect(chat.sessions[ROOM2]).toBeUndefined());
    expect(reads() - before).toBe(2);
  });
});

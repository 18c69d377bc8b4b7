import { Strophe } from 'strophe.js';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { chat, resetChat } from '../state';
import { ChatEngine } from './ChatEngine';
import type { ChatEngineDeps } from './deps';
import { testEngineDeps } from './testEngineDeps';

/*
 * Test support for the engine's group tests (not shipped: only tests import it): a scripted
 * stand-in for the Strophe connection with room archives, the API's rooms, and two groups.
 */

export const xml = (s: string) => Strophe.xmlHtmlNode(s).documentElement as unknown as Element;
export const ROOM = 'g-1@conference.uc.local';
export const ROOM2 = 'g-2@conference.uc.local';

type Handler = (el: Element) => boolean;

export class FakeConnection {
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

export const room = (jid: string, subject: string) => ({
  jid,
  subject,
  created_at: '2026-01-01T00:00:00.000Z',
  members: [
    { user_id: 1, jid: 'alice@uc.local', name: 'Alice Nguyen', affiliation: 'owner' },
    { user_id: 2, jid: 'bob@uc.local', name: 'Bob Martinez', affiliation: 'owner' },
    { user_id: 3, jid: 'carol@uc.local', name: 'Carol Okafor', affiliation: 'owner' },
  ],
});

/** The API as the engine reads it: one colleague, a token, and the groups `rooms()` lists. */
export const roomsApi = (rooms: () => ReturnType<typeof room>[]) => ({
  get: vi.fn(async (path: string) => {
    if (path === '/v1/chat/contacts') return { contacts: [{ user_id: 2, jid: 'bob@uc.local', name: 'Bob Martinez' }] };
    if (path === '/v1/xmpp-token') return { jid: 'alice@uc.local', token: 't', expires_at: new Date(Date.now() + 600_000).toISOString(), ws_url: 'ws://x/ws' };
    if (path === '/v1/chat/rooms') return { rooms: rooms() };
    throw new Error(path);
  }),
  post: vi.fn(),
  put: vi.fn(),
  delete: vi.fn(async () => undefined),
});

export async function connected(): Promise<void> {
  await vi.waitFor(() => expect(chat.status).toBe('connected'));
}

export interface RoomEngineTest {
  rooms: ReturnType<typeof room>[];
  conn: FakeConnection;
  engine: ChatEngine;
}

/**
 * A group test file's engine: before each test an empty chat store, the two groups (Ops with 30
 * archived messages: a newest page of 25, then 5 older), and an engine started and connected on
 * `api`; disposed after. `bind` hands each to the file's own variables: first the groups and the
 * connection (before the engine starts, so that `api` lists the file's `rooms`), then the engine.
 * The engine opens whatever connection the file's `conn` holds when it (re)connects: a test may
 * put a new one there.
 */
export function roomEngineTests(
  files: { api: ReturnType<typeof roomsApi>; conn: () => FakeConnection },
  bind: (t: Partial<RoomEngineTest>) => void,
  deps: () => Partial<ChatEngineDeps> = () => ({}),
): void {
  let engine: ChatEngine | undefined;
  beforeEach(async () => {
    resetChat();
    const conn = new FakeConnection();
    conn.archive[ROOM2] = Array.from({ length: 30 }, (_, i) => ({ id: String(100 + i), body: `old ${i}` }));
    bind({ rooms: [room(ROOM, 'Launch'), room(ROOM2, 'Ops')], conn });
    engine = new ChatEngine(testEngineDeps({ api: files.api as never, createConnection: () => files.conn() as never, ...deps() }));
    bind({ engine });
    engine.start();
    await connected();
  });
  afterEach(() => engine?.dispose());
}

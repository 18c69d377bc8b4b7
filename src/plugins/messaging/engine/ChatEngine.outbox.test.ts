import { Strophe } from 'strophe.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chat, resetChat } from '../state';
import { ChatEngine } from './ChatEngine';
import { OUTBOX_GIVE_UP_MS } from './outbox';
import { testEngineDeps } from './testEngineDeps';

/*
 * Messages written while chat is down: they wait ("Sending…"), go out once and in order when the
 * connection is back, and say "Not sent" (with Retry) if it stays away. A scripted stand-in for the
 * connection and a hand-driven clock; the real ejabberd killed and restarted: e2e/chat-outbox.spec.ts.
 */
const xml = (s: string) => Strophe.xmlHtmlNode(s).documentElement as unknown as Element;
const BOB = 'bob@uc.local';

class FakeConnection {
  handlers: Array<(el: Element) => boolean> = [];
  sent: Element[] = [];
  jid = 'alice@uc.local/uc-test';
  connected = false;
  _proto = {};
  /** Pings answered (the server has everything sent before), or left hanging (the socket is dying). */
  answerPings = true;
  /** What the server's archive holds of our own messages: (id, body) sent to bob. */
  archived: Array<{ id: string; body: string }> = [];
  addHandler(fn: (el: Element) => boolean) {
    this.handlers.push(fn);
    return fn;
  }
  deleteHandler(h: unknown) {
    this.handlers = this.handlers.filter((x) => x !== h);
  }
  getUniqueId(p: string) {
    return `${p}-1`;
  }
  connect(_j: string, _p: string, cb: (s: number) => void) {
    this.connected = true;
    queueMicrotask(() => cb(Strophe.Status.CONNECTED));
  }
  reset() {}
  disconnect() {}
  send(el: Element) {
    this.sent.push(el);
  }
  /** The chat messages that went out on this connection: [id, body]. */
  messages(): Array<[string, string]> {
    return this.sent.filter((e) => e.getElementsByTagName('body').length).map((e) => [e.getAttribute('id')!, e.getElementsByTagName('body')[0]!.textContent!]);
  }
  sendIQ(el: Element, ok: (r: Element) => void) {
    const id = el.getAttribute('id') ?? '';
    if (el.getElementsByTagName('ping').length && !this.answerPings) return;
    queueMicrotask(() => {
      const q = el.getElementsByTagName('query')[0];
      if (q?.getAttribute('xmlns') === 'urn:xmpp:mam:2') {
        const queryid = q.getAttribute('queryid');
        for (const [i, m] of this.archived.entries()) {
          const r = xml(
            `<message xmlns="jabber:client" to="${this.jid}"><result xmlns="urn:xmpp:mam:2" queryid="${queryid}" id="${1000 + i}"><forwarded xmlns="urn:xmpp:forward:0"><delay xmlns="urn:xmpp:delay" stamp="${new Date().toISOString()}"/><message xmlns="jabber:client" from="alice@uc.local/uc-old" to="${BOB}" type="chat" id="${m.id}"><body>${m.body}</body></message></forwarded></result></message>`,
          );
          for (const h of this.handlers.slice()) h(r);
        }
        return ok(xml(`<iq type="result" id="${id}"><fin xmlns="urn:xmpp:mam:2" complete="true"><set xmlns="http://jabber.org/protocol/rsm"><count>${this.archived.length}</count></set></fin></iq>`));
      }
      if (q?.getAttribute('xmlns') === 'jabber:iq:private') return ok(xml(`<iq type="result" id="${id}"><query xmlns="jabber:iq:private"><chats xmlns="urn:uc:chats:0">{}</chats></query></iq>`));
      ok(xml(`<iq type="result" id="${id}"/>`));
    });
  }
}

/** Timers that run when the test says so. */
class ManualClock {
  t = 0;
  private n = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();
  now = () => this.t;
  setTimeout = (fn: () => void, ms: number) => {
    this.timers.set(++this.n, { at: this.t + ms, fn });
    return this.n;
  };
  clearTimeout = (h: unknown) => void this.timers.delete(h as number);
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const next = [...this.timers].filter(([, x]) => x.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!next) break;
      this.timers.delete(next[0]);
      this.t = next[1].at;
      next[1].fn();
    }
    this.t = end;
  }
}

const api = {
  get: vi.fn(async (path: string) => {
    if (path === '/v1/chat/contacts') return { contacts: [{ user_id: 2, jid: BOB, name: 'Bob Martinez' }] };
    if (path === '/v1/xmpp-token') return { jid: 'alice@uc.local', token: 't', expires_at: new Date(Date.now() + 600_000).toISOString(), ws_url: 'ws://x/ws' };
    if (path === '/v1/chat/rooms') return { rooms: [] };
    throw new Error(path);
  }),
  post: vi.fn(),
  put: vi.fn(),
  delete: vi.fn(),
};

/** sessionStorage as a page of this tab would see it. */
const tabStorage = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k), m };
};

let conns: FakeConnection[];
let clock: ManualClock;
let announced: string[];
let storage: ReturnType<typeof tabStorage>;
let engine: ChatEngine;

const makeEngine = () =>
  new ChatEngine(
    testEngineDeps({
      api: api as never,
      clock,
      sessionStorage: storage,
      createConnection: () => {
        const c = new FakeConnection();
        // Whatever the previous connection's server archived, the next one's still has.
        c.archived = conns.at(-1)?.archived ?? [];
        conns.push(c);
        return c as never;
      },
      notify: { toast: () => '', dismiss: () => undefined, announce: (text) => void announced.push(text) },
    }),
  );

const conn = () => conns.at(-1)!;
const mine = () => chat.sessions[BOB]!.messages.filter((m) => m.mine).map((m) => [m.body, m.status]);
const backOnline = async () => {
  engine.reconnect();
  await vi.waitFor(() => expect(chat.status).toBe('connected'));
};

beforeEach(async () => {
  resetChat();
  conns = [];
  clock = new ManualClock();
  announced = [];
  storage = tabStorage();
  engine = makeEngine();
  engine.start();
  await vi.waitFor(() => expect(chat.status).toBe('connected'));
  await engine.hydrate(BOB);
});

afterEach(() => engine.dispose());

describe('the outbox', () => {
  it('keeps what is written while chat is down as Sending…, announced once, and sends it once, in order, when the connection is back', async () => {
    engine.send(BOB, 'before');
    await vi.waitFor(() => expect(mine()).toEqual([['before', 'delivered']]));
    engine.offline();
    expect(chat.status).toBe('disconnected');
    engine.typing(BOB, 'one');
    engine.send(BOB, 'one');
    engine.send(BOB, 'two');
    expect(mine()).toEqual([
      ['before', 'delivered'],
      ['one', null],
      ['two', null],
    ]);
    expect(chat.sessions[BOB]!.input).toBe('');
    // Once for the outage, politely, not once per message.
    expect(announced).toEqual(['messaging:announce.queued']);

    await backOnline();
    expect(conn().messages().map(([, body]) => body)).toEqual(['one', 'two']);
    await vi.waitFor(() =>
      expect(mine()).toEqual([
        ['before', 'delivered'],
        ['one', 'delivered'],
        ['two', 'delivered'],
      ]),
    );
    // Another drop and reconnect sends nothing again.
    engine.offline();
    await backOnline();
    expect(conn().messages()).toEqual([]);
    expect(conns.flatMap((c) => c.messages().map(([, b]) => b))).toEqual(['before', 'one', 'two']);
  });

  it('sends again, with the same id, what went out as the connection died, unless the catch-up shows the server has it', async () => {
    conn().answerPings = false;
    engine.send(BOB, 'archived');
    engine.send(BOB, 'lost');
    const [archivedId, lostId] = conn().messages().map(([id]) => id) as [string, string];
    engine.offline();
    // The connection dropped with both unconfirmed: they wait again, they have not failed.
    expect(mine()).toEqual([
      ['archived', null],
      ['lost', null],
    ]);
    // The server had archived the first before it died.
    conn().archived = [{ id: archivedId, body: 'archived' }];

    await backOnline();
    expect(conn().messages()).toEqual([[lostId, 'lost']]);
    await vi.waitFor(() =>
      expect(mine()).toEqual([
        ['archived', 'delivered'],
        ['lost', 'delivered'],
      ]),
    );
  });

  it('gives up after the bound: Not sent, announced once; Retry sends it when the connection is back', async () => {
    engine.offline();
    engine.send(BOB, 'one');
    clock.advance(60_000);
    engine.send(BOB, 'two');
    clock.advance(OUTBOX_GIVE_UP_MS - 60_000);
    expect(mine()).toEqual([
      ['one', 'failed'],
      ['two', null],
    ]);
    clock.advance(60_000);
    expect(mine()).toEqual([
      ['one', 'failed'],
      ['two', 'failed'],
    ]);
    expect(announced).toEqual(['messaging:announce.queued', 'messaging:announce.notSent', 'messaging:announce.notSent']);

    // Back: what was given up is not sent by itself.
    await backOnline();
    expect(conn().messages()).toEqual([]);
    const two = chat.sessions[BOB]!.messages.find((m) => m.body === 'two')!;
    engine.retry(BOB, two.id);
    expect(conn().messages()).toEqual([[two.id, 'two']]);
    await vi.waitFor(() =>
      expect(mine()).toEqual([
        ['one', 'failed'],
        ['two', 'delivered'],
      ]),
    );
  });

  it('a message the server refuses is Not sent at once, and Retry while down queues it again', async () => {
    conn().answerPings = false;
    engine.send(BOB, 'refused');
    const id = conn().messages()[0]![0];
    conn().handlers.forEach((h) => h(xml(`<message xmlns="jabber:client" from="${BOB}" to="alice@uc.local/uc-test" type="error" id="${id}"><error type="cancel"><service-unavailable xmlns="urn:ietf:params:xml:ns:xmpp-stanzas"/></error></message>`)));
    expect(mine()).toEqual([['refused', 'failed']]);
    engine.offline();
    engine.retry(BOB, id);
    expect(mine()).toEqual([['refused', null]]);
    await backOnline();
    expect(conn().messages()).toEqual([[id, 'refused']]);
  });

  it('keeps the waiting messages and the drafts across a reload of the tab, and forgets them at sign-out', async () => {
    engine.offline();
    engine.send(BOB, 'queued');
    engine.typing(BOB, 'half a senten');
    // The page is reloaded (no dispose: the tab just goes away) during the outage.
    resetChat();
    const before = conns.length;
    engine = makeEngine();
    engine.start();
    expect(chat.sessions[BOB]).toMatchObject({ name: 'Bob Martinez', input: 'half a senten' });
    expect(mine()).toEqual([['queued', null]]);
    await vi.waitFor(() => expect(chat.status).toBe('connected'));
    expect(conns.slice(before).flatMap((c) => c.messages().map(([, b]) => b))).toEqual(['queued']);
    await vi.waitFor(() => expect(mine()).toEqual([['queued', 'delivered']]));

    engine.dispose();
    expect(storage.m.size).toBe(0);
  });
});

import { Strophe } from 'strophe.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Connections } from '../../../shell/connections';
import { chat, resetChat } from '../state';
import { ChatEngine } from './ChatEngine';
import { testEngineDeps } from './testEngineDeps';

/*
 * A chat server that is down: every socket fails, and Strophe reports each failure more than once
 * (CONNFAIL, then DISCONNECTED). The shell's banner must still walk its schedule step by step.
 * (The real ejabberd killed and restarted: e2e/chat-restart.spec.ts.)
 */

const api = {
  get: vi.fn(async (path: string) => {
    if (path === '/v1/chat/contacts') return { contacts: [] };
    if (path === '/v1/xmpp-token') return { jid: 'alice@uc.local', token: 't', expires_at: new Date(Date.now() + 600_000).toISOString(), ws_url: 'ws://x/ws' };
    throw new Error(path);
  }),
  post: vi.fn(),
  put: vi.fn(),
  delete: vi.fn(),
};

/** A socket to a dead port, as Strophe reports it. */
const deadServer = () => ({
  connected: false,
  _proto: {},
  addHandler: () => ({}),
  deleteHandler: () => undefined,
  reset: () => undefined,
  disconnect: () => undefined,
  connect: (_jid: string, _pass: string, cb: (status: number) => void) =>
    queueMicrotask(() => {
      cb(Strophe.Status.CONNFAIL);
      cb(Strophe.Status.DISCONNECTED);
    }),
});

let engine: ChatEngine | null = null;
afterEach(() => {
  engine?.dispose();
  engine = null;
  resetChat();
});

describe('chat connection', () => {
  it('one failed connection is one drop: the banner retries after 0 s, then counts down from 15 s', async () => {
    const timers: Array<{ fn: () => void; ms: number }> = [];
    const clock = { now: () => 0, setTimeout: (fn: () => void, ms: number) => timers.push({ fn, ms }), clearTimeout: () => undefined };
    const connections = new Connections(clock);
    const reports: string[] = [];
    engine = new ChatEngine(
      testEngineDeps({
        api: api as never,
        connections: {
          register: (id, label, reconnect) => {
            const h = connections.register(id, label, reconnect);
            return { report: (s) => (reports.push(s), h.report(s)), dispose: () => h.dispose() };
          },
        },
        pingTimeoutMs: 25_000,
        createConnection: deadServer as never,
      }),
    );
    engine.start();
    await vi.waitFor(() => expect(chat.status).toBe('disconnected'));
    expect(reports).toEqual(['connecting', 'disconnected']);
    expect(connections.views.messaging).toMatchObject({ phase: 'retrying', nextRetryAt: 0 });
    // The immediate retry fails the same way: next try in 15 s, not 30 or 60.
    timers.findLast((t) => t.ms === 0)!.fn();
    await vi.waitFor(() => expect(reports).toEqual(['connecting', 'disconnected', 'connecting', 'disconnected']));
    expect(connections.views.messaging).toMatchObject({ phase: 'retrying', nextRetryAt: 15_000 });
  });

  it('in a cluster each reconnect takes the next node: the one that is gone is left for the other', async () => {
    const timers: Array<{ fn: () => void; ms: number }> = [];
    const clock = { now: () => 0, setTimeout: (fn: () => void, ms: number) => timers.push({ fn, ms }), clearTimeout: () => undefined };
    const connections = new Connections(clock);
    const urls: string[] = [];
    const clustered = {
      ...api,
      get: vi.fn(async (path: string) => {
        const answer = await api.get(path);
        return path === '/v1/xmpp-token' ? { ...answer, ws_url: 'ws://one/ws', ws_urls: ['ws://one/ws', 'ws://two/ws'] } : answer;
      }),
    };
    engine = new ChatEngine(
      testEngineDeps({
        api: clustered as never,
        connections,
        pingTimeoutMs: 25_000,
        createConnection: ((url: string) => (urls.push(url), deadServer())) as never,
      }),
    );
    engine.start();
    await vi.waitFor(() => expect(chat.status).toBe('disconnected'));
    timers.findLast((t) => t.ms === 0)!.fn();
    await vi.waitFor(() => expect(urls).toHaveLength(2));
    await vi.waitFor(() => expect(chat.status).toBe('disconnected'));
    timers.findLast((t) => t.ms === 15_000)!.fn();
    await vi.waitFor(() => expect(urls).toEqual(['ws://one/ws', 'ws://two/ws', 'ws://one/ws']));
  });
});

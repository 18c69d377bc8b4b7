/**
 * Strophe.js 5 in Node, as the product's client uses it: XMPP over WebSocket to ejabberd, logged in
 * with the API's JWT as the SASL PLAIN password. Shared by the service tests and bench/xmpp.ts.
 */
import { $iq, $msg, $pres, Strophe } from 'strophe.js';

// Strophe logs every step at debug level by default (console.debug): keep test output readable.
Strophe.setLogLevel(Strophe.LogLevel.FATAL);

export const NS = {
  mam: 'urn:xmpp:mam:2',
  rsm: 'http://jabber.org/protocol/rsm',
  forward: 'urn:xmpp:forward:0',
  pubsubEvent: 'http://jabber.org/protocol/pubsub#event',
  ping: 'urn:xmpp:ping',
  client: 'jabber:client',
} as const;

const STATUS_NAME = Object.fromEntries(Object.entries(Strophe.Status).map(([k, v]) => [v, k])) as Record<number, string>;

/** First child element with that local name (and namespace, when given). xmldom has no querySelector. */
export function child(el: Element | null | undefined, name: string, ns?: string): Element | null {
  if (!el) return null;
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).localName === name && (!ns || (n as Element).namespaceURI === ns)) return n as Element;
  }
  return null;
}

export const text = (el: Element | null | undefined): string | null => (el ? el.textContent : null);

/** A chat or groupchat message as received, MucSub-wrapped ones unwrapped (`mucsub` set). */
export interface ReceivedMessage {
  from: string;
  type: string;
  body: string | null;
  mucsub: boolean;
  stanza: Element;
}

export interface MamPage {
  messages: Array<{ id: string; from: string; body: string | null }>;
  complete: boolean;
  first: string | null;
  last: string | null;
  count: number | null;
}

export class XmppConnectError extends Error {
  constructor(
    readonly status: string,
    readonly condition: string | null,
  ) {
    super(`XMPP connect failed: ${status}${condition ? ` (${condition})` : ''}`);
  }
}

interface Waiter {
  match: (m: ReceivedMessage) => boolean;
  resolve: (m: ReceivedMessage) => void;
}

export class StropheClient {
  readonly received: ReceivedMessage[] = [];
  /** Called for every message as it arrives (e.g. an echo responder). */
  onMessage: ((m: ReceivedMessage) => void) | null = null;
  private waiters: Waiter[] = [];
  private constructor(readonly conn: InstanceType<typeof Strophe.Connection>) {}

  /**
   * Connects, binds `resource`, sends initial presence and waits until the server has processed it
   * (an IQ ping answered after it), so messages to the bare JID reach this session from then on.
   */
  static async connect(wsUrl: string, jid: string, token: string, opts: { timeoutMs?: number; presence?: boolean } = {}): Promise<StropheClient> {
    const conn = new Strophe.Connection(wsUrl);
    const client = new StropheClient(conn);
    conn.addHandler((el) => client.dispatch(el), null, 'message', null);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        conn.disconnect('timeout');
        reject(new XmppConnectError('TIMEOUT', null));
      }, opts.timeoutMs ?? 10_000);
      conn.connect(jid, token, (status, condition) => {
        if (status === Strophe.Status.CONNECTED) {
          clearTimeout(timer);
          resolve();
        } else if ([Strophe.Status.AUTHFAIL, Strophe.Status.CONNFAIL, Strophe.Status.ERROR, Strophe.Status.DISCONNECTED, Strophe.Status.CONNTIMEOUT].includes(status as never)) {
          clearTimeout(timer);
          reject(new XmppConnectError(STATUS_NAME[status] ?? String(status), condition));
        }
      });
    });
    if (opts.presence ?? true) {
      conn.send($pres());
      await client.ping();
    }
    return client;
  }

  get jid(): string {
    return this.conn.jid;
  }

  private dispatch(stanza: Element): boolean {
    const event = child(stanza, 'event', NS.pubsubEvent);
    const inner = child(child(child(event, 'items', NS.pubsubEvent), 'item', NS.pubsubEvent), 'message');
    const m: ReceivedMessage = inner
      ? { from: inner.getAttribute('from') ?? '', type: inner.getAttribute('type') ?? 'normal', body: text(child(inner, 'body')), mucsub: true, stanza }
      : { from: stanza.getAttribute('from') ?? '', type: stanza.getAttribute('type') ?? 'normal', body: text(child(stanza, 'body')), mucsub: false, stanza };
    // MAM results come as messages too; they are collected by mam(), not reported as traffic.
    if (!child(stanza, 'result', NS.mam)) {
      this.received.push(m);
      this.onMessage?.(m);
      const hit = this.waiters.filter((w) => w.match(m));
      this.waiters = this.waiters.filter((w) => !hit.includes(w));
      for (const w of hit) w.resolve(m);
    }
    return true; // keep the handler
  }

  /** The first message (already received or still to come) that matches, or a rejection after `timeoutMs`. */
  waitForMessage(match: (m: ReceivedMessage) => boolean, timeoutMs = 10_000, what = 'message'): Promise<ReceivedMessage> {
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        match,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`${this.jid}: no ${what} within ${timeoutMs} ms (got ${this.received.length}: ${this.received.slice(-3).map((m) => JSON.stringify(m.body)).join(', ')})`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  sendChat(to: string, body: string, type: 'chat' | 'groupchat' = 'chat'): void {
    this.conn.send($msg({ to, type, id: this.conn.getUniqueId('m') }).c('body').t(body));
  }

  iq(stanza: ReturnType<typeof $iq>, timeoutMs = 10_000): Promise<Element> {
    return new Promise((resolve, reject) => {
      this.conn.sendIQ(stanza, resolve, (err) => reject(new Error(`IQ failed: ${err ? Strophe.serialize(err) : 'timeout'}`)), timeoutMs);
    });
  }

  /** Server ping: answered only after everything this session sent before it was processed. */
  async ping(): Promise<void> {
    await this.iq($iq({ type: 'get', to: Strophe.getDomainFromJid(this.conn.jid) ?? '' }).c('ping', { xmlns: NS.ping }));
  }

  /**
   * One MAM page of this account's archive (or a room's, with `archive`): RSM `<max>` with
   * `<before>` (empty = the newest page), as the client pages history back.
   */
  async mam(opts: { with?: string; archive?: string; max: number; before?: string }): Promise<MamPage> {
    const queryid = this.conn.getUniqueId('mam');
    const messages: MamPage['messages'] = [];
    const handler = this.conn.addHandler(
      (stanza) => {
        const result = child(stanza, 'result', NS.mam);
        if (result?.getAttribute('queryid') !== queryid) return true;
        const fwd = child(child(result, 'forwarded', NS.forward), 'message');
        messages.push({ id: result.getAttribute('id') ?? '', from: fwd?.getAttribute('from') ?? '', body: text(child(fwd, 'body')) });
        return true;
      },
      NS.mam,
      'message',
      null,
    );
    const iq = $iq({ type: 'set', ...(opts.archive ? { to: opts.archive } : {}) })
      .c('query', { xmlns: NS.mam, queryid })
      .c('x', { xmlns: 'jabber:x:data', type: 'submit' })
      .c('field', { var: 'FORM_TYPE', type: 'hidden' })
      .c('value')
      .t(NS.mam)
      .up()
      .up();
    if (opts.with) iq.c('field', { var: 'with' }).c('value').t(opts.with).up().up();
    iq.up().c('set', { xmlns: NS.rsm }).c('max').t(String(opts.max)).up();
    if (opts.before) iq.c('before').t(opts.before);
    else iq.c('before');
    try {
      const res = await this.iq(iq);
      const fin = child(res, 'fin', NS.mam);
      const set = child(fin, 'set', NS.rsm);
      const count = text(child(set, 'count'));
      return { messages, complete: fin?.getAttribute('complete') === 'true', first: text(child(set, 'first')), last: text(child(set, 'last')), count: count === null ? null : Number(count) };
    } finally {
      this.conn.deleteHandler(handler);
    }
  }

  /** Resolves once the stream is closed (or after 3 s: the process is ending anyway). */
  close(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.conn.connected) return resolve();
      const timer = setTimeout(resolve, 3000);
      const prev = this.conn.connect_callback;
      this.conn.connect_callback = (status, cond, el) => {
        prev?.(status, cond, el);
        if (status === Strophe.Status.DISCONNECTED) {
          clearTimeout(timer);
          resolve();
        }
      };
      this.conn.disconnect('done');
    });
  }
}

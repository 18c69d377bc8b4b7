import { $iq, Strophe } from 'strophe.js';
import type { ConnectionHandle } from '../../../kernel';
import { ChatContactsResponse, XmppTokenResponse } from '../../../wire/services';
import type { Clock } from '../model/presence';
import { chat } from '../state';
import { IqError, type Builder, type ChatEngineDeps, type Conn } from './deps';
import { bare, child, NS } from './stanzas';

Strophe.setLogLevel(Strophe.LogLevel.FATAL);

/** A fresh token is fetched at this share of its lifetime, ready for the next (re)connect. */
const TOKEN_RENEW_SHARE = 0.8;

/** What the rest of the engine does when the connection changes; the connection knows nothing else of it. */
export interface ConnectionEvents {
  message(stanza: Element): boolean;
  presence(stanza: Element): boolean;
  /**
   * Connected: what must be in place before chat counts as connected (groups, presence, catch-up).
   * False: a newer connection took over meanwhile. Throwing drops the connection.
   */
  ready(gen: number): Promise<boolean>;
  /** Connected and caught up. */
  up(): void;
  /** The connection dropped (reported to the banner right after). */
  down(): void;
}

/**
 * The chat connection: Strophe.js over WebSocket to ejabberd with the API's JWT, its token renewed
 * ahead of time, the keepalive ping, IQs, and the state the connection banner shows. Every
 * (re)connect is a new generation: work begun for an older one stops when it sees the change.
 */
export class Connection {
  private conn: Conn | null = null;
  private handle: ConnectionHandle | null = null;
  private token: XmppTokenResponse | null = null;
  private tokenExp = 0;
  private tokenTimer: unknown = null;
  private pingTimer: unknown = null;
  private connectTimer: unknown = null;
  private everConnected = false;
  private stopping = false;
  private disposedFlag = false;
  private gen = 0;
  /** Which of the token's node addresses the next connection takes: it moves on at each drop, so a node that is gone is left for the next. */
  private node = 0;

  constructor(
    private readonly deps: Pick<ChatEngineDeps, 'api' | 'connections' | 'notify' | 'pingIntervalMs' | 'pingTimeoutMs' | 'createConnection'>,
    private readonly clock: Clock,
    private readonly events: ConnectionEvents,
  ) {}

  /** The current connection's generation. */
  get generation(): number {
    return this.gen;
  }

  get disposed(): boolean {
    return this.disposedFlag;
  }

  /** The Strophe connection, while there is one (connecting or connected). */
  get socket(): Conn | null {
    return this.conn;
  }

  /** Connected and caught up: stanzas may go out. */
  isConnected(): boolean {
    return !!this.conn && chat.status === 'connected';
  }

  send(stanza: Element): void {
    this.conn?.send(stanza);
  }

  /** Puts chat on the connection banner, whose retry reconnects. */
  register(): void {
    this.handle ??= this.deps.connections.register('messaging', 'messaging:connection', () => this.reconnect());
  }

  reconnect(): void {
    if (this.disposedFlag) return;
    this.dropConnection();
    void this.connect();
  }

  /** The network went away: drop at once (the socket may linger) and let the banner's schedule retry. */
  offline(): void {
    if (!this.conn) return;
    this.dropConnection();
    this.setDown();
  }

  online(): void {
    if (chat.status !== 'connected' && chat.status !== 'connecting') this.reconnect();
  }

  /** Signing out, first step: no reconnect and no token renewal from now on. */
  stop(): void {
    this.disposedFlag = true;
    this.stopping = true;
    this.clock.clearTimeout(this.tokenTimer);
  }

  /** Signing out, last step: the connection says goodbye and leaves the banner. */
  close(): void {
    this.handle?.report('disconnecting');
    this.dropConnection(true);
  }

  /** Off the connection banner. */
  release(): void {
    this.handle?.dispose();
    this.handle = null;
  }

  private async freshToken(): Promise<XmppTokenResponse> {
    if (this.token && this.tokenExp - Date.now() > 60_000) return this.token;
    const t = XmppTokenResponse.parse(await this.deps.api.get('/v1/xmpp-token'));
    this.token = t;
    this.tokenExp = Date.parse(t.expires_at);
    // Renewed before it expires, so a reconnect never waits on (or fails with) an old token.
    this.clock.clearTimeout(this.tokenTimer);
    const life = Math.max(10_000, (this.tokenExp - Date.now()) * TOKEN_RENEW_SHARE);
    this.tokenTimer = this.clock.setTimeout(() => {
      this.token = null;
      if (!this.disposedFlag) void this.freshToken().catch(() => undefined);
    }, life);
    return t;
  }

  async connect(): Promise<void> {
    const gen = ++this.gen;
    chat.status = 'connecting';
    this.handle?.report('connecting');
    let token: XmppTokenResponse;
    try {
      if (!chat.contacts.length) chat.contacts = ChatContactsResponse.parse(await this.deps.api.get('/v1/chat/contacts')).contacts;
      token = await this.freshToken();
    } catch {
      if (gen === this.gen) this.setDown();
      return;
    }
    if (gen !== this.gen || this.disposedFlag) return;
    chat.me = bare(token.jid);
    const urls = token.ws_urls?.length ? token.ws_urls : [token.ws_url];
    const url = urls[this.node % urls.length]!;
    const conn = this.deps.createConnection ? this.deps.createConnection(url) : new Strophe.Connection(url, { protocol: 'ws' } as never);
    this.conn = conn;
    conn.addHandler((el) => this.events.message(el), null, 'message', null);
    conn.addHandler((el) => this.events.presence(el), null, 'presence', null);
    // Still connecting after the ping timeout: stop and let the retry schedule take over.
    this.connectTimer = this.clock.setTimeout(() => {
      if (gen === this.gen && chat.status === 'connecting') {
        this.dropConnection();
        this.setDown();
      }
    }, this.deps.pingTimeoutMs);
    const resource = `uc-${Math.random().toString(36).slice(2, 10)}`;
    conn.connect(`${token.jid}/${resource}`, token.token, (status) => {
      if (gen !== this.gen) return;
      if (status === Strophe.Status.CONNECTED) void this.onConnected(gen);
      else if (status === Strophe.Status.AUTHFAIL) this.onAuthFailure();
      else if (status === Strophe.Status.CONNFAIL || status === Strophe.Status.ERROR || status === Strophe.Status.CONNTIMEOUT || status === Strophe.Status.DISCONNECTED) {
        if (!this.stopping && chat.status !== 'authfail') this.setDown();
      }
    });
  }

  private onAuthFailure(): void {
    // Authentication failure disconnects and emits an authorization failure (specification).
    this.token = null;
    this.dropConnection();
    chat.status = 'authfail';
    this.deps.notify.toast({ tone: 'error', titleKey: 'messaging:errors.authTitle', messageKey: 'messaging:errors.auth' });
    this.handle?.report('disconnected');
  }

  private setDown(): void {
    this.clock.clearTimeout(this.pingTimer);
    this.clock.clearTimeout(this.connectTimer);
    // Strophe says CONNFAIL, then DISCONNECTED (and sometimes ERROR) for one failed socket: one drop
    // is one report, or the banner's retry schedule would skip its 15 and 30 s steps.
    if (chat.status === 'authfail' || chat.status === 'disconnected') return;
    chat.status = 'disconnected';
    this.node++;
    this.events.down();
    this.handle?.report('disconnected');
  }

  private dropConnection(quietly = false): void {
    this.gen++;
    this.clock.clearTimeout(this.pingTimer);
    this.clock.clearTimeout(this.connectTimer);
    const c = this.conn;
    this.conn = null;
    if (!c) return;
    try {
      if (quietly && c.connected) c.disconnect('bye');
      else c.reset();
      (c._proto as unknown as { _closeSocket?: () => void })._closeSocket?.();
    } catch {
      /* already closed */
    }
  }

  private async onConnected(gen: number): Promise<void> {
    this.clock.clearTimeout(this.connectTimer);
    try {
      if (!(await this.events.ready(gen))) return;
    } catch {
      if (gen === this.gen) {
        this.dropConnection();
        this.setDown();
      }
      return;
    }
    chat.status = 'connected';
    this.handle?.report(this.everConnected ? 'reconnected' : 'connected');
    this.everConnected = true;
    this.events.up();
    this.schedulePing(gen);
  }

  private schedulePing(gen: number): void {
    this.clock.clearTimeout(this.pingTimer);
    this.pingTimer = this.clock.setTimeout(() => {
      if (gen !== this.gen) return;
      this.iq($iq({ type: 'get', to: chat.me.split('@')[1] ?? '' }).c('ping', { xmlns: NS.ping }), this.deps.pingTimeoutMs).then(
        () => this.schedulePing(gen),
        () => {
          if (gen !== this.gen) return;
          this.dropConnection();
          this.setDown();
        },
      );
    }, this.deps.pingIntervalMs);
  }

  iq(stanza: Builder, timeoutMs = this.deps.pingTimeoutMs): Promise<Element> {
    const conn = this.conn;
    if (!conn) return Promise.reject(new Error('not connected'));
    return new Promise((resolve, reject) => {
      conn.sendIQ(stanza.tree(), resolve, (err) => reject(new IqError(err ? errorCondition(err) : 'timeout')), timeoutMs);
    });
  }
}

function errorCondition(iq: Element): string {
  const err = child(iq, 'error');
  for (let n = err?.firstChild; n; n = n.nextSibling) if (n.nodeType === 1 && (n as Element).localName !== 'text') return (n as Element).localName;
  return 'undefined-condition';
}

import { $iq, $msg, $pres, Strophe } from 'strophe.js';
import type { ConnectionHandle, ConnectionReporter, Notifier } from '../../../kernel';
import type { ApiClient } from '../../../kernel/api';
import type { PresenceState } from '../../../kernel/pluginServices';
import { ChatContactsResponse, XmppTokenResponse } from '../../../wire/services';
import { ChatRoom, ChatRoomsResponse, ROOMS_CHANGED_SUBJECT } from '../../../wire/chatRooms';
import { emptyHistory, mergeMessages, messagePreview, newMessageId, nextStatus, unreadCount, type ChatMessage, type ComposingState, type MessageStatus } from '../model/chat';
import { chatFileProblem, describeFile, type ChatFileProblem, type ChatMedia } from '../model/media';
import { fromWire, PresenceDebouncer, restoredOwnState, toWire, type Clock, realClock } from '../model/presence';
import { isAccessDenied, moveToRosterGroup, nextPhase, rosterGroupOf, type DestroyReason, type RosterGroup } from '../model/sessions';
import { chat, type ChatSessionState } from '../state';
import { appendMedia, parseSlot, slotRequest } from './mediaStanzas';
import { Outbox } from './outbox';
import { parseRoomMamResult, parseRoomMessage, type RoomMessage } from './mucStanzas';
import { bare, child, NS, parseMamFin, parseMamResult, parseMessage, parsePresence, parseStoredChats, type ParsedMessage, type StoredChats } from './stanzas';

Strophe.setLogLevel(Strophe.LogLevel.FATAL);

type Conn = InstanceType<typeof Strophe.Connection>;
type Builder = ReturnType<typeof $iq>;

/** Catch-up pages after a (re)connect, and the first look at the archive. */
const CATCH_UP_PAGE = 100;
/** A fresh token is fetched at this share of its lifetime, ready for the next (re)connect. */
const TOKEN_RENEW_SHARE = 0.8;

export interface ChatEngineDeps {
  api: Pick<ApiClient, 'get' | 'post' | 'put' | 'delete'>;
  /** Host of the group-chat rooms (`conference.<domain>`). */
  mucDomain: string;
  connections: ConnectionReporter;
  notify: Notifier;
  t(key: string, values?: Record<string, unknown>): string;
  userId: number;
  pingIntervalMs: number;
  pingTimeoutMs: number;
  historyPageSize: number;
  clock?: Clock;
  storage?: Pick<Storage, 'getItem' | 'setItem'> | null;
  /** The tab's own storage: messages waiting for the server and drafts outlive a reload, not the tab. */
  sessionStorage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  createConnection?(url: string): Conn;
  /** The PUT of an upload (tests). */
  fetch?: typeof fetch;
  /** A message in a conversation that is not on screen (or the tab is hidden) and not muted: announce, notify, chime. */
  announceNew?(from: string, body: string, jid: string): void;
}

interface StoredPresence {
  state: PresenceState;
  text: string;
  previous: PresenceState | null;
}

/**
 * The chat connection: Strophe.js over WebSocket to ejabberd with the API's JWT, 1:1 chat with
 * delivery receipts and chat states, history from the archive (MAM) and catch-up after every
 * reconnect, presence to colleagues (directed, since nobody shares a roster), read positions in
 * private XML storage.
 */
export class ChatEngine {
  private conn: Conn | null = null;
  private handle: ConnectionHandle | null = null;
  private token: XmppTokenResponse | null = null;
  private tokenExp = 0;
  private tokenTimer: unknown = null;
  private pingTimer: unknown = null;
  private connectTimer: unknown = null;
  private saveTimer: unknown = null;
  private everConnected = false;
  private stopping = false;
  private disposed = false;
  /** Newest archive id seen, live or from MAM: where the next catch-up starts. */
  private lastArchiveId: string | null = null;
  private stored: StoredChats = {};
  /** Presence as last received, before the debounce: whom to answer with ours. */
  private readonly rawAvailable = new Set<string>();
  private readonly debouncer: PresenceDebouncer;
  private readonly clock: Clock;
  private readonly pausedTimers = new Map<string, unknown>();
  private readonly composingSent = new Map<string, ComposingState>();
  private generation = 0;
  /** Newest archive id seen per room (rooms keep their own archives): where a room's catch-up starts. */
  private readonly roomLast = new Map<string, string>();
  private readonly outbox: Outbox;
  private giveUpTimer: unknown = null;
  /** Told once per outage that messages wait, not once per message. */
  private queuedAnnounced = false;

  constructor(private readonly deps: ChatEngineDeps) {
    this.clock = deps.clock ?? realClock;
    this.outbox = new Outbox(this.clock, deps.sessionStorage ?? null, `uc.messaging.outbox.${deps.userId}`);
    this.debouncer = new PresenceDebouncer((jid, p) => (chat.presence[jid] = p), this.clock);
    const saved = this.loadOwnPresence();
    chat.own = restoredOwnState(saved?.state, saved?.previous);
    chat.ownText = saved?.text ?? '';
  }

  // ---- connection ------------------------------------------------------------------------------

  start(): void {
    this.handle ??= this.deps.connections.register('messaging', 'messaging:connection', () => this.reconnect());
    this.restoreOutbox();
    void this.connect();
  }

  reconnect(): void {
    if (this.disposed) return;
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

  dispose(): void {
    this.disposed = true;
    this.stopping = true;
    this.clock.clearTimeout(this.tokenTimer);
    this.clock.clearTimeout(this.saveTimer);
    this.clock.clearTimeout(this.giveUpTimer);
    this.flushStored();
    // Signed out: what still waits is not sent on this user's behalf later, nor left in the tab.
    this.outbox.clear();
    this.handle?.report('disconnecting');
    this.dropConnection(true);
    this.debouncer.dispose();
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
      if (!this.disposed) void this.freshToken().catch(() => undefined);
    }, life);
    return t;
  }

  private async connect(): Promise<void> {
    const gen = ++this.generation;
    chat.status = 'connecting';
    this.handle?.report('connecting');
    let token: XmppTokenResponse;
    try {
      if (!chat.contacts.length) chat.contacts = ChatContactsResponse.parse(await this.deps.api.get('/v1/chat/contacts')).contacts;
      token = await this.freshToken();
    } catch {
      if (gen === this.generation) this.setDown();
      return;
    }
    if (gen !== this.generation || this.disposed) return;
    chat.me = bare(token.jid);
    const conn = this.deps.createConnection ? this.deps.createConnection(token.ws_url) : new Strophe.Connection(token.ws_url, { protocol: 'ws' } as never);
    this.conn = conn;
    conn.addHandler((el) => this.onMessage(el), null, 'message', null);
    conn.addHandler((el) => this.onPresence(el), null, 'presence', null);
    // Still connecting after the ping timeout: stop and let the retry schedule take over.
    this.connectTimer = this.clock.setTimeout(() => {
      if (gen === this.generation && chat.status === 'connecting') {
        this.dropConnection();
        this.setDown();
      }
    }, this.deps.pingTimeoutMs);
    const resource = `uc-${Math.random().toString(36).slice(2, 10)}`;
    conn.connect(`${token.jid}/${resource}`, token.token, (status) => {
      if (gen !== this.generation) return;
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
    for (const s of Object.values(chat.sessions)) s.peerComposing = null;
    // What went out and was not confirmed waits again: the catch-up after the reconnect tells whether the server has it.
    this.outbox.connectionLost();
    this.scheduleGiveUp();
    this.handle?.report('disconnected');
  }

  private dropConnection(quietly = false): void {
    this.generation++;
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
    const conn = this.conn!;
    try {
      // Groups first: offline room messages, delivered after the initial presence, then find their sessions.
      // The API unreachable just now must not keep chat down: the groups are read again at the next notice or connect.
      await this.syncRooms().catch(() => undefined);
      if (gen !== this.generation) return;
      for (const s of Object.values(chat.sessions)) s.phase = nextPhase(s.phase, 'reconnected', s.jid);
      // Initial presence (the server then delivers offline messages), carbons for the user's other devices.
      conn.send(this.presenceStanza());
      await this.iq($iq({ type: 'set' }).c('enable', { xmlns: NS.carbons })).catch(() => undefined);
      this.stored = parseStoredChats(await this.iq($iq({ type: 'get' }).c('query', { xmlns: NS.private }).c('chats', { xmlns: NS.chats })));
      if (gen !== this.generation) return;
      this.sendDirectedPresence();
      await this.catchUp(gen);
      for (const s of Object.values(chat.sessions)) if (s.type === 'groupchat' && gen === this.generation) await this.roomCatchUp(s, gen);
      if (gen !== this.generation) return;
      // On reconnect, sessions are re-hydrated: read positions and unread from the server's copy.
      for (const s of Object.values(chat.sessions)) {
        this.applyStored(s);
        // A group has its members (the API's list) and its newest page by now; a 1:1 chat is hydrated when opened.
        if (s.type === 'groupchat') s.phase = nextPhase(s.phase, 'init');
        if (s.phase === 'initialised' && (s.history.first !== null || s.history.complete)) s.phase = nextPhase(s.phase, 'hydrated');
      }
    } catch {
      if (gen === this.generation) {
        this.dropConnection();
        this.setDown();
      }
      return;
    }
    chat.status = 'connected';
    this.handle?.report(this.everConnected ? 'reconnected' : 'connected');
    this.everConnected = true;
    this.queuedAnnounced = false;
    this.clock.clearTimeout(this.giveUpTimer);
    // After the catch-up: a message the server already had is settled by now and not sent again.
    for (const { id, jid } of this.outbox.waiting()) this.transmit(id, jid);
    this.schedulePing(gen);
  }

  private schedulePing(gen: number): void {
    this.clock.clearTimeout(this.pingTimer);
    this.pingTimer = this.clock.setTimeout(() => {
      if (gen !== this.generation) return;
      this.iq($iq({ type: 'get', to: chat.me.split('@')[1] ?? '' }).c('ping', { xmlns: NS.ping }), this.deps.pingTimeoutMs).then(
        () => this.schedulePing(gen),
        () => {
          if (gen !== this.generation) return;
          this.dropConnection();
          this.setDown();
        },
      );
    }, this.deps.pingIntervalMs);
  }

  private iq(stanza: Builder, timeoutMs = this.deps.pingTimeoutMs): Promise<Element> {
    const conn = this.conn;
    if (!conn) return Promise.reject(new Error('not connected'));
    return new Promise((resolve, reject) => {
      conn.sendIQ(stanza.tree(), resolve, (err) => reject(new IqError(err ? errorCondition(err) : 'timeout')), timeoutMs);
    });
  }

  // ---- archive ---------------------------------------------------------------------------------

  private mam(opts: { with?: string; max: number; before?: string | ''; after?: string }): Promise<{ results: ParsedMessage[]; fin: ReturnType<typeof parseMamFin> }> {
    return this.mamQuery(opts, undefined, (el) => parseMamResult(el, chat.me));
  }

  /** A page of a room's own archive (MAM to the room's JID; members may read it as subscribers). */
  private roomMam(room: string, opts: { max: number; before?: string | ''; after?: string }): Promise<{ results: RoomMessage[]; fin: ReturnType<typeof parseMamFin> }> {
    return this.mamQuery(opts, room, (el) => parseRoomMamResult(el, room));
  }

  private async mamQuery<T>(
    opts: { with?: string; max: number; before?: string | ''; after?: string },
    archive: string | undefined,
    parse: (el: Element) => { queryid: string; message: T } | null,
  ): Promise<{ results: T[]; fin: ReturnType<typeof parseMamFin> }> {
    const conn = this.conn;
    if (!conn) throw new Error('not connected');
    const queryid = conn.getUniqueId('mam');
    const results: T[] = [];
    const h = conn.addHandler(
      (el) => {
        const r = parse(el);
        if (r && r.queryid === queryid) results.push(r.message);
        return true;
      },
      NS.mam,
      'message',
      null,
    );
    const q = $iq(archive ? { type: 'set', to: archive } : { type: 'set' }).c('query', { xmlns: NS.mam, queryid }).c('x', { xmlns: 'jabber:x:data', type: 'submit' }).c('field', { var: 'FORM_TYPE', type: 'hidden' }).c('value').t(NS.mam).up().up();
    if (opts.with) q.c('field', { var: 'with' }).c('value').t(opts.with).up().up();
    q.up().c('set', { xmlns: NS.rsm }).c('max').t(String(opts.max)).up();
    if (opts.after) q.c('after').t(opts.after);
    else if (opts.before) q.c('before').t(opts.before);
    else q.c('before');
    try {
      const fin = parseMamFin(await this.iq(q, 30_000));
      return { results, fin };
    } finally {
      conn.deleteHandler(h);
    }
  }

  /** No message is lost across a reconnect: everything archived after the newest one we saw. */
  private async catchUp(gen: number): Promise<void> {
    if (!this.lastArchiveId) {
      const { results, fin } = await this.mam({ max: CATCH_UP_PAGE });
      this.ingestArchived(results);
      if (fin.last) this.lastArchiveId = fin.last;
      return;
    }
    for (let i = 0; i < 50 && gen === this.generation; i++) {
      const { results, fin } = await this.mam({ max: CATCH_UP_PAGE, after: this.lastArchiveId });
      this.ingestArchived(results);
      if (fin.last) this.lastArchiveId = fin.last;
      if (fin.complete || results.length === 0) return;
    }
  }

  private ingestArchived(results: readonly ParsedMessage[]): void {
    const byPeer = new Map<string, ChatMessage[]>();
    for (const m of results) {
      if (m.body === null || (m.type !== 'chat' && m.type !== 'normal')) continue;
      const mine = m.from === chat.me;
      const peer = mine ? m.to : m.from;
      if (!peer || peer === chat.me) continue;
      const list = byPeer.get(peer) ?? [];
      list.push(this.toChatMessage(m, mine, true));
      byPeer.set(peer, list);
    }
    for (const [peer, list] of byPeer) {
      const s = this.session(peer);
      this.addMessages(s, list);
    }
  }

  /** Opens a conversation: created → initialised → hydrated with its newest history page. */
  async hydrate(jid: string): Promise<void> {
    const s = chat.sessions[bare(jid)] ?? (jid.endsWith(`@${this.deps.mucDomain}`) ? null : this.session(jid));
    if (!s || s.phase === 'destroyed') return;
    s.phase = nextPhase(s.phase, 'init');
    this.applyStored(s);
    if (s.history.first === null && !s.history.complete) await this.loadOlder(jid);
    if (chat.sessions[s.jid]) s.phase = nextPhase(s.phase, 'hydrated');
  }

  /** The next older page of 25 (historyStatus first/last/count/complete/pending). */
  async loadOlder(jid: string): Promise<void> {
    const s = chat.sessions[bare(jid)];
    if (!s || chat.status !== 'connected') return;
    await this.olderPage(s);
  }

  private async olderPage(s: ChatSessionState): Promise<void> {
    if (s.history.pending || s.history.complete) return;
    s.history.pending = true;
    try {
      const page = { max: this.deps.historyPageSize, before: s.history.first ?? '' };
      const { results, fin } =
        s.type === 'groupchat'
          ? await this.roomMam(s.jid, page).then((r) => ({ fin: r.fin, results: r.results.filter((m) => m.body !== null).map((m) => this.roomChatMessage(m, true)) }))
          : await this.mam({ with: s.jid, ...page }).then((r) => ({ fin: r.fin, results: r.results.filter((m) => m.body !== null).map((m) => this.toChatMessage(m, m.from === chat.me, true)) }));
      const msgs = results;
      if (s.type === 'groupchat' && fin.last) this.noteRoomId(s.jid, fin.last);
      this.addMessages(s, msgs, false);
      s.history.first = fin.first ?? s.history.first;
      s.history.last ??= fin.last;
      s.history.count = fin.count;
      s.history.complete = fin.complete || results.length === 0;
    } catch (err) {
      // A room that refuses us (removed, or deleted): the session ends. Anything else: the next scroll or reconnect tries again.
      if (s.type === 'groupchat' && err instanceof IqError && isAccessDenied(err.condition)) this.destroy(s.jid, 'accessDenied');
    } finally {
      s.history.pending = false;
    }
  }

  // ---- groups (MUC + MucSub) ------------------------------------------------------------------

  /** The groups the API says the user belongs to: sessions for new ones, ended for the ones left. */
  async syncRooms(): Promise<void> {
    const { rooms } = ChatRoomsResponse.parse(await this.deps.api.get('/v1/chat/rooms'));
    const keep = new Set(rooms.map((r) => this.applyRoom(r)));
    for (const s of Object.values(chat.sessions)) if (s.type === 'groupchat' && !keep.has(s.jid)) this.destroy(s.jid, 'affiliationNone');
  }

  private roomsSyncing: Promise<void> | null = null;
  private roomsAgain = false;
  /**
   * Reads the groups once for a burst of notices or unknown-room messages (offline storage delivers
   * many at once); a notice during a read gets one more read after it, so no change is missed.
   */
  private resyncRooms(): Promise<void> {
    if (this.roomsSyncing) {
      this.roomsAgain = true;
      return this.roomsSyncing;
    }
    const run = async (): Promise<void> => {
      do {
        this.roomsAgain = false;
        await this.syncRooms().catch(() => undefined);
      } while (this.roomsAgain && !this.disposed);
      this.roomsSyncing = null;
    };
    this.roomsSyncing = run();
    return this.roomsSyncing;
  }

  private applyRoom(r: ChatRoom): string {
    const s = this.session(r.jid, 'groupchat');
    s.subject = r.subject;
    s.name = r.subject;
    // Owners are moderators when they are in the room (XEP-0045); everyone in a group is an owner.
    s.members = r.members.map((m) => ({ jid: bare(m.jid), userId: m.user_id, name: m.name, affiliation: m.affiliation, role: m.affiliation === 'owner' || m.affiliation === 'admin' ? 'moderator' : 'participant' }));
    s.lastActivity = Math.max(s.lastActivity, Date.parse(r.created_at) || 0);
    return s.jid;
  }

  /** After a (re)connect: the room's newest page the first time, then everything after the newest seen. */
  private async roomCatchUp(s: ChatSessionState, gen: number): Promise<void> {
    try {
      const after = this.roomLast.get(s.jid);
      if (!after) {
        // Nothing seen from this room yet (new, or empty when last read): its newest page, again.
        if (s.history.first === null) s.history.complete = false;
        await this.olderPage(s);
        return;
      }
      let from = after;
      for (let i = 0; i < 50 && gen === this.generation && chat.sessions[s.jid]; i++) {
        const { results, fin } = await this.roomMam(s.jid, { max: CATCH_UP_PAGE, after: from });
        this.addMessages(s, results.filter((m) => m.body !== null).map((m) => this.roomChatMessage(m, true)));
        if (fin.last) {
          this.noteRoomId(s.jid, fin.last);
          from = fin.last;
        }
        if (fin.complete || results.length === 0) return;
      }
    } catch (err) {
      if (err instanceof IqError && isAccessDenied(err.condition)) this.destroy(s.jid, 'accessDenied');
    }
  }

  private noteRoomId(room: string, id: string): void {
    const seen = this.roomLast.get(room);
    if (!seen || compareIds(id, seen) > 0) this.roomLast.set(room, id);
  }

  private roomChatMessage(m: RoomMessage, archived: boolean): ChatMessage {
    const from = m.nick ? `${m.nick}@${chat.me.split('@')[1] ?? ''}`.toLowerCase() : m.room;
    const mine = from === chat.me;
    return {
      id: m.id || m.stanzaId || newMessageId(),
      stanzaId: m.stanzaId,
      from,
      body: m.body ?? '',
      timestamp: m.stamp ?? Date.now(),
      delayed: m.stamp !== null && !archived,
      archived,
      mine,
      // The room sent our own message back: every member has it.
      status: mine ? 'received' : null,
      media: m.media,
    };
  }

  private onRoomMessage(r: RoomMessage): void {
    const s = chat.sessions[r.room];
    if (r.error) {
      if (!s) return;
      this.setStatus(s, r.id, 'failed');
      if (isAccessDenied(r.error)) this.destroy(s.jid, 'accessDenied');
      return;
    }
    if (r.body === null) return;
    if (!s) {
      // A group we have not heard of yet (just made by someone): the API's list names it.
      void this.resyncRooms().then(() => chat.sessions[r.room] && this.onRoomMessage(r));
      return;
    }
    const msg = this.roomChatMessage(r, false);
    if (r.stanzaId) this.noteRoomId(s.jid, r.stanzaId);
    const known = s.messages.find((x) => x.id === msg.id);
    if (known && msg.mine) known.status = nextStatus(known.status, 'received');
    this.addMessages(s, [msg]);
    if (!msg.mine && !known) {
      if (rosterGroupOf(chat.rosterGroups, s.jid) === 'closed') this.setRosterGroup(s.jid, 'recent');
      if ((chat.open !== s.jid || !isVisible()) && !s.muted) this.deps.announceNew?.(`${this.memberName(s, msg.from)} (${s.name})`, messagePreview(msg), s.jid);
    }
  }

  memberName(s: Pick<ChatSessionState, 'members'>, jid: string): string {
    return s.members.find((m) => m.jid === jid)?.name ?? this.nameOf(jid);
  }

  /** A new group of the user and these colleagues; its session is ready when this resolves. */
  async createRoom(subject: string, memberIds: readonly number[]): Promise<string> {
    const room = ChatRoom.parse(await this.deps.api.post('/v1/chat/rooms', { subject, member_ids: memberIds }));
    const jid = this.applyRoom(room);
    const s = chat.sessions[jid]!;
    s.history.complete = true;
    s.phase = nextPhase(nextPhase(s.phase, 'init'), 'hydrated');
    this.setRosterGroup(jid, 'recent');
    return jid;
  }

  /** Renames a group or changes who else belongs to it. */
  async updateRoom(jid: string, change: { subject?: string; memberIds?: readonly number[] }): Promise<void> {
    const room = ChatRoom.parse(await this.deps.api.put(`/v1/chat/rooms/${encodeURIComponent(jid)}`, { subject: change.subject, member_ids: change.memberIds }));
    this.applyRoom(room);
  }

  /** Leaves a group: the user's affiliation becomes none, the session ends here and on the user's other clients. */
  async leaveRoom(jid: string): Promise<void> {
    await this.deps.api.delete(`/v1/chat/rooms/${encodeURIComponent(jid)}/members/me`);
    this.destroy(jid, 'left');
  }

  /**
   * Ends a session: it leaves the list and the server's active-chat list (private storage), and the
   * user's other clients are told (they re-read it).
   */
  destroy(jid: string, reason: DestroyReason): void {
    const key = bare(jid);
    const s = chat.sessions[key];
    if (!s) return;
    s.phase = nextPhase(s.phase, { destroy: reason });
    delete chat.sessions[key];
    chat.ended[key] = reason;
    chat.rosterGroups = moveToRosterGroup(chat.rosterGroups, key, null);
    this.roomLast.delete(key);
    if (this.stored[key]) {
      delete this.stored[key];
      this.saveStoredSoon();
    }
  }

  // ---- roster groups and muting ---------------------------------------------------------------

  /** One per-session action (the bar's menu and the palette); true when the session left the bar. */
  async sessionAction(action: 'toggleMute' | 'pin' | 'close' | 'leave', jid: string): Promise<boolean> {
    const s = chat.sessions[bare(jid)];
    if (!s) return false;
    if (action === 'toggleMute') this.setMuted(s.jid, !s.muted);
    else if (action === 'pin') this.setRosterGroup(s.jid, rosterGroupOf(chat.rosterGroups, s.jid) === 'pin' ? 'recent' : 'pin');
    else if (action === 'close') this.setRosterGroup(s.jid, 'closed');
    else if (s.type === 'groupchat') await this.leaveRoom(s.jid);
    return action === 'close' || (action === 'leave' && s.type === 'groupchat');
  }

  /** Pin, back to recent, or close; a chat is in one roster group only. */
  setRosterGroup(jid: string, group: RosterGroup): void {
    const s = chat.sessions[bare(jid)];
    if (!s) return;
    chat.rosterGroups = moveToRosterGroup(chat.rosterGroups, s.jid, group);
    this.stored[s.jid] = { ...this.stored[s.jid], group };
    this.saveStoredSoon();
  }

  // ---- sessions --------------------------------------------------------------------------------

  private nameOf(jid: string): string {
    return chat.contacts.find((c) => c.jid === jid)?.name ?? jid.split('@')[0]!;
  }

  session(jid: string, type: ChatSessionState['type'] = 'chat'): ChatSessionState {
    const key = bare(jid);
    let s = chat.sessions[key];
    if (!s) {
      delete chat.ended[key];
      chat.sessions[key] = {
        jid: key,
        type,
        name: this.nameOf(key),
        subject: '',
        members: [],
        messages: [],
        history: emptyHistory(),
        readPosition: 0,
        unread: 0,
        muted: false,
        peerComposing: null,
        input: '',
        lastActivity: 0,
        phase: 'created',
      };
      s = chat.sessions[key]!;
      this.applyStored(s);
    }
    return s;
  }

  private applyStored(s: ChatSessionState): void {
    const st = this.stored[s.jid];
    if (st?.read && st.read > s.readPosition) s.readPosition = st.read;
    if (st && typeof st.muted === 'boolean') s.muted = st.muted;
    if (st?.group && rosterGroupOf(chat.rosterGroups, s.jid) !== st.group) chat.rosterGroups = moveToRosterGroup(chat.rosterGroups, s.jid, st.group);
    this.recount(s);
  }

  private recount(s: ChatSessionState): void {
    if (chat.open === s.jid && isVisible()) {
      const newest = s.messages.at(-1)?.timestamp ?? 0;
      if (newest > s.readPosition) this.setRead(s, newest);
    }
    s.unread = unreadCount(s.messages, s.readPosition);
  }

  private addMessages(s: ChatSessionState, msgs: readonly ChatMessage[], recount = true): void {
    if (!msgs.length) return;
    // Our own message back from the server (the archive, a room's echo): the copy on screen learns it arrived.
    for (const m of msgs) if (m.mine && m.status && s.messages.some((x) => x.id === m.id)) this.setStatus(s, m.id, m.status);
    s.messages = mergeMessages(s.messages, msgs);
    s.lastActivity = Math.max(s.lastActivity, s.messages.at(-1)?.timestamp ?? 0);
    // Room archive ids belong to the room's archive, never the user's catch-up position.
    if (s.type === 'chat') for (const m of msgs) if (m.stanzaId) this.noteArchiveId(m.stanzaId);
    if (recount) this.recount(s);
    else s.unread = unreadCount(s.messages, s.readPosition);
  }

  private noteArchiveId(id: string): void {
    // ejabberd's archive ids grow with time; only move forward.
    if (!this.lastArchiveId || compareIds(id, this.lastArchiveId) > 0) this.lastArchiveId = id;
  }

  private toChatMessage(m: ParsedMessage, mine: boolean, archived: boolean): ChatMessage {
    return {
      id: m.id || m.stanzaId || newMessageId(),
      stanzaId: m.stanzaId,
      from: m.from,
      body: m.body ?? '',
      timestamp: m.stamp ?? Date.now(),
      delayed: m.stamp !== null && !archived,
      archived,
      mine,
      status: mine ? 'delivered' : null,
      media: m.media,
    };
  }

  private setRead(s: ChatSessionState, ts: number): void {
    s.readPosition = ts;
    s.unread = unreadCount(s.messages, ts);
    this.stored[s.jid] = { ...this.stored[s.jid], read: ts };
    this.saveStoredSoon();
  }

  markRead(jid: string): void {
    const s = chat.sessions[bare(jid)];
    if (!s) return;
    this.setRead(s, Math.max(s.readPosition, s.messages.at(-1)?.timestamp ?? 0));
  }

  markAllRead(): void {
    for (const jid of Object.keys(chat.sessions)) this.markRead(jid);
  }

  setMuted(jid: string, muted: boolean): void {
    const s = this.session(jid);
    s.muted = muted;
    this.stored[s.jid] = { ...this.stored[s.jid], muted };
    this.saveStoredSoon();
  }

  /** The conversation on screen changed (or the window's visibility did). */
  setOpen(jid: string | null): void {
    const prev = chat.open;
    if (prev && prev !== jid && chat.sessions[prev]?.type === 'chat') this.sendChatState(prev, 'inactive');
    chat.open = jid ? bare(jid) : null;
    if (chat.open) {
      const s = chat.sessions[chat.open];
      if (s) this.recount(s);
    }
  }

  private saveStoredSoon(): void {
    this.clock.clearTimeout(this.saveTimer);
    this.saveTimer = this.clock.setTimeout(() => this.flushStored(), 1000);
  }

  private flushStored(): void {
    if (!this.conn || chat.status !== 'connected') return;
    this.clock.clearTimeout(this.saveTimer);
    const stanza = $iq({ type: 'set' }).c('query', { xmlns: NS.private }).c('chats', { xmlns: NS.chats }).t(JSON.stringify(this.stored));
    // Saved: the user's other clients re-read it (read positions, mute, roster groups, ended sessions).
    void this.iq(stanza).then(
      () => this.conn?.send($msg({ to: chat.me, type: 'headline' }).c('x', { xmlns: NS.chats }).tree()),
      () => undefined,
    );
  }

  private async reloadStored(): Promise<void> {
    this.stored = parseStoredChats(await this.iq($iq({ type: 'get' }).c('query', { xmlns: NS.private }).c('chats', { xmlns: NS.chats })));
    for (const s of Object.values(chat.sessions)) this.applyStored(s);
  }

  // ---- messages --------------------------------------------------------------------------------

  /**
   * Sends a message; bodies are text. Delivered once the server has processed it, received when the
   * peer's client confirms. A media message's body is the file's URL (what other clients show).
   */
  send(jid: string, body: string, media?: ChatMedia): void {
    const s = this.session(jid);
    const id = newMessageId();
    if (media) body = media.url;
    const msg: ChatMessage = { id, stanzaId: null, from: chat.me, body, timestamp: Date.now(), delayed: false, archived: false, mine: true, status: null, media: media ?? null };
    s.messages = mergeMessages(s.messages, [msg]);
    s.lastActivity = msg.timestamp;
    s.input = '';
    this.clearPaused(s.jid);
    this.composingSent.set(s.jid, 'active');
    this.queue(s, id);
    if (chat.open === s.jid) this.setRead(s, msg.timestamp);
  }

  /** Sends a message that was not sent again (same id: a copy that did arrive after all is not shown twice). */
  retry(jid: string, id: string): void {
    const s = chat.sessions[bare(jid)];
    const m = s?.messages.find((x) => x.id === id && x.mine && x.status === 'failed');
    if (!s || !m) return;
    m.status = null;
    this.queue(s, id);
  }

  /** Into the outbox: out at once when connected, else "Sending…" until the connection is back. */
  private queue(s: ChatSessionState, id: string): void {
    this.outbox.add(id, s.jid);
    this.saveOutbox();
    if (this.conn && chat.status === 'connected') {
      this.transmit(id, s.jid);
      return;
    }
    if (!this.queuedAnnounced) {
      this.queuedAnnounced = true;
      this.deps.notify.announce(this.deps.t('messaging:announce.queued'), 'polite');
    }
    this.scheduleGiveUp();
  }

  private transmit(id: string, jid: string): void {
    const s = chat.sessions[jid];
    const m = s?.messages.find((x) => x.id === id);
    if (!s || !m) {
      // The conversation ended meanwhile (a group left): nowhere to send it.
      if (this.outbox.settle(id)) this.saveOutbox();
      return;
    }
    if (!this.conn || chat.status !== 'connected') return;
    const gen = this.generation;
    this.outbox.sent(id, gen);
    const media = m.media ?? undefined;
    if (s.type === 'groupchat') {
      const stanza = $msg({ to: s.jid, type: 'groupchat', id }).c('body').t(m.body).up();
      this.conn.send((media ? appendMedia(stanza, media) : stanza).tree());
    } else {
      const stanza = $msg({ to: s.jid, type: 'chat', id }).c('body').t(m.body).up();
      if (media) appendMedia(stanza, media);
      this.conn.send(stanza.c('request', { xmlns: NS.receipts }).up().c('active', { xmlns: NS.chatStates }).tree());
    }
    // A ping answered after the message means the server has it (stored, archived or routed). No
    // answer because the connection dropped: the message waits again (setDown), it has not failed.
    this.iq($iq({ type: 'get', to: chat.me.split('@')[1] ?? '' }).c('ping', { xmlns: NS.ping })).then(
      () => this.setStatus(s, id, 'delivered'),
      () => gen === this.generation && this.setStatus(s, id, 'failed'),
    );
  }

  /** A message that waited past the bound says "Not sent" (with Retry); told once for the lot. */
  private scheduleGiveUp(): void {
    this.clock.clearTimeout(this.giveUpTimer);
    const wait = this.outbox.nextExpiryIn();
    if (wait === null || this.disposed) return;
    this.giveUpTimer = this.clock.setTimeout(() => {
      const expired = this.outbox.expired();
      for (const { id, jid } of expired) {
        const s = chat.sessions[jid];
        if (s) this.setStatus(s, id, 'failed');
        else this.outbox.settle(id);
      }
      if (expired.length) {
        this.saveOutbox();
        this.deps.notify.announce(this.deps.t('messaging:announce.notSent'), 'polite');
      }
      this.scheduleGiveUp();
    }, wait);
  }

  private saveOutbox(): void {
    this.outbox.save(chat.sessions);
  }

  /** What this tab's previous page had not sent, and the drafts: back on screen, waiting for the connection. */
  private restoreOutbox(): void {
    const stored = this.outbox.restore();
    if (!stored) return;
    const open = (jid: string, type: ChatSessionState['type'], name: string) => {
      const known = !!chat.sessions[bare(jid)];
      const s = this.session(jid, type);
      // Names come from the API later; until then the ones the page had.
      if (!known && name) s.name = name;
      return s;
    };
    for (const q of stored.queued) {
      const s = open(q.jid, q.type, q.name);
      s.messages = mergeMessages(s.messages, [{ ...q.message, status: null }]);
      s.lastActivity = Math.max(s.lastActivity, q.message.timestamp);
    }
    for (const d of stored.drafts) open(d.jid, d.type, d.name).input ||= d.text;
    this.scheduleGiveUp();
  }

  /**
   * Puts a file on the chat server's upload service (XEP-0363: a slot from ejabberd, then an HTTP
   * PUT) and resolves its description for `send`. Refused files never leave the browser.
   */
  async upload(file: File): Promise<ChatMedia> {
    const problem = chatFileProblem(file);
    if (problem) throw new MediaError(problem);
    if (!this.conn || chat.status !== 'connected') throw new MediaError('offline');
    let slot;
    try {
      slot = parseSlot(await this.iq(slotRequest(`upload.${chat.me.split('@')[1] ?? ''}`, file), 30_000));
    } catch (err) {
      throw new MediaError(err instanceof IqError && err.condition === 'file-too-large' ? 'tooLarge' : 'uploadFailed');
    }
    if (!slot) throw new MediaError('uploadFailed');
    const res = await (this.deps.fetch ?? fetch)(slot.put, { method: 'PUT', body: file, headers: { ...slot.headers, 'Content-Type': file.type || 'application/octet-stream' } }).catch(() => null);
    if (!res?.ok) throw new MediaError(res?.status === 413 ? 'tooLarge' : 'uploadFailed');
    return describeFile(file, slot.get);
  }

  private setStatus(s: ChatSessionState, id: string, status: MessageStatus): void {
    const m = s.messages.find((x) => x.id === id);
    if (m) m.status = nextStatus(m.status, status);
    // Confirmed, received or refused: no longer waiting.
    if (this.outbox.settle(id)) this.saveOutbox();
  }

  /** Typing in the input: composing now, paused after 5 s without a key, active when sent. */
  typing(jid: string, input: string): void {
    const s = chat.sessions[bare(jid)] ?? this.session(jid);
    s.input = input;
    this.saveOutbox();
    // Chat states go to one person; a group would archive and broadcast every keystroke's state.
    if (s.type === 'groupchat') return;
    if (!input.trim()) {
      this.clearPaused(s.jid);
      if (this.composingSent.get(s.jid) === 'composing' || this.composingSent.get(s.jid) === 'paused') this.sendChatState(s.jid, 'active');
      return;
    }
    if (this.composingSent.get(s.jid) !== 'composing') this.sendChatState(s.jid, 'composing');
    this.clearPaused(s.jid);
    this.pausedTimers.set(
      s.jid,
      this.clock.setTimeout(() => this.sendChatState(s.jid, 'paused'), 5000),
    );
  }

  private clearPaused(jid: string): void {
    this.clock.clearTimeout(this.pausedTimers.get(jid));
    this.pausedTimers.delete(jid);
  }

  sendChatState(jid: string, state: ComposingState): void {
    this.composingSent.set(jid, state);
    if (!this.conn || chat.status !== 'connected') return;
    this.conn.send($msg({ to: jid, type: 'chat', id: newMessageId() }).c(state, { xmlns: NS.chatStates }).tree());
  }

  private onMessage(stanza: Element): boolean {
    try {
      if (child(stanza, 'result', NS.mam)) return true;
      const room = parseRoomMessage(stanza, this.deps.mucDomain);
      if (room) {
        this.onRoomMessage(room);
        return true;
      }
      if (stanza.getAttribute('type') === 'headline') {
        const from = stanza.getAttribute('from') ?? '';
        // The API: the user's groups changed (made, renamed, joined, left, removed from).
        if (from === chat.me.split('@')[1] && child(stanza, 'subject')?.textContent === ROOMS_CHANGED_SUBJECT) void this.resyncRooms();
        // Another client of ours saved read positions, mutes or roster groups.
        else if (bare(from) === chat.me && child(stanza, 'x', NS.chats) && from !== this.conn?.jid) {
          void this.reloadStored()
            .then(() => this.syncRooms())
            .catch(() => undefined);
        }
        return true;
      }
      const m = parseMessage(stanza, chat.me);
      if (!m) return true;
      if (m.type === 'groupchat') return true;
      const mine = m.carbon === 'sent' || m.from === chat.me;
      const peer = mine ? m.to : m.from;
      if (!peer || peer === chat.me) return true;
      if (m.error) {
        const s = chat.sessions[peer];
        if (s) this.setStatus(s, m.id, 'failed');
        return true;
      }
      if (m.receiptFor) {
        const s = chat.sessions[peer];
        if (s && !mine) this.setStatus(s, m.receiptFor, 'received');
      }
      if (m.body !== null) {
        const s = this.session(peer);
        if (s.phase === 'created') s.phase = 'initialised';
        const msg = this.toChatMessage(m, mine, false);
        const isNew = !s.messages.some((x) => x.id === msg.id);
        this.addMessages(s, [msg]);
        if (!mine) {
          s.peerComposing = m.composing ?? 'active';
          if (m.receiptRequested && m.carbon === null && m.id && this.conn) {
            this.conn.send($msg({ to: m.from, id: newMessageId() }).c('received', { xmlns: NS.receipts, id: m.id }).tree());
          }
          if (isNew && rosterGroupOf(chat.rosterGroups, s.jid) === 'closed') this.setRosterGroup(s.jid, 'recent');
          if (isNew && (chat.open !== peer || !isVisible()) && !s.muted) this.deps.announceNew?.(s.name, messagePreview(msg), s.jid);
        }
      } else if (m.composing && !mine) {
        const s = chat.sessions[peer] ?? this.session(peer);
        s.peerComposing = m.composing;
      }
    } catch (err) {
      console.error('chat: unreadable message', err);
    }
    return true;
  }

  // ---- presence --------------------------------------------------------------------------------

  private presenceStanza(to?: string): Element {
    const w = toWire(chat.own, chat.ownText, chat.onCall);
    const p = $pres(to ? { to } : {});
    if (w.type && to) p.attrs({ type: w.type });
    if (w.show && !w.type) p.c('show').t(w.show).up();
    if (w.status && !w.type) p.c('status').t(w.status).up();
    return p.tree();
  }

  private sendDirectedPresence(only?: string): void {
    if (!this.conn) return;
    if (chat.own === 'invisible' && !only) return;
    for (const c of chat.contacts) if (!only || c.jid === only) this.conn.send(this.presenceStanza(c.jid));
  }

  private onPresence(stanza: Element): boolean {
    try {
      const p = parsePresence(stanza);
      if (p.error || !p.from || p.from === chat.me) return true;
      const t = stanza.getAttribute('type');
      if (t && t !== 'unavailable') return true;
      const seen = fromWire(p.wire);
      const wasAvailable = this.rawAvailable.has(p.from);
      if (p.wire.type === 'unavailable') this.rawAvailable.delete(p.from);
      else {
        this.rawAvailable.add(p.from);
        // Someone came online who did not know about us yet: tell them our presence too.
        if (!wasAvailable && chat.own !== 'invisible' && chat.contacts.some((c) => c.jid === p.from)) this.sendDirectedPresence(p.from);
      }
      this.debouncer.push(p.from, seen);
    } catch (err) {
      console.error('chat: unreadable presence', err);
    }
    return true;
  }

  setPresence(state: PresenceState, text = ''): void {
    const wasInvisible = chat.own === 'invisible';
    const previous = chat.own;
    chat.own = state;
    chat.ownText = state === 'custom' ? text.trim() : '';
    this.saveOwnPresence({ state, text: chat.ownText, previous });
    if (!this.conn || chat.status !== 'connected') return;
    if (state === 'invisible') {
      if (!wasInvisible) for (const c of chat.contacts) this.conn.send($pres({ to: c.jid, type: 'unavailable' }).tree());
      return;
    }
    this.conn.send(this.presenceStanza());
    this.sendDirectedPresence();
  }

  /** Publishes the own presence again (the 'on call' text came or went); the stored state is unchanged. */
  republishPresence(): void {
    if (!this.conn || chat.status !== 'connected' || chat.own === 'invisible') return;
    this.conn.send(this.presenceStanza());
    this.sendDirectedPresence();
  }

  private presenceKey(): string {
    return `uc.messaging.presence.${this.deps.userId}`;
  }

  private loadOwnPresence(): StoredPresence | null {
    try {
      const raw = this.deps.storage?.getItem(this.presenceKey());
      return raw ? (JSON.parse(raw) as StoredPresence) : null;
    } catch {
      return null;
    }
  }

  private saveOwnPresence(p: StoredPresence): void {
    try {
      this.deps.storage?.setItem(this.presenceKey(), JSON.stringify(p));
    } catch {
      /* no storage: the state lasts for this page */
    }
  }
}

/** A file that was not sent, and why (each has a message for the user). */
export class MediaError extends Error {
  constructor(readonly problem: ChatFileProblem | 'offline' | 'uploadFailed') {
    super(`media ${problem}`);
  }
}

/** An IQ answered with an error (its defined condition) or never answered (`timeout`). */
export class IqError extends Error {
  constructor(readonly condition: string) {
    super(`iq ${condition}`);
  }
}

function errorCondition(iq: Element): string {
  const err = child(iq, 'error');
  for (let n = err?.firstChild; n; n = n.nextSibling) if (n.nodeType === 1 && (n as Element).localName !== 'text') return (n as Element).localName;
  return 'undefined-condition';
}

function isVisible(): boolean {
  return typeof document === 'undefined' || document.visibilityState === 'visible';
}

/** Archive ids: numeric strings compare as numbers, anything else as text. */
export function compareIds(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
  return a < b ? -1 : a > b ? 1 : 0;
}

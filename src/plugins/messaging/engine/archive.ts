import { $iq } from 'strophe.js';
import type { ChatMessage } from '../model/chat';
import { isAccessDenied, nextPhase } from '../model/sessions';
import { chat, type ChatSessionState } from '../state';
import { roomChatMessage, toChatMessage } from './chatMessages';
import type { Connection } from './connection';
import { compareIds, IqError, type ChatEngineDeps } from './deps';
import { parseRoomMamResult, type RoomMessage } from './mucStanzas';
import type { Sessions } from './sessions';
import { publishPayload } from '../payloads';
import { bare, NS, parseMamFin, parseMamResult, type ParsedMessage } from './stanzas';

/** Catch-up pages after a (re)connect, and the first look at the archive. */
const CATCH_UP_PAGE = 100;

type Page = { max: number; before?: string | ''; after?: string };

/**
 * History from the server's archives (MAM): the user's own for 1:1 chats, each room's for groups.
 * Older pages as the user scrolls, and the catch-up after every (re)connect from the newest id seen,
 * so no message is lost across a reconnect.
 */
export class Archive {
  /** Newest archive id seen, live or from MAM: where the next catch-up starts. */
  private lastArchiveId: string | null = null;
  /** Newest archive id seen per room (rooms keep their own archives): where a room's catch-up starts. */
  private readonly roomLast = new Map<string, string>();

  constructor(
    private readonly deps: Pick<ChatEngineDeps, 'mucDomain' | 'historyPageSize'>,
    private readonly connection: Connection,
    private readonly sessions: Sessions,
  ) {}

  private mam(opts: Page & { with?: string }): Promise<{ results: ParsedMessage[]; fin: ReturnType<typeof parseMamFin> }> {
    return this.mamQuery(opts, undefined, (el) => parseMamResult(el, chat.me));
  }

  /** A page of a room's own archive (MAM to the room's JID; members may read it as subscribers). */
  private roomMam(room: string, opts: Page): Promise<{ results: RoomMessage[]; fin: ReturnType<typeof parseMamFin> }> {
    return this.mamQuery(opts, room, (el) => parseRoomMamResult(el, room));
  }

  private async mamQuery<T>(
    opts: { with?: string; max: number; before?: string | ''; after?: string },
    archive: string | undefined,
    parse: (el: Element) => { queryid: string; message: T } | null,
  ): Promise<{ results: T[]; fin: ReturnType<typeof parseMamFin> }> {
    const conn = this.connection.socket;
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
      const fin = parseMamFin(await this.connection.iq(q, 30_000));
      return { results, fin };
    } finally {
      conn.deleteHandler(h);
    }
  }

  /** No message is lost across a reconnect: everything archived after the newest one we saw. */
  async catchUp(gen: number): Promise<void> {
    if (!this.lastArchiveId) {
      const { results, fin } = await this.mam({ max: CATCH_UP_PAGE });
      this.ingestArchived(results);
      if (fin.last) this.lastArchiveId = fin.last;
      return;
    }
    for (let i = 0; i < 50 && gen === this.connection.generation; i++) {
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
      list.push(toChatMessage(m, mine, true));
      byPeer.set(peer, list);
    }
    for (const [peer, list] of byPeer) {
      const s = this.sessions.session(peer);
      this.sessions.addMessages(s, list);
      // What came while the connection was down (an invite's answer) is news: its listeners ignore repeats.
      for (const m of list) if (m.payload) publishPayload(m.payload, peer, m.mine, m.id, true);
    }
  }

  /** Opens a conversation: created → initialised → hydrated with its newest history page. */
  async hydrate(jid: string): Promise<void> {
    const s = chat.sessions[bare(jid)] ?? (jid.endsWith(`@${this.deps.mucDomain}`) ? null : this.sessions.session(jid));
    if (!s || s.phase === 'destroyed') return;
    s.phase = nextPhase(s.phase, 'init');
    this.sessions.applyStored(s);
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
          ? await this.roomMam(s.jid, page).then((r) => ({ fin: r.fin, results: r.results.filter((m) => m.body !== null).map((m) => roomChatMessage(m, true)) }))
          : await this.mam({ with: s.jid, ...page }).then((r) => ({ fin: r.fin, results: r.results.filter((m) => m.body !== null).map((m) => toChatMessage(m, m.from === chat.me, true)) }));
      const msgs = results;
      if (s.type === 'groupchat' && fin.last) this.noteRoomId(s.jid, fin.last);
      this.sessions.addMessages(s, msgs, false);
      if (s.type === 'chat') for (const m of msgs) if (m.payload) publishPayload(m.payload, s.jid, m.mine, m.id, false);
      s.history.first = fin.first ?? s.history.first;
      s.history.last ??= fin.last;
      s.history.count = fin.count;
      s.history.complete = fin.complete || results.length === 0;
    } catch (err) {
      // A room that refuses us (removed, or deleted): the session ends. Anything else: the next scroll or reconnect tries again.
      if (s.type === 'groupchat' && err instanceof IqError && isAccessDenied(err.condition)) this.sessions.destroy(s.jid, 'accessDenied');
    } finally {
      s.history.pending = false;
    }
  }

  /** After a (re)connect: the room's newest page the first time, then everything after the newest seen. */
  async roomCatchUp(s: ChatSessionState, gen: number): Promise<void> {
    try {
      const after = this.roomLast.get(s.jid);
      if (!after) {
        // Nothing seen from this room yet (new, or empty when last read): its newest page, again.
        if (s.history.first === null) s.history.complete = false;
        await this.olderPage(s);
        return;
      }
      let from = after;
      for (let i = 0; i < 50 && gen === this.connection.generation && chat.sessions[s.jid]; i++) {
        const { results, fin } = await this.roomMam(s.jid, { max: CATCH_UP_PAGE, after: from });
        this.sessions.addMessages(s, results.filter((m) => m.body !== null).map((m) => roomChatMessage(m, true)));
        if (fin.last) {
          this.noteRoomId(s.jid, fin.last);
          from = fin.last;
        }
        if (fin.complete || results.length === 0) return;
      }
    } catch (err) {
      if (err instanceof IqError && isAccessDenied(err.condition)) this.sessions.destroy(s.jid, 'accessDenied');
    }
  }

  noteRoomId(room: string, id: string): void {
    const seen = this.roomLast.get(room);
    if (!seen || compareIds(id, seen) > 0) this.roomLast.set(room, id);
  }

  noteArchiveId(id: string): void {
    // ejabberd's archive ids grow with time; only move forward.
    if (!this.lastArchiveId || compareIds(id, this.lastArchiveId) > 0) this.lastArchiveId = id;
  }

  /** A group's session ended: a new one starts from its newest page. */
  forgetRoom(room: string): void {
    this.roomLast.delete(room);
  }
}

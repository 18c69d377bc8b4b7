import { $iq, $msg } from 'strophe.js';
import { ROOMS_CHANGED_SUBJECT } from '../../../wire/chatRooms';
import { mergeMessages, messagePreview, newMessageId, type ChatMessage, type ComposingState } from '../model/chat';
import { chatFileProblem, describeFile, type ChatMedia } from '../model/media';
import type { Clock } from '../model/presence';
import { rosterGroupOf } from '../model/sessions';
import { chat, type ChatSessionState } from '../state';
import { toChatMessage } from './chatMessages';
import type { Connection } from './connection';
import { IqError, isVisible, MediaError, type ChatEngineDeps } from './deps';
import type { Groups } from './groups';
import { appendMedia, parseSlot, slotRequest } from './mediaStanzas';
import { parseRoomMessage } from './mucStanzas';
import type { Outbox } from './outbox';
import type { Roster } from './roster';
import type { Sessions } from './sessions';
import { bare, child, NS, parseMessage } from './stanzas';
import { log } from '../log';
import type { ChatPayload } from '../../../contracts';
import { publishPayload } from '../payloads';

/**
 * Messages: sending through the outbox (out at once when connected, else waiting for the connection
 * and given up after a bound), files through the upload service, chat states while typing, and the
 * incoming message stanzas (1:1 ones here, group ones handed to `Groups`).
 */
export class Messages {
  private readonly pausedTimers = new Map<string, unknown>();
  private readonly composingSent = new Map<string, ComposingState>();
  private giveUpTimer: unknown = null;
  /** Told once per outage that messages wait, not once per message. */
  private queuedAnnounced = false;

  constructor(
    private readonly deps: Pick<ChatEngineDeps, 'mucDomain' | 'notify' | 't' | 'fetch' | 'announceNew' | 'serverPush' | 'sent'>,
    private readonly clock: Clock,
    private readonly connection: Connection,
    private readonly outbox: Outbox,
    private readonly sessions: Sessions,
    private readonly roster: Roster,
    private readonly groups: Groups,
  ) {}

  /** Connected and caught up: what waited goes out. */
  connected(): void {
    this.queuedAnnounced = false;
    this.clock.clearTimeout(this.giveUpTimer);
    // After the catch-up: a message the server already had is settled by now and not sent again.
    for (const { id, jid } of this.outbox.waiting()) this.transmit(id, jid);
  }

  /** The connection dropped: nobody is typing any more, and unconfirmed messages wait again. */
  connectionLost(): void {
    for (const s of Object.values(chat.sessions)) s.peerComposing = null;
    // What went out and was not confirmed waits again: the catch-up after the reconnect tells whether the server has it.
    this.outbox.connectionLost();
    this.scheduleGiveUp();
  }

  dispose(): void {
    this.clock.clearTimeout(this.giveUpTimer);
    // Signed out: what still waits is not sent on this user's behalf later, nor left in the tab.
    this.outbox.clear();
  }

  /**
   * Sends a message; bodies are text. Delivered once the server has processed it, received when the
   * peer's client confirms. A media message's body is the file's URL (what other clients show).
   */
  send(jid: string, body: string, media?: ChatMedia, payload?: ChatPayload): string {
    const s = this.sessions.session(jid);
    const id = newMessageId();
    if (media) body = media.url;
    const msg: ChatMessage = { id, stanzaId: null, from: chat.me, body, timestamp: Date.now(), delayed: false, archived: false, mine: true, status: null, media: media ?? null, payload: payload ?? null };
    this.sessions.merge(s, [msg]);
    s.lastActivity = msg.timestamp;
    s.input = '';
    this.clearPaused(s.jid);
    this.composingSent.set(s.jid, 'active');
    this.queue(s, id);
    this.deps.sent?.();
    if (chat.open === s.jid) this.sessions.setRead(s, msg.timestamp);
    return id;
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
    this.sessions.saveOutbox();
    if (this.connection.isConnected()) {
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
      if (this.outbox.settle(id)) this.sessions.saveOutbox();
      return;
    }
    const conn = this.connection.socket;
    if (!conn || chat.status !== 'connected') return;
    const gen = this.connection.generation;
    this.outbox.sent(id, gen);
    const media = m.media ?? undefined;
    if (s.type === 'groupchat') {
      const stanza = $msg({ to: s.jid, type: 'groupchat', id }).c('body').t(m.body).up();
      conn.send((media ? appendMedia(stanza, media) : stanza).tree());
    } else {
      const stanza = $msg({ to: s.jid, type: 'chat', id }).c('body').t(m.body).up();
      if (media) appendMedia(stanza, media);
      if (m.payload) stanza.c(m.payload.name, { xmlns: m.payload.ns, ...m.payload.attrs }).up();
      conn.send(stanza.c('request', { xmlns: NS.receipts }).up().c('active', { xmlns: NS.chatStates }).tree());
    }
    // A ping answered after the message means the server has it (stored, archived or routed). No
    // answer because the connection dropped: the message waits again (setDown), it has not failed.
    this.connection.iq($iq({ type: 'get', to: chat.me.split('@')[1] ?? '' }).c('ping', { xmlns: NS.ping })).then(
      () => this.sessions.setStatus(s, id, 'delivered'),
      () => gen === this.connection.generation && this.sessions.setStatus(s, id, 'failed'),
    );
  }

  /** A message that waited past the bound says "Not sent" (with Retry); told once for the lot. */
  private scheduleGiveUp(): void {
    this.clock.clearTimeout(this.giveUpTimer);
    const wait = this.outbox.nextExpiryIn();
    if (wait === null || this.connection.disposed) return;
    this.giveUpTimer = this.clock.setTimeout(() => {
      const expired = this.outbox.expired();
      for (const { id, jid } of expired) {
        const s = chat.sessions[jid];
        if (s) this.sessions.setStatus(s, id, 'failed');
        else this.outbox.settle(id);
      }
      if (expired.length) {
        this.sessions.saveOutbox();
        this.deps.notify.announce(this.deps.t('messaging:announce.notSent'), 'polite');
      }
      this.scheduleGiveUp();
    }, wait);
  }

  /** What this tab's previous page had not sent, and the drafts: back on screen, waiting for the connection. */
  restoreOutbox(): void {
    const stored = this.outbox.restore();
    if (!stored) return;
    const open = (jid: string, type: ChatSessionState['type'], name: string) => {
      const known = !!chat.sessions[bare(jid)];
      const s = this.sessions.session(jid, type);
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
    if (!this.connection.isConnected()) throw new MediaError('offline');
    let slot;
    try {
      slot = parseSlot(await this.connection.iq(slotRequest(`upload.${chat.me.split('@')[1] ?? ''}`, file), 30_000));
    } catch (err) {
      throw new MediaError(err instanceof IqError && err.condition === 'file-too-large' ? 'tooLarge' : 'uploadFailed');
    }
    if (!slot) throw new MediaError('uploadFailed');
    const res = await (this.deps.fetch ?? fetch)(slot.put, { method: 'PUT', body: file, headers: { ...slot.headers, 'Content-Type': file.type || 'application/octet-stream' } }).catch(() => null);
    if (!res?.ok) throw new MediaError(res?.status === 413 ? 'tooLarge' : 'uploadFailed');
    return describeFile(file, slot.get);
  }

  /** Typing in the input: composing now, paused after 5 s without a key, active when sent. */
  typing(jid: string, input: string): void {
    const s = chat.sessions[bare(jid)] ?? this.sessions.session(jid);
    s.input = input;
    this.sessions.saveOutbox();
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
    const conn = this.connection.socket;
    if (!conn || chat.status !== 'connected') return;
    conn.send($msg({ to: jid, type: 'chat', id: newMessageId() }).c(state, { xmlns: NS.chatStates }).tree());
  }

  onMessage(stanza: Element): boolean {
    try {
      if (child(stanza, 'result', NS.mam)) return true;
      const room = parseRoomMessage(stanza, this.deps.mucDomain);
      if (room) {
        this.groups.onRoomMessage(room);
        return true;
      }
      if (stanza.getAttribute('type') === 'headline') {
        const from = stanza.getAttribute('from') ?? '';
        // The API: the user's groups changed (made, renamed, joined, left, removed from).
        const subject = child(stanza, 'subject')?.textContent ?? '';
        const fromApi = from === chat.me.split('@')[1];
        if (fromApi && subject === ROOMS_CHANGED_SUBJECT) void this.groups.resyncRooms();
        // Other notices of the API (maintenance, a new voicemail) are for other parts of the app.
        else if (fromApi && subject) this.deps.serverPush?.(subject, child(stanza, 'body')?.textContent ?? '');
        // Another client of ours saved read positions, mutes or roster groups.
        else if (bare(from) === chat.me && child(stanza, 'x', NS.chats) && from !== this.connection.socket?.jid) {
          void this.sessions
            .reloadStored()
            .then(() => this.groups.syncRooms())
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
        if (s) this.sessions.setStatus(s, m.id, 'failed');
        return true;
      }
      if (m.receiptFor) {
        const s = chat.sessions[peer];
        if (s && !mine) this.sessions.setStatus(s, m.receiptFor, 'received');
      }
      if (m.body !== null) {
        const s = this.sessions.session(peer);
        if (s.phase === 'created') s.phase = 'initialised';
        const msg = toChatMessage(m, mine, false);
        const isNew = !s.messages.some((x) => x.id === msg.id);
        this.sessions.addMessages(s, [msg]);
        if (msg.payload && isNew) publishPayload(msg.payload, peer, mine, msg.id, true);
        if (!mine) {
          s.peerComposing = m.composing ?? 'active';
          const conn = this.connection.socket;
          if (m.receiptRequested && m.carbon === null && m.id && conn) {
            conn.send($msg({ to: m.from, id: newMessageId() }).c('received', { xmlns: NS.receipts, id: m.id }).tree());
          }
          if (isNew && rosterGroupOf(chat.rosterGroups, s.jid) === 'closed') this.roster.setRosterGroup(s.jid, 'recent');
          if (isNew && (chat.open !== peer || !isVisible()) && !s.muted) this.deps.announceNew?.(s.name, messagePreview(msg), s.jid);
        }
      } else if (m.composing && !mine) {
        const s = chat.sessions[peer] ?? this.sessions.session(peer);
        s.peerComposing = m.composing;
      }
    } catch (err) {
      log.error('unreadable message', err);
    }
    return true;
  }
}

import { emptyHistory, mergeMessages, nextStatus, unreadCount, type ChatMessage, type MessageStatus } from '../model/chat';
import { moveToRosterGroup, nextPhase, rosterGroupOf, type DestroyReason } from '../model/sessions';
import { chat, type ChatSessionState } from '../state';
import { isVisible } from './deps';
import type { Outbox } from './outbox';
import type { SavedState } from './savedState';
import { bare } from './stanzas';

/** What the parts built on the sessions learn from them. */
export interface SessionEvents {
  /** A 1:1 message with this archive id arrived (the user's catch-up position). */
  archived(id: string): void;
  /** A session ended. */
  ended(jid: string): void;
}

/**
 * The conversations in the `chat` store: made on first use, their messages merged in, read
 * positions and unread counts (saved with the user's other clients), and their end.
 */
export class Sessions {
  constructor(
    private readonly saved: SavedState,
    private readonly outbox: Outbox,
    private readonly events: SessionEvents,
  ) {}

  nameOf(jid: string): string {
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

  applyStored(s: ChatSessionState): void {
    const st = this.saved.get(s.jid);
    if (st?.read && st.read > s.readPosition) s.readPosition = st.read;
    if (st && typeof st.muted === 'boolean') s.muted = st.muted;
    if (st?.group && rosterGroupOf(chat.rosterGroups, s.jid) !== st.group) chat.rosterGroups = moveToRosterGroup(chat.rosterGroups, s.jid, st.group);
    this.recount(s);
  }

  /** Another client of ours saved: read positions, mutes and roster groups from the server's copy. */
  async reloadStored(): Promise<void> {
    await this.saved.load();
    for (const s of Object.values(chat.sessions)) this.applyStored(s);
  }

  recount(s: ChatSessionState): void {
    if (chat.open === s.jid && isVisible()) {
      const newest = s.messages.at(-1)?.timestamp ?? 0;
      if (newest > s.readPosition) this.setRead(s, newest);
    }
    s.unread = unreadCount(s.messages, s.readPosition);
  }

  addMessages(s: ChatSessionState, msgs: readonly ChatMessage[], recount = true): void {
    if (!msgs.length) return;
    // Our own message back from the server (the archive, a room's echo): the copy on screen learns it arrived.
    for (const m of msgs) if (m.mine && m.status && s.messages.some((x) => x.id === m.id)) this.setStatus(s, m.id, m.status);
    this.merge(s, msgs);
    s.lastActivity = Math.max(s.lastActivity, s.messages.at(-1)?.timestamp ?? 0);
    // Room archive ids belong to the room's archive, never the user's catch-up position.
    if (s.type === 'chat') for (const m of msgs) if (m.stanzaId) this.events.archived(m.stanzaId);
    if (recount) this.recount(s);
    else s.unread = unreadCount(s.messages, s.readPosition);
  }

  /**
   * One new message after the newest, as nearly every live one is, is appended in place: a merged
   * copy is a new array, which valtio wraps again item by item and every snapshot copies, per
   * message, as long as the conversation is.
   */
  merge(s: ChatSessionState, msgs: readonly ChatMessage[]): void {
    const m = msgs[0]!;
    const newest = s.messages.at(-1);
    const known = (x: ChatMessage) => x.id === m.id || (m.stanzaId !== null && x.stanzaId === m.stanzaId);
    if (msgs.length === 1 && (!newest || newest.timestamp <= m.timestamp) && !s.messages.some(known)) s.messages.push(m);
    else s.messages = mergeMessages(s.messages, msgs);
  }

  setStatus(s: ChatSessionState, id: string, status: MessageStatus): void {
    const m = s.messages.find((x) => x.id === id);
    if (m) m.status = nextStatus(m.status, status);
    // Confirmed, received or refused: no longer waiting.
    if (this.outbox.settle(id)) this.saveOutbox();
  }

  /** The waiting messages and the drafts, into the tab's storage. */
  saveOutbox(): void {
    this.outbox.save(chat.sessions);
  }

  setRead(s: ChatSessionState, ts: number): void {
    s.readPosition = ts;
    s.unread = unreadCount(s.messages, ts);
    this.saved.update(s.jid, { read: ts });
  }

  markRead(jid: string): void {
    const s = chat.sessions[bare(jid)];
    if (!s) return;
    this.setRead(s, Math.max(s.readPosition, s.messages.at(-1)?.timestamp ?? 0));
  }

  markAllRead(): void {
    for (const jid of Object.keys(chat.sessions)) this.markRead(jid);
  }

  /** The conversation on screen is now this one (or none). */
  open(jid: string | null): void {
    chat.open = jid ? bare(jid) : null;
    if (chat.open) {
      const s = chat.sessions[chat.open];
      if (s) this.recount(s);
    }
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
    this.events.ended(key);
    this.saved.forget(key);
  }
}

import { $iq } from 'strophe.js';
import type { ChatPayload, PresenceState } from '../../../contracts';
import type { ComposingState } from '../model/chat';
import type { ChatMedia } from '../model/media';
import { realClock } from '../model/presence';
import { nextPhase, rosterGroupOf, type DestroyReason, type RosterGroup } from '../model/sessions';
import { chat, type ChatSessionState } from '../state';
import { Archive } from './archive';
import { Connection } from './connection';
import type { ChatEngineDeps } from './deps';
import { Groups } from './groups';
import { Messages } from './messages';
import { Outbox } from './outbox';
import { Presence } from './presence';
import { Roster } from './roster';
import { SavedState } from './savedState';
import { Sessions } from './sessions';
import { bare, NS } from './stanzas';

export { compareIds, IqError, MediaError, type ChatEngineDeps } from './deps';

/**
 * Chat: 1:1 chat with delivery receipts and chat states, group chats, history from the archive
 * (MAM) and catch-up after every reconnect, presence to colleagues, read positions in private XML
 * storage.
 *
 * A façade: commands, the UI and the plugin's services call these methods; the work is done by its
 * parts, each given only what it needs.
 * - `Connection` (connection.ts): the socket, its token, the ping, IQs, the connection banner.
 * - `SavedState` (savedState.ts): read positions, mutes and roster groups in private storage.
 * - `Sessions` (sessions.ts): the conversations, their messages, read positions and end.
 * - `Roster` (roster.ts): pinned, recent and closed; muting.
 * - `Archive` (archive.ts): history pages and the catch-up after a (re)connect.
 * - `Groups` (groups.ts): the user's groups, their live messages, making and leaving them.
 * - `Messages` (messages.ts): sending through the outbox, uploads, chat states, incoming messages.
 * - `Presence` (presence.ts): the user's own presence and the colleagues'.
 */
export class ChatEngine {
  private readonly connection: Connection;
  private readonly outbox: Outbox;
  private readonly saved: SavedState;
  private readonly sessions: Sessions;
  private readonly roster: Roster;
  private readonly archive: Archive;
  private readonly groups: Groups;
  private readonly messages: Messages;
  private readonly presence: Presence;

  constructor(deps: ChatEngineDeps) {
    const clock = deps.clock ?? realClock;
    this.connection = new Connection(deps, clock, {
      message: (el) => this.messages.onMessage(el),
      presence: (el) => this.presence.onPresence(el),
      ready: (gen) => this.catchUp(gen),
      up: () => this.messages.connected(),
      down: () => this.messages.connectionLost(),
    });
    this.outbox = new Outbox(clock, deps.sessionStorage ?? null, `uc.messaging.outbox.${deps.userId}`);
    this.saved = new SavedState(this.connection, clock);
    this.sessions = new Sessions(this.saved, this.outbox, {
      archived: (id) => this.archive.noteArchiveId(id),
      ended: (jid) => this.archive.forgetRoom(jid),
    });
    this.roster = new Roster(this.sessions, this.saved);
    this.archive = new Archive(deps, this.connection, this.sessions);
    this.groups = new Groups(deps, this.connection, this.sessions, this.archive, this.roster);
    this.messages = new Messages(deps, clock, this.connection, this.outbox, this.sessions, this.roster, this.groups);
    this.presence = new Presence(deps, this.connection, clock);
  }

  // ---- connection ------------------------------------------------------------------------------

  start(): void {
    this.connection.register();
    this.messages.restoreOutbox();
    void this.connection.connect();
  }

  reconnect(): void {
    this.connection.reconnect();
  }

  /** The network went away: drop at once (the socket may linger) and let the banner's schedule retry. */
  offline(): void {
    this.connection.offline();
  }

  online(): void {
    this.connection.online();
  }

  dispose(): void {
    this.connection.stop();
    this.saved.dispose();
    this.messages.dispose();
    this.connection.close();
    this.presence.dispose();
    this.connection.release();
  }

  /**
   * Connected: everything in place before chat counts as connected. False when a newer connection
   * took over meanwhile.
   */
  private async catchUp(gen: number): Promise<boolean> {
    const current = () => gen === this.connection.generation;
    // Groups first: offline room messages, delivered after the initial presence, then find their sessions.
    // The API unreachable just now must not keep chat down: the groups are read again at the next notice or connect.
    await this.groups.syncRooms().catch(() => undefined);
    if (!current()) return false;
    for (const s of Object.values(chat.sessions)) s.phase = nextPhase(s.phase, 'reconnected', s.jid);
    // Initial presence (the server then delivers offline messages), carbons for the user's other devices.
    this.connection.send(this.presence.stanza());
    await this.connection.iq($iq({ type: 'set' }).c('enable', { xmlns: NS.carbons })).catch(() => undefined);
    await this.saved.load();
    if (!current()) return false;
    this.presence.sendDirected();
    await this.archive.catchUp(gen);
    for (const s of Object.values(chat.sessions)) if (s.type === 'groupchat' && current()) await this.archive.roomCatchUp(s, gen);
    if (!current()) return false;
    // On reconnect, sessions are re-hydrated: read positions and unread from the server's copy.
    for (const s of Object.values(chat.sessions)) {
      this.sessions.applyStored(s);
      // A group has its members (the API's list) and its newest page by now; a 1:1 chat is hydrated when opened.
      if (s.type === 'groupchat') s.phase = nextPhase(s.phase, 'init');
      if (s.phase === 'initialised' && (s.history.first !== null || s.history.complete)) s.phase = nextPhase(s.phase, 'hydrated');
    }
    return true;
  }

  // ---- archive ---------------------------------------------------------------------------------

  /** Opens a conversation: created → initialised → hydrated with its newest history page. */
  hydrate(jid: string): Promise<void> {
    return this.archive.hydrate(jid);
  }

  /** The next older page of 25 (historyStatus first/last/count/complete/pending). */
  loadOlder(jid: string): Promise<void> {
    return this.archive.loadOlder(jid);
  }

  // ---- groups ----------------------------------------------------------------------------------

  /** The groups the API says the user belongs to: sessions for new ones, ended for the ones left. */
  syncRooms(): Promise<void> {
    return this.groups.syncRooms();
  }

  memberName(s: Pick<ChatSessionState, 'members'>, jid: string): string {
    return this.groups.memberName(s, jid);
  }

  /** A new group of the user and these colleagues; its session is ready when this resolves. */
  createRoom(subject: string, memberIds: readonly number[]): Promise<string> {
    return this.groups.createRoom(subject, memberIds);
  }

  /** Renames a group or changes who else belongs to it. */
  updateRoom(jid: string, change: { subject?: string; memberIds?: readonly number[] }): Promise<void> {
    return this.groups.updateRoom(jid, change);
  }

  /** Leaves a group: the user's affiliation becomes none, the session ends here and on the user's other clients. */
  leaveRoom(jid: string): Promise<void> {
    return this.groups.leaveRoom(jid);
  }

  // ---- roster groups and muting ---------------------------------------------------------------

  /** One per-session action (the bar's menu and the palette); true when the session left the bar. */
  async sessionAction(action: 'toggleMute' | 'pin' | 'close' | 'leave', jid: string): Promise<boolean> {
    const s = chat.sessions[bare(jid)];
    if (!s) return false;
    if (action === 'toggleMute') this.roster.setMuted(s.jid, !s.muted);
    else if (action === 'pin') this.roster.setRosterGroup(s.jid, rosterGroupOf(chat.rosterGroups, s.jid) === 'pin' ? 'recent' : 'pin');
    else if (action === 'close') this.roster.setRosterGroup(s.jid, 'closed');
    else if (s.type === 'groupchat') await this.groups.leaveRoom(s.jid);
    return action === 'close' || (action === 'leave' && s.type === 'groupchat');
  }

  /** Pin, back to recent, or close; a chat is in one roster group only. */
  setRosterGroup(jid: string, group: RosterGroup): void {
    this.roster.setRosterGroup(jid, group);
  }

  setMuted(jid: string, muted: boolean): void {
    this.roster.setMuted(jid, muted);
  }

  // ---- sessions --------------------------------------------------------------------------------

  session(jid: string, type: ChatSessionState['type'] = 'chat'): ChatSessionState {
    return this.sessions.session(jid, type);
  }

  /** Ends a session, here and on the user's other clients. */
  destroy(jid: string, reason: DestroyReason): void {
    this.sessions.destroy(jid, reason);
  }

  markRead(jid: string): void {
    this.sessions.markRead(jid);
  }

  markAllRead(): void {
    this.sessions.markAllRead();
  }

  /** The conversation on screen changed (or the window's visibility did). */
  setOpen(jid: string | null): void {
    const prev = chat.open;
    if (prev && prev !== jid && chat.sessions[prev]?.type === 'chat') this.messages.sendChatState(prev, 'inactive');
    this.sessions.open(jid);
  }

  // ---- messages --------------------------------------------------------------------------------

  /**
   * Sends a message; bodies are text. Delivered once the server has processed it, received when the
   * peer's client confirms. A media message's body is the file's URL (what other clients show).
   */
  send(jid: string, body: string, media?: ChatMedia, payload?: ChatPayload): string {
    return this.messages.send(jid, body, media, payload);
  }

  /** Sends a message that was not sent again (same id: a copy that did arrive after all is not shown twice). */
  retry(jid: string, id: string): void {
    this.messages.retry(jid, id);
  }

  /** Puts a file on the chat server's upload service; resolves its description for `send`. */
  upload(file: File): Promise<ChatMedia> {
    return this.messages.upload(file);
  }

  /** Typing in the input: composing now, paused after 5 s without a key, active when sent. */
  typing(jid: string, input: string): void {
    this.messages.typing(jid, input);
  }

  sendChatState(jid: string, state: ComposingState): void {
    this.messages.sendChatState(jid, state);
  }

  // ---- presence --------------------------------------------------------------------------------

  setPresence(state: PresenceState, text = ''): void {
    this.presence.setPresence(state, text);
  }

  /** Publishes the own presence again (the 'on call' text came or went); the stored state is unchanged. */
  republishPresence(): void {
    this.presence.republish();
  }
}

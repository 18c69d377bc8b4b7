import { ChatRoom, ChatRoomsResponse } from '../../../wire/chatRooms';
import { messagePreview, nextStatus } from '../model/chat';
import { isAccessDenied, nextPhase, rosterGroupOf } from '../model/sessions';
import { chat, type ChatSessionState } from '../state';
import type { Archive } from './archive';
import { roomChatMessage } from './chatMessages';
import type { Connection } from './connection';
import { isVisible, type ChatEngineDeps } from './deps';
import type { RoomMessage } from './mucStanzas';
import type { Roster } from './roster';
import type { Sessions } from './sessions';
import { bare } from './stanzas';

/**
 * Group chats (MUC rooms with MucSub, made and changed through the API): the user's groups as the
 * API lists them, their live messages, and making, changing and leaving a group.
 */
export class Groups {
  private roomsSyncing: Promise<void> | null = null;
  private roomsAgain = false;

  constructor(
    private readonly deps: Pick<ChatEngineDeps, 'api' | 'announceNew'>,
    private readonly connection: Connection,
    private readonly sessions: Sessions,
    private readonly archive: Archive,
    private readonly roster: Roster,
  ) {}

  /** The groups the API says the user belongs to: sessions for new ones, ended for the ones left. */
  async syncRooms(): Promise<void> {
    const { rooms } = ChatRoomsResponse.parse(await this.deps.api.get('/v1/chat/rooms'));
    const keep = new Set(rooms.map((r) => this.applyRoom(r)));
    for (const s of Object.values(chat.sessions)) if (s.type === 'groupchat' && !keep.has(s.jid)) this.sessions.destroy(s.jid, 'affiliationNone');
  }

  /**
   * Reads the groups once for a burst of notices or unknown-room messages (offline storage delivers
   * many at once); a notice during a read gets one more read after it, so no change is missed.
   */
  resyncRooms(): Promise<void> {
    if (this.roomsSyncing) {
      this.roomsAgain = true;
      return this.roomsSyncing;
    }
    const run = async (): Promise<void> => {
      do {
        this.roomsAgain = false;
        await this.syncRooms().catch(() => undefined);
      } while (this.roomsAgain && !this.connection.disposed);
      this.roomsSyncing = null;
    };
    this.roomsSyncing = run();
    return this.roomsSyncing;
  }

  private applyRoom(r: ChatRoom): string {
    const s = this.sessions.session(r.jid, 'groupchat');
    s.subject = r.subject;
    s.name = r.subject;
    // Owners are moderators when they are in the room (XEP-0045); everyone in a group is an owner.
    s.members = r.members.map((m) => ({ jid: bare(m.jid), userId: m.user_id, name: m.name, affiliation: m.affiliation, role: m.affiliation === 'owner' || m.affiliation === 'admin' ? 'moderator' : 'participant' }));
    s.lastActivity = Math.max(s.lastActivity, Date.parse(r.created_at) || 0);
    return s.jid;
  }

  onRoomMessage(r: RoomMessage): void {
    const s = chat.sessions[r.room];
    if (r.error) {
      if (!s) return;
      this.sessions.setStatus(s, r.id, 'failed');
      if (isAccessDenied(r.error)) this.sessions.destroy(s.jid, 'accessDenied');
      return;
    }
    if (r.body === null) return;
    if (!s) {
      // A group we have not heard of yet (just made by someone): the API's list names it.
      void this.resyncRooms().then(() => chat.sessions[r.room] && this.onRoomMessage(r));
      return;
    }
    const msg = roomChatMessage(r, false);
    if (r.stanzaId) this.archive.noteRoomId(s.jid, r.stanzaId);
    const known = s.messages.find((x) => x.id === msg.id);
    if (known && msg.mine) known.status = nextStatus(known.status, 'received');
    this.sessions.addMessages(s, [msg]);
    if (!msg.mine && !known) {
      if (rosterGroupOf(chat.rosterGroups, s.jid) === 'closed') this.roster.setRosterGroup(s.jid, 'recent');
      if ((chat.open !== s.jid || !isVisible()) && !s.muted) this.deps.announceNew?.(`${this.memberName(s, msg.from)} (${s.name})`, messagePreview(msg), s.jid);
    }
  }

  memberName(s: Pick<ChatSessionState, 'members'>, jid: string): string {
    return s.members.find((m) => m.jid === jid)?.name ?? this.sessions.nameOf(jid);
  }

  /** A new group of the user and these colleagues; its session is ready when this resolves. */
  async createRoom(subject: string, memberIds: readonly number[]): Promise<string> {
    const room = ChatRoom.parse(await this.deps.api.post('/v1/chat/rooms', { subject, member_ids: memberIds }));
    const jid = this.applyRoom(room);
    const s = chat.sessions[jid]!;
    s.history.complete = true;
    s.phase = nextPhase(nextPhase(s.phase, 'init'), 'hydrated');
    this.roster.setRosterGroup(jid, 'recent');
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
    this.sessions.destroy(jid, 'left');
  }
}

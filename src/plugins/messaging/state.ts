import { proxy, useSnapshot } from 'valtio';
import type { PresenceState } from '../../contracts';
import type { ChatContact } from '../../wire/services';
import type { ChatMessage, ComposingState, HistoryStatus } from './model/chat';
import { emptyRosterGroups, type DestroyReason, type RosterGroups, type SessionPhase } from './model/sessions';

/**
 * `off` until the chat engine has started (it loads after the first screen), `disabled` for a user
 * without chat (the limited-access role), `authfail` after the server refused the login.
 */
export type ChatStatus = 'off' | 'disabled' | 'connecting' | 'connected' | 'disconnected' | 'authfail';

export interface PeerPresence {
  state: PresenceState;
  text: string;
}

/** A member of a group as the session shows it (occupant: role and affiliation). */
export interface RoomMember {
  jid: string;
  userId: number;
  name: string;
  affiliation: 'owner' | 'admin' | 'member' | 'outcast' | 'none';
  role: 'moderator' | 'participant' | 'visitor' | 'none';
}

export interface ChatSessionState {
  jid: string;
  /** `groupchat`: a MUC room (with MucSub); the UI calls it gchat when it has more than 2 members. */
  type: 'chat' | 'groupchat';
  /** The other person's name, or the group's subject. */
  name: string;
  /** Groups only: the subject and every member (oneself included). */
  subject: string;
  members: RoomMember[];
  messages: ChatMessage[];
  history: HistoryStatus;
  /** ms timestamp of the newest message read (kept on the server for every device). */
  readPosition: number;
  unread: number;
  muted: boolean;
  /** The other side's chat state. */
  peerComposing: ComposingState | null;
  /** What the user has typed and not sent yet. */
  input: string;
  lastActivity: number;
  /** created → initialised → hydrated (history, members, read position) → destroyed. */
  phase: SessionPhase;
}

/** Chat before the engine has started: the store starts so, and returns to it when the plugin stops. */
export const initialChatState = () => ({
  status: 'off' as ChatStatus,
  /** Own bare JID once connected. */
  me: '',
  own: 'available' as PresenceState,
  ownText: '',
  /** Telephony: the user is on a call (an available user then publishes the text 'on call'). */
  onCall: false,
  /** The meetings plugin: this window is in a meeting's media (its presence then says In Meeting). */
  inMeeting: false,
  presence: {} as Record<string, PeerPresence>,
  contacts: [] as ChatContact[],
  sessions: {} as Record<string, ChatSessionState>,
  /** The conversation on screen, whose new messages count as read while the window has focus. */
  open: null as string | null,
  /** Pinned, recent and closed chats (each in one), kept with the read positions for every device. */
  rosterGroups: emptyRosterGroups() as RosterGroups,
  /** Sessions destroyed while this page is open, and why (the screen says so instead of a blank). */
  ended: {} as Record<string, DestroyReason>,
  /** The conversation whose message box takes the focus once it is on screen ("Message ▸ Bob"). */
  focusComposer: null as string | null,
});

/** Live chat state: the engine writes it; the screens, badge, palette and commands read it. */
export const chat = proxy(initialChatState());

export function resetChat(): void {
  Object.assign(chat, initialChatState());
}

/** Unread messages in sessions that are not muted: the navigation badge (and so the document title). */
export function useUnread(): number {
  const s = useSnapshot(chat).sessions;
  let n = 0;
  for (const k in s) if (!s[k]!.muted) n += s[k]!.unread;
  return n;
}

/** The id of the open conversation's message input (focused by the `focusInput` command). */
export const MESSAGE_INPUT_ID = 'chat-message-input';
/** Window event the palette sends the open conversation's message box: open the emoji picker or the file chooser. */
export const COMPOSE_EVENT = 'uc:chat-compose';
export type ComposeAction = 'emoji' | 'attach';

export const CHAT_PATH = '/chat';
/** `room/` redirects here: the room editor with id new, type muc. */
export const ROOM_PATH = '/room';
export const ROOM_NEW_PATH = `${ROOM_PATH}/new`;
export const roomPath = (jid: string) => `${ROOM_PATH}/${encodeURIComponent(jid)}`;
export const chatPath = (jid: string) => `${CHAT_PATH}/${encodeURIComponent(jid)}`;

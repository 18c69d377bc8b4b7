import { proxy } from 'valtio';
import type { PresenceState } from '../../kernel/pluginServices';
import type { ChatContact } from '../../wire/services';
import type { ChatMessage, ComposingState, HistoryStatus } from './model/chat';

/**
 * `off` until the chat engine has started (it loads after the first screen), `disabled` for a user
 * without chat (the limited-access role), `authfail` after the server refused the login.
 */
export type ChatStatus = 'off' | 'disabled' | 'connecting' | 'connected' | 'disconnected' | 'authfail';

export interface PeerPresence {
  state: PresenceState;
  text: string;
}

export interface ChatSessionState {
  jid: string;
  type: 'chat';
  name: string;
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
  phase: 'created' | 'initialised' | 'hydrated' | 'destroyed';
}

/** Live chat state: the engine writes it; the screens, badge, palette and commands read it. */
export const chat = proxy({
  status: 'off' as ChatStatus,
  /** Own bare JID once connected. */
  me: '',
  own: 'available' as PresenceState,
  ownText: '',
  /** Telephony: the user is on a call (an available user then publishes the text 'on call'). */
  onCall: false,
  presence: {} as Record<string, PeerPresence>,
  contacts: [] as ChatContact[],
  sessions: {} as Record<string, ChatSessionState>,
  /** The conversation on screen, whose new messages count as read while the window has focus. */
  open: null as string | null,
});

export function resetChat(): void {
  chat.status = 'off';
  chat.me = '';
  chat.own = 'available';
  chat.ownText = '';
  chat.onCall = false;
  chat.presence = {};
  chat.contacts = [];
  chat.sessions = {};
  chat.open = null;
}

export const CHAT_PATH = '/chat';
export const chatPath = (jid: string) => `${CHAT_PATH}/${encodeURIComponent(jid)}`;

import { serviceKey, type Disposable } from '../kernel';

export interface MessagingService {
  /** Opens (or starts) the one-to-one chat with an organisation user. */
  openChat(userId: number): void;
  /** Starts a new text (SMS) conversation with a number. */
  newText(number: string): void;
}
export const MessagingApi = serviceKey<MessagingService>('messaging.api');

/** The user's own presence states (specification); the wire values are chat, away, xa and dnd. */
export type PresenceState = 'available' | 'away' | 'busy' | 'invisible' | 'lunch' | 'custom' | 'unavailable' | 'donotdisturb';
export interface PresenceService {
  /** The signed-in user's own presence now (telephony rejects incoming calls in do-not-disturb). */
  ownState(): PresenceState;
  /**
   * Telephony says when the user is on a call: an available user is then shown as available with
   * the text 'on call'. Any end of the call — answered, cancelled (487) or failed — resets it.
   */
  setOnCall(onCall: boolean): void;
  /**
   * Meetings say when this window is in a meeting's media: its presence is then In Meeting for
   * colleagues, and the user's own state again once it leaves (or the window closes).
   */
  setInMeeting(inMeeting: boolean): void;
}
/** Owned by messaging (presence); read by telephony. */
export const PresenceApi = serviceKey<PresenceService>('messaging.presence');

/** The newest message of one conversation (chat, group or text), for a feed of what came in. */
export interface RecentMessage {
  /** The conversation's address (bare JID). */
  conversation: string;
  /** The person or group the conversation is with. */
  name: string;
  /** Who wrote the message (the other side's name, or null when it was the user's own). */
  from: string | null;
  /** Its words, or the attached file's name. */
  text: string;
  /** ms since the epoch. */
  at: number;
  /** Where the conversation lives (the chat or texts screen). */
  path: string;
}
export interface RecentMessagesService {
  /** The newest message of each conversation the chat engine holds, newest first, at most `limit`. */
  recent(limit: number): RecentMessage[];
  /** Told whenever a conversation changes (a message in, history read). */
  onChange(listener: () => void): Disposable;
}
export const RecentMessagesApi = serviceKey<RecentMessagesService>('messaging.recent');

/** A colleague's presence as chat knows it, worded by messaging in the user's language (or their custom text). */
export interface PeerPresence {
  state: PresenceState;
  label: string;
}
export interface PeerPresenceService {
  /** The colleague's presence (by user id), or null when chat has not heard of it (offline, not connected yet). */
  of(userId: number): PeerPresence | null;
  /** Told when presences change. */
  onChange(listener: () => void): Disposable;
}
export const PeerPresenceApi = serviceKey<PeerPresenceService>('messaging.peerPresence');

/** An element of another plugin's own namespace carried by a chat message (its fields as attributes). */
export interface ChatPayload {
  ns: string;
  name: string;
  attrs: Readonly<Record<string, string>>;
}
/** A payload that came in a one-to-one chat: live, from the archive, or our own from another device. */
export interface ChatPayloadEvent {
  payload: ChatPayload;
  /** The colleague the conversation is with (user id), or null when chat does not know them. */
  peerUserId: number | null;
  peerName: string;
  /** Sent by the user (this tab or another device). */
  mine: boolean;
  /** The chat message's id. */
  messageId: string;
  /** Received now (not read from the archive). */
  live: boolean;
}
export interface ChatPayloadsService {
  /**
   * Sends a chat message to a colleague carrying the payload and a readable body (what other XMPP
   * clients show, and this app's log too). Resolves with the message id, or null when chat is not
   * connected or does not know the colleague.
   */
  send(userId: number, body: string, payload: ChatPayload): Promise<string | null>;
  /** Told of every message carrying a payload of this namespace. */
  subscribe(ns: string, listener: (e: ChatPayloadEvent) => void): Disposable;
}
/** Owned by messaging; the meetings' ad-hoc invites travel through it. */
export const ChatPayloadsApi = serviceKey<ChatPayloadsService>('messaging.payloads');

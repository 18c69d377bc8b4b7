/** Chat rules that need no connection: ids, kinds, statuses, lists, unread. */
import type { ChatPayload } from '../../../contracts';
import type { ChatMedia } from './media';

/** Every message id this client makes starts with this (specification). */
export const MESSAGE_ID_PREFIX = 'ucc-V1';

export function newMessageId(random: () => string = () => Math.random().toString(36).slice(2, 10)): string {
  return `${MESSAGE_ID_PREFIX}-${Date.now().toString(36)}-${random()}`;
}

/** Delivery states: failed, delivered (the server has it), received (the peer's client has it), cancel. */
export type MessageStatus = 'failed' | 'delivered' | 'received' | 'cancel';

/** Chat states (XEP-0085) both ways. */
export const COMPOSING_STATES = ['active', 'inactive', 'gone', 'composing', 'paused'] as const;
export type ComposingState = (typeof COMPOSING_STATES)[number];
export const isComposingState = (v: string): v is ComposingState => (COMPOSING_STATES as readonly string[]).includes(v);

export interface ChatMessage {
  id: string;
  /** The archive id (MAM / stanza-id), when known. */
  stanzaId: string | null;
  /** Bare JID of the author. */
  from: string;
  body: string;
  /** ms since the epoch. */
  timestamp: number;
  /** Arrived late (offline storage or a delay stamp). */
  delayed: boolean;
  /** Read from the archive rather than received live. */
  archived: boolean;
  mine: boolean;
  /** Our own messages only. */
  status: MessageStatus | null;
  /** A file shown as image, video or download link (the body then holds its URL, for other clients). */
  media?: ChatMedia | null;
  /**
   * Another plugin's element the message carries (an ad-hoc invite: the specification's
   * isAdHocInvite); the body is then its readable text, what other clients show.
   */
  payload?: ChatPayload | null;
}

export { messagePreview, visibleBody } from './preview';

export interface HistoryStatus {
  /** RSM ids of the oldest and newest archived messages loaded. */
  first: string | null;
  last: string | null;
  /** How many the archive holds for this conversation. */
  count: number | null;
  /** Nothing older is left on the server. */
  complete: boolean;
  pending: boolean;
}

export const emptyHistory = (): HistoryStatus => ({ first: null, last: null, count: null, complete: false, pending: false });

/** Session kinds on the wire and as the UI calls them. */
export type SessionType = 'chat' | 'groupchat' | 'sms' | 'mms';
export type SessionUiKind = 'chat' | 'gchat' | 'sms' | 'gsms';

/** Address prefixes: `c.` SMS conversation, `t.` text group, `v.` meeting, otherwise a user. */
export type AddressKind = 'sms' | 'textGroup' | 'meeting' | 'user';
export function addressKind(jid: string): AddressKind {
  if (jid.startsWith('c.')) return 'sms';
  if (jid.startsWith('t.')) return 'textGroup';
  if (jid.startsWith('v.')) return 'meeting';
  return 'user';
}

/** Group when more than 2 members. */
export function uiKind(type: SessionType, members: number): SessionUiKind {
  const group = members > 2;
  if (type === 'sms' || type === 'mms') return group ? 'gsms' : 'sms';
  return type === 'groupchat' || group ? 'gchat' : 'chat';
}

export interface SessionSummary {
  jid: string;
  name: string;
  /** Member names (and numbers for SMS), matched by the search. */
  members: readonly string[];
  subject?: string;
  unread: number;
  muted: boolean;
  lastActivity: number;
}

export type SessionGroup = 'all' | 'unread' | 'muted';

/** The messages bar: sub-group all/unread/muted, then a search on subject or member names; newest first. */
export function filterSessions<T extends SessionSummary>(sessions: readonly T[], group: SessionGroup, term: string): T[] {
  const q = term.trim().toLowerCase();
  return sessions
    .filter((s) => (group === 'unread' ? s.unread > 0 : group === 'muted' ? s.muted : true))
    .filter((s) => !q || [s.subject ?? '', s.name, ...s.members].some((m) => m.toLowerCase().includes(q)))
    .sort((a, b) => b.lastActivity - a.lastActivity || a.name.localeCompare(b.name));
}

/** Unread: messages of others newer than the read position. */
export function unreadCount(messages: readonly Pick<ChatMessage, 'mine' | 'timestamp'>[], readPosition: number): number {
  let n = 0;
  for (const m of messages) if (!m.mine && m.timestamp > readPosition) n++;
  return n;
}

/** The navigation badge and the title: every unread message except in muted sessions. */
export function totalUnread(sessions: readonly Pick<SessionSummary, 'unread' | 'muted'>[]): number {
  return sessions.reduce((n, s) => n + (s.muted ? 0 : s.unread), 0);
}

/** A receipt never moves a status backwards (received beats delivered; failed only before either). */
export function nextStatus(current: MessageStatus | null, incoming: MessageStatus): MessageStatus {
  const rank: Record<MessageStatus, number> = { cancel: 0, failed: 1, delivered: 2, received: 3 };
  if (current === null) return incoming;
  if (incoming === 'failed') return current === 'delivered' || current === 'received' ? current : 'failed';
  return rank[incoming] >= rank[current] ? incoming : current;
}

/** Chat sends trimmed text; an empty message is not sent. */
export function chatBody(input: string): string | null {
  const t = input.trim();
  return t ? t : null;
}

/**
 * Inserts messages in time order, dropping ones already present (same id or archive id): a message
 * can arrive live, again from offline storage and again from the archive after a reconnect.
 */
export function mergeMessages(existing: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  const out = existing.slice();
  const ids = new Set(out.map((m) => m.id));
  const sids = new Set(out.flatMap((m) => (m.stanzaId ? [m.stanzaId] : [])));
  for (const m of incoming) {
    if (ids.has(m.id) || (m.stanzaId && sids.has(m.stanzaId))) {
      // Learn the archive id of a message we already had.
      if (m.stanzaId) {
        const known = out.find((x) => x.id === m.id && !x.stanzaId);
        if (known) {
          const i = out.indexOf(known);
          out[i] = { ...known, stanzaId: m.stanzaId };
          sids.add(m.stanzaId);
        }
      }
      continue;
    }
    ids.add(m.id);
    if (m.stanzaId) sids.add(m.stanzaId);
    out.push(m);
  }
  return out.sort((a, b) => a.timestamp - b.timestamp);
}

/** Local chat state while typing: composing, paused after 5 s without a keystroke (XEP-0085). */
export const PAUSED_AFTER_MS = 5000;

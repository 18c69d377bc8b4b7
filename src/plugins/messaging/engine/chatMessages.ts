import { newMessageId, type ChatMessage } from '../model/chat';
import { chat } from '../state';
import type { RoomMessage } from './mucStanzas';
import type { ParsedMessage } from './stanzas';

/** A 1:1 message as the conversation shows it, live or from the archive. */
export function toChatMessage(m: ParsedMessage, mine: boolean, archived: boolean): ChatMessage {
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
    payload: m.payload,
  };
}

/** A group's message as the conversation shows it, live or from the room's archive. */
export function roomChatMessage(m: RoomMessage, archived: boolean): ChatMessage {
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

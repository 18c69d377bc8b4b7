import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../model/chat';
import { realClock } from '../model/presence';
import { chat, resetChat } from '../state';
import type { Connection } from './connection';
import { Outbox } from './outbox';
import { SavedState } from './savedState';
import { Sessions } from './sessions';

const BOB = 'bob@uc.local';
const msg = (id: string, timestamp: number, stanzaId: string | null = null): ChatMessage => ({ id, stanzaId, from: BOB, body: id, timestamp, delayed: false, archived: false, mine: false, status: null, media: null });

afterEach(resetChat);

describe("a conversation's messages", () => {
  it('take a live message after the newest in place (the same array), and anything else merged in order, once', () => {
    const sessions = new Sessions(new SavedState({} as Connection, realClock), new Outbox(realClock, null, 'test'), { archived: () => undefined, ended: () => undefined });
    const s = sessions.session(BOB);
    sessions.addMessages(s, [msg('b', 20), msg('a', 10)]);
    const array = s.messages;

    sessions.addMessages(s, [msg('c', 30, 'arch-c')]);
    expect(s.messages, 'appended, not a new array valtio wraps again').toBe(array);
    expect(chat.sessions[BOB]!.messages.map((m) => m.id)).toEqual(['a', 'b', 'c']);

    // Already there (by id, or by archive id from another client's copy): not twice.
    sessions.addMessages(s, [msg('c', 30)]);
    sessions.addMessages(s, [msg('c-copy', 31, 'arch-c')]);
    // An older page from the archive: in its place.
    sessions.addMessages(s, [msg('0', 5)]);
    expect(s.messages.map((m) => m.id)).toEqual(['0', 'a', 'b', 'c']);
  });
});

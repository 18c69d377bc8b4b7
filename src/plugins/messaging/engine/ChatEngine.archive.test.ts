import { describe, expect, it } from 'vitest';
import { chat } from '../state';
import { ChatEngine } from './ChatEngine';
import { FakeConnection, room, ROOM2, roomEngineTests, roomsApi } from './testRooms';

/*
 * History pages from a room's archive (MAM), with the scripted connection of testRooms.ts and
 * its 30 archived messages in one group.
 */

let rooms: ReturnType<typeof room>[];
let conn: FakeConnection;
let engine: ChatEngine;
const api = roomsApi(() => rooms);

roomEngineTests({ api, conn: () => conn }, (t) => ({ rooms = rooms, conn = conn, engine = engine } = t));

describe('group sessions', () => {
  it('page history by 25 from the room archive with historyStatus first/last/count/complete/pending', async () => {
    const s = chat.sessions[ROOM2]!;
    expect(s.messages.map((m) => m.body)).toEqual(Array.from({ length: 25 }, (_, i) => `old ${i + 5}`));
    expect(s.history).toEqual({ first: '105', last: '129', count: 30, complete: false, pending: false });
    const older = engine.loadOlder(ROOM2);
    expect(s.history.pending).toBe(true);
    await older;
    expect(s.messages).toHaveLength(30);
    expect(s.messages[0]!.body).toBe('old 0');
    expect(s.history).toEqual({ first: '100', last: '129', count: 30, complete: true, pending: false });
    // Authors come from the room nickname; all of them unread until read.
    expect(s.messages.every((m) => m.from === 'bob@uc.local' && !m.mine)).toBe(true);
    expect(s.unread).toBe(30);
    engine.markRead(ROOM2);
    expect(s.unread).toBe(0);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chat, resetChat } from '../state';
import { ChatEngine } from './ChatEngine';
import { testEngineDeps } from './testEngineDeps';
import { connected, FakeConnection, room, ROOM, ROOM2, roomsApi } from './testRooms';

/*
 * Roster groups of a group session (pinned, recent, closed), with the scripted connection of
 * testRooms.ts.
 */

let rooms: ReturnType<typeof room>[];
let conn: FakeConnection;
let engine: ChatEngine;
const api = roomsApi(() => rooms);

beforeEach(async () => {
  resetChat();
  rooms = [room(ROOM, 'Launch'), room(ROOM2, 'Ops')];
  conn = new FakeConnection();
  // Ops has 30 archived messages: a newest page of 25, then 5 older.
  conn.archive[ROOM2] = Array.from({ length: 30 }, (_, i) => ({ id: String(100 + i), body: `old ${i}` }));
  engine = new ChatEngine(
    testEngineDeps({
      api: api as never,
      createConnection: () => conn as never,
    }),
  );
  engine.start();
  await connected();
});

afterEach(() => engine.dispose());

describe('group sessions', () => {
  it('move between roster groups (pin, recent, closed), one at a time; a closed group comes back with a new message', () => {
    engine.setRosterGroup(ROOM, 'pin');
    engine.setRosterGroup(ROOM, 'closed');
    expect(chat.rosterGroups).toMatchObject({ pin: [], closed: [ROOM] });
    conn.receive(
      `<message xmlns="jabber:client" from="${ROOM}"><event xmlns="http://jabber.org/protocol/pubsub#event"><items node="urn:xmpp:mucsub:nodes:messages"><item><message xmlns="jabber:client" from="${ROOM}/carol" type="groupchat" id="m2"><body>back</body></message></item></items></event></message>`,
    );
    expect(chat.rosterGroups).toMatchObject({ recent: [ROOM], closed: [] });
  });
});

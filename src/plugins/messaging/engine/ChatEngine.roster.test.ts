import { describe, expect, it } from 'vitest';
import { chat } from '../state';
import { ChatEngine } from './ChatEngine';
import { FakeConnection, room, ROOM, roomEngineTests, roomsApi } from './testRooms';

/*
 * Roster groups of a group session (pinned, recent, closed), with the scripted connection of
 * testRooms.ts.
 */

let rooms: ReturnType<typeof room>[];
let conn: FakeConnection;
let engine: ChatEngine;
const api = roomsApi(() => rooms);

roomEngineTests({ api, conn: () => conn }, (t) => ({ rooms = rooms, conn = conn, engine = engine } = t));

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

import { describe, expect, it, vi } from 'vitest';
import { chat } from '../state';
import { ChatEngine } from './ChatEngine';
import { connected, FakeConnection, room, ROOM, ROOM2, roomEngineTests, roomsApi } from './testRooms';

/*
 * The group-session lifecycle through the engine, with a scripted stand-in for the Strophe
 * connection (testRooms.ts; the real ejabberd is exercised by tests/services and e2e/group-chat.spec.ts).
 */

let rooms: ReturnType<typeof room>[];
let conn: FakeConnection;
let engine: ChatEngine;
/** What the engine asked to announce, notify and chime for. */
let announced: Array<[string, string, string]>;
const api = roomsApi(() => rooms);

roomEngineTests({ api, conn: () => conn }, (t) => ({ rooms = rooms, conn = conn, engine = engine } = t), () => {
  announced = [];
  return { announceNew: (from, body, jid) => announced.push([from, body, jid]) };
});

describe('group sessions', () => {
  it('are created from the API list, hydrated with the newest page, members with role and affiliation', () => {
    const s = chat.sessions[ROOM]!;
    expect(s).toMatchObject({ type: 'groupchat', name: 'Launch', subject: 'Launch', phase: 'hydrated' });
    expect(s.history.complete).toBe(true);
    expect(s.members.map((m) => `${m.name}:${m.affiliation}:${m.role}`)).toEqual(['Alice Nguyen:owner:moderator', 'Bob Martinez:owner:moderator', 'Carol Okafor:owner:moderator']);
  });

  it('take room messages (MucSub) with their author, count them unread and mark our own Received when the room sends them back', () => {
    conn.receive(
      `<message xmlns="jabber:client" from="${ROOM}" to="alice@uc.local"><event xmlns="http://jabber.org/protocol/pubsub#event"><items node="urn:xmpp:mucsub:nodes:messages"><item><message xmlns="jabber:client" from="${ROOM}/bob" type="groupchat" id="m1"><body>hi</body><stanza-id xmlns="urn:xmpp:sid:0" by="${ROOM}" id="17"/></message></item></items></event></message>`,
    );
    const s = chat.sessions[ROOM]!;
    expect(s.messages.map((m) => [m.from, m.body, m.mine])).toEqual([['bob@uc.local', 'hi', false]]);
    expect(s.unread).toBe(1);
    engine.send(ROOM, 'hello');
    const out = conn.sent.at(-1)!;
    expect(out.getAttribute('type')).toBe('groupchat');
    const id = out.getAttribute('id')!;
    conn.receive(
      `<message xmlns="jabber:client" from="${ROOM}"><event xmlns="http://jabber.org/protocol/pubsub#event"><items node="urn:xmpp:mucsub:nodes:messages"><item><message xmlns="jabber:client" from="${ROOM}/alice" type="groupchat" id="${id}"><body>hello</body></message></item></items></event></message>`,
    );
    expect(s.messages.filter((m) => m.mine).map((m) => m.status)).toEqual(['received']);
    expect(s.unread).toBe(1);
  });

  it('alert (announce, desktop notification, sound) for a new message in a group not on screen, with the group to open; not when muted or on screen', () => {
    const say = (id: string, body: string) =>
      conn.receive(
        `<message xmlns="jabber:client" from="${ROOM}" to="alice@uc.local"><event xmlns="http://jabber.org/protocol/pubsub#event"><items node="urn:xmpp:mucsub:nodes:messages"><item><message xmlns="jabber:client" from="${ROOM}/bob" type="groupchat" id="${id}"><body>${body}</body></message></item></items></event></message>`,
      );
    say('n1', 'standup moved');
    say('n1', 'standup moved');
    expect(announced).toEqual([['Bob Martinez (Launch)', 'standup moved', ROOM]]);
    engine.setMuted(ROOM, true);
    say('n2', 'muted');
    engine.setMuted(ROOM, false);
    // On screen in a tab in front: nothing; the same conversation in a hidden tab: alerted.
    chat.open = ROOM;
    vi.stubGlobal('document', { visibilityState: 'visible' });
    say('n3', 'on screen');
    vi.stubGlobal('document', { visibilityState: 'hidden' });
    say('n4', 'tab hidden');
    vi.unstubAllGlobals();
    expect(announced.map((a) => a[1])).toEqual(['standup moved', 'tab hidden']);
  });

  it('are destroyed when the group leaves the API list (removed: affiliation none), and the screen can say why', async () => {
    engine.setRosterGroup(ROOM, 'pin');
    rooms = [room(ROOM2, 'Ops')];
    conn.receive(`<message xmlns="jabber:client" from="uc.local" to="alice@uc.local" type="headline"><subject>urn:uc:rooms:0</subject><body>{"room":"${ROOM}"}</body></message>`);
    await vi.waitFor(() => expect(chat.sessions[ROOM]).toBeUndefined());
    expect(chat.ended[ROOM]).toBe('affiliationNone');
    expect(chat.rosterGroups.pin).not.toContain(ROOM);
    expect(chat.sessions[ROOM2]).toBeDefined();
  });

  it('are destroyed when the room refuses a message (access denied)', () => {
    engine.send(ROOM, 'anyone?');
    const id = conn.sent.at(-1)!.getAttribute('id')!;
    conn.receive(`<message xmlns="jabber:client" from="${ROOM}" type="error" id="${id}"><error type="auth"><forbidden xmlns="urn:ietf:params:xml:ns:xmpp-stanzas"/></error></message>`);
    expect(chat.sessions[ROOM]).toBeUndefined();
    expect(chat.ended[ROOM]).toBe('accessDenied');
  });

  it('end when the user leaves the group (the API is asked first)', async () => {
    expect(await engine.sessionAction('leave', ROOM)).toBe(true);
    expect(api.delete).toHaveBeenCalledWith(`/v1/chat/rooms/${encodeURIComponent(ROOM)}/members/me`);
    expect(chat.ended[ROOM]).toBe('left');
  });

  it('are re-hydrated after a reconnect (initialised, then hydrated again)', async () => {
    const s = chat.sessions[ROOM]!;
    conn.drop();
    expect(chat.status).toBe('disconnected');
    // What phase the session is in when its room archive is asked again.
    const phases: string[] = [];
    const next = new FakeConnection();
    next.refuse = (iq) => {
      if (iq.getAttribute('to') === ROOM) phases.push(chat.sessions[ROOM]!.phase);
      return null;
    };
    conn = next;
    engine.reconnect();
    await connected();
    expect(phases).toEqual(['initialised']);
    expect(s.phase).toBe('hydrated');
  });

  it('read the groups once for a burst of notices, and once more for a notice during that read', async () => {
    const reads = () => api.get.mock.calls.filter(([p]) => p === '/v1/chat/rooms').length;
    const before = reads();
    const notice = `<message xmlns="jabber:client" from="uc.local" to="alice@uc.local" type="headline"><subject>urn:uc:rooms:0</subject><body>{}</body></message>`;
    for (let i = 0; i < 5; i++) conn.receive(notice);
    rooms = [room(ROOM, 'Launch, renamed')];
    await vi.waitFor(() => expect(chat.sessions[ROOM]?.name).toBe('Launch, renamed'));
    await vi.waitFor(() => expect(chat.sessions[ROOM2]).toBeUndefined());
    expect(reads() - before).toBe(2);
  });
});

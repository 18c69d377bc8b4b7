import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiErrorBody } from '../../src/wire/common';
import { ContactPageWire as ContactPage, ContactWire } from '../../src/wire/contacts';
import { Lobby, LOBBY_PRESENCE_TTL_MS, Meeting, MEETING_ERRORS, MeetingInfo, RoomsResponse } from '../../src/wire/meetings';
import { backends, bearer, startTestServer, type TestServer } from './helpers';

const MIN = 60_000;
const iso = (t: number) => new Date(t).toISOString();

/*
 * The meeting window's lobby and the contacts' "in a meeting". The clock is the real one (moved
 * forward only where a test says so): "in a meeting" is the database's now, as the contacts list
 * reads it, and the lobby's places must agree with it.
 */
describe.each(backends)('meeting lobby presence ($name)', (backend) => {
  let t: TestServer;
  let shift = 0;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const USERS = ['alice', 'bob', 'carol', 'rita'] as const;
  type Who = (typeof USERS)[number];

  beforeAll(async () => {
    t = await startTestServer(backend, { app: { settings: { meetingUrl: 'https://meet.acme.example' }, meetings: { now: () => Date.now() + shift, chat: null } } });
    for (const u of USERS) {
      tokens[u] = await t.login(u);
      ids[u] = await t.userId(u);
    }
  });
  afterAll(async () => t?.close());
  beforeEach(() => void (shift = 0));

  const call = (who: Who, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(tokens[who]!), ...(payload !== undefined ? { payload: payload as object } : {}) });
  const errorOf = (res: { statusCode: number; json(): unknown }) => ({ status: res.statusCode, message: ApiErrorBody.parse(res.json()).message });
  const create = async (over: Record<string, unknown> = {}) => {
    const now = Date.now();
    const res = await call('alice', 'POST', '/v1/meetings', { meeting_name: 'Lobby test', start: iso(now + 5 * MIN), end: iso(now + 65 * MIN), time_zone: 'Europe/Paris', ...over });
    expect(res.statusCode, res.body).toBe(201);
    return Meeting.parse(res.json());
  };
  const enter = (who: Who, id: number, body: Record<string, unknown> = {}) => call(who, 'POST', `/v1/meetings/${id}/presence`, { client_id: `${who}-window`, ...body });
  const names = (l: Lobby) => l.occupants.map((o) => o.name);
  const inMeeting = async (who: Who) => {
    const page = ContactPage.parse((await call(who, 'GET', '/v1/contacts?group=meeting&limit=500')).json());
    return page.items.map((c) => c.name);
  };

  it('a window takes its place in the lobby: others see it appear and leave, with its state; the contacts list colleagues in a meeting', async () => {
    const m = await create({ invitees: [{ user_id: ids.bob! }] });
    expect(await inMeeting('carol')).not.toContain('Alice Nguyen');

    const first = Lobby.parse((await enter('alice', m.id)).json());
    expect(first.occupants).toEqual([{ user_id: ids.alice, name: 'Alice Nguyen', state: null, is_self: true }]);
    const both = Lobby.parse((await enter('bob', m.id, { state: 'away' })).json());
    expect(both.occupants).toContainEqual({ user_id: ids.bob, name: expect.any(String), state: 'away', is_self: true });
    expect(Lobby.parse((await call('alice', 'GET', `/v1/meetings/${m.id}/presence`)).json()).occupants.map((o) => o.user_id).sort()).toEqual([ids.alice, ids.bob].sort());

    // The contacts' meeting group and the contact itself say so, to any colleague.
    const listed = await inMeeting('carol');
    expect(listed).toContain('Alice Nguyen');
    expect(listed).not.toContain('Carol Smith');
    expect(ContactWire.parse((await call('carol', 'GET', `/v1/contacts/u${ids.alice}`)).json()).in_meeting).toBe(true);
    expect(ContactWire.parse((await call('carol', 'GET', `/v1/contacts/u${ids.carol}`)).json()).in_meeting).toBe(false);

    // A heartbeat keeps one place; leaving gives it up.
    expect(names(Lobby.parse((await enter('bob', m.id, { state: 'dnd' })).json()))).toHaveLength(2);
    expect((await call('bob', 'DELETE', `/v1/meetings/${m.id}/presence/bob-window`)).statusCode).toBe(204);
    expect(Lobby.parse((await call('alice', 'GET', `/v1/meetings/${m.id}/presence`)).json()).occupants.map((o) => o.user_id)).toEqual([ids.alice]);
    const bobName = both.occupants.find((o) => o.user_id === ids.bob)!.name;
    expect(listed).toContain(bobName);
    expect(await inMeeting('carol')).toEqual(expect.arrayContaining(['Alice Nguyen']));
    expect(await inMeeting('carol')).not.toContain(bobName);
    // Who is in is for those who came in.
    expect(errorOf(await call('bob', 'GET', `/v1/meetings/${m.id}/presence`))).toEqual({ status: 403, message: MEETING_ERRORS.notInLobby });
    await call('alice', 'DELETE', `/v1/meetings/${m.id}/presence/alice-window`);
    expect(await inMeeting('carol')).not.toContain('Alice Nguyen');
  });

  it('a window not renewed within the TTL lapses (a closed or crashed window)', async () => {
    const m = await create();
    await enter('alice', m.id);
    await enter('carol', m.id);
    shift = LOBBY_PRESENCE_TTL_MS - 1000;
    await enter('alice', m.id);
    shift = LOBBY_PRESENCE_TTL_MS + 1000;
    expect(Lobby.parse((await call('alice', 'GET', `/v1/meetings/${m.id}/presence`)).json()).occupants.map((o) => o.user_id)).toEqual([ids.alice]);
    shift = 2 * LOBBY_PRESENCE_TTL_MS + 1000;
    expect((await call('alice', 'GET', `/v1/meetings/${m.id}/presence`)).statusCode).toBe(403);
  });

  it('the join window and the PIN as the join popup: too early, ended, a wrong PIN refused, the booker and invitees without one', async () => {
    const later = await create({ start: iso(Date.now() + 60 * MIN), end: iso(Date.now() + 90 * MIN) });
    expect(errorOf(await enter('alice', later.id))).toEqual({ status: 403, message: MEETING_ERRORS.joinTooEarly });
    const m = await create({ pin: '2468', invitees: [{ user_id: ids.bob! }] });
    expect(errorOf(await enter('carol', m.id))).toEqual({ status: 403, message: MEETING_ERRORS.wrongPin });
    expect(errorOf(await enter('carol', m.id, { pin: '1111' }))).toEqual({ status: 403, message: MEETING_ERRORS.wrongPin });
    expect((await enter('bob', m.id)).statusCode).toBe(200);
    expect((await enter('alice', m.id)).statusCode).toBe(200);
    expect((await enter('carol', m.id, { pin: '2468' })).statusCode).toBe(200);
    // Once in, the heartbeat needs no PIN again.
    expect((await enter('carol', m.id)).statusCode).toBe(200);
    // The lobby's Meeting info: whether this caller is asked for the PIN, and the occurrence's time.
    const info = (who: Who) => call(who, 'GET', `/v1/meetings/by-slug/${m.slug}`).then((r) => MeetingInfo.parse(r.json()));
    expect(await info('carol')).toMatchObject({ needs_pin: true, has_pin: true, pin: null, start: m.start, end: m.end, time_zone: 'Europe/Paris' });
    expect(await info('bob')).toMatchObject({ needs_pin: false, pin: null });
    expect(await info('alice')).toMatchObject({ needs_pin: false, pin: '2468' });
    // Ended: refused, and no place outlives its occurrence.
    shift = Date.parse(m.end!) - Date.now();
    expect(errorOf(await enter('alice', m.id))).toEqual({ status: 410, message: MEETING_ERRORS.joinEnded });
    expect((await call('alice', 'GET', `/v1/meetings/${m.id}/presence`)).statusCode).toBe(403);
  });

  it("another organisation's meeting and room ids do not exist for the caller; bad ids and clients are refused", async () => {
    const m = await create();
    await enter('alice', m.id);
    const room = RoomsResponse.parse((await call('alice', 'GET', '/v1/rooms')).json()).rooms[0]!;
    for (const id of [m.id, room.id]) {
      expect((await enter('rita', id)).statusCode).toBe(404);
      expect((await call('rita', 'GET', `/v1/meetings/${id}/presence`)).statusCode).toBe(404);
      expect((await call('rita', 'DELETE', `/v1/meetings/${id}/presence/alice-window`)).statusCode).toBe(404);
    }
    // Rita's colleagues do not see Alice in a meeting, nor does Alice's leaving go through Rita.
    expect(await inMeeting('rita')).not.toContain('Alice Nguyen');
    expect(Lobby.parse((await call('alice', 'GET', `/v1/meetings/${m.id}/presence`)).json()).occupants).toHaveLength(1);
    // A room is open at any time.
    expect((await enter('carol', room.id)).statusCode).toBe(200);
    expect((await call('alice', 'POST', `/v1/meetings/${m.id}/presence`, { client_id: 'bad id!' })).statusCode).toBe(400);
    expect((await call('alice', 'POST', `/v1/meetings/${m.id}/presence`, { client_id: 'w', state: 'busy' })).statusCode).toBe(400);
    expect((await call('alice', 'POST', '/v1/meetings/0/presence', { client_id: 'w' })).statusCode).toBe(400);
    expect((await call('alice', 'POST', '/v1/meetings/999999/presence', { client_id: 'w' })).statusCode).toBe(404);
    await call('alice', 'DELETE', `/v1/meetings/${m.id}/presence/alice-window`);
    await call('carol', 'DELETE', `/v1/meetings/${room.id}/presence/carol-window`);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody } from '../../src/wire/common';
import { displayFor } from '../../src/wire/meetingDisplay';
import { GuestJoinResponse, Meeting, MeetingMedia, WaitingRoom } from '../../src/wire/meetings';
import type { MeetingRooms } from '../../server/meetings/janus-rooms';
import { backends, bearer, startTestServer, type TestServer } from './helpers';

// The videorooms without Janus: who is "in the room" is what the test says.
const inRoom = new Map<number, { id: number; display: string }[]>();
const rooms: MeetingRooms = {
  ensure: async (id) => ({ room: id, pin: 'room-pin' }),
  participants: async (id) => inRoom.get(id) ?? [],
  moderate: async () => undefined,
  kick: async () => undefined,
  destroy: async () => undefined,
  close: async () => undefined,
};

/*
 * The waiting room and "only moderators may start" (issue 22): whoever is not a host waits until
 * the host lets them in (colleagues come straight in with member bypass), and nobody comes into a
 * meeting only its host may start before the host is in it.
 */
describe.each(backends)('meeting waiting room ($name)', (backend) => {
  let t: TestServer;
  let alice = '';
  let bob = '';
  let aliceId = 0;
  let bobId = 0;
  beforeAll(async () => {
    t = await startTestServer(backend, { app: { settings: { meetingUrl: 'https://meet.acme.example' }, meetings: { chat: null, rooms } } });
    alice = await t.login('alice');
    bob = await t.login('bob');
    aliceId = await t.userId('alice');
    bobId = await t.userId('bob');
  });
  afterAll(async () => t?.close());

  const as = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });
  const errorOf = (res: { statusCode: number; json(): unknown }) => ({ status: res.statusCode, error: ApiErrorBody.parse(res.json()).error });
  const meeting = async (over: Record<string, unknown>) => {
    const res = await as(alice, 'POST', '/v1/meetings', { meeting_name: 'Waiting test', instant: true, ...over });
    expect(res.statusCode, res.body).toBe(201);
    return Meeting.parse(res.json());
  };
  const media = async (token: string, id: number) => {
    const entered = await as(token, 'POST', `/v1/meetings/${id}/presence`, { client_id: `c${Math.random()}`.replace(".", "") });
    expect(entered.statusCode, entered.body).toBe(200);
    return as(token, 'POST', `/v1/meetings/${id}/media`);
  };

  it('a colleague waits until the host admits them; denied, they stay out; only the host reads and answers the waiting room', async () => {
    const m = await meeting({ waiting_room: true });
    // The host comes straight in.
    expect((await media(alice, m.id)).statusCode).toBe(200);
    expect(errorOf(await media(bob, m.id))).toEqual({ status: 403, error: 'waiting' });
    const list = WaitingRoom.parse((await as(alice, 'GET', `/v1/meetings/${m.id}/media/waiting`)).json());
    expect(list.waiting).toEqual([{ occupant: bobId, name: 'Bob Martinez' }]);
    // Bob may not read or answer it.
    expect(errorOf(await as(bob, 'GET', `/v1/meetings/${m.id}/media/waiting`))).toEqual({ status: 403, error: 'not_host' });
    expect((await as(bob, 'POST', `/v1/meetings/${m.id}/media/admit`, { occupant: bobId, admit: true })).statusCode).toBe(403);
    // Odd input: 400, and someone not waiting: 404.
    for (const body of [{ occupant: 0, admit: true }, { occupant: 'x', admit: true }, { occupant: 2 ** 40, admit: true }, { occupant: bobId }]) {
      expect((await as(alice, 'POST', `/v1/meetings/${m.id}/media/admit`, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await as(alice, 'POST', `/v1/meetings/${m.id}/media/admit`, { occupant: aliceId, admit: true })).statusCode).toBe(404);

    expect((await as(alice, 'POST', `/v1/meetings/${m.id}/media/admit`, { occupant: bobId, admit: true })).statusCode).toBe(204);
    expect(MeetingMedia.parse((await media(bob, m.id)).json()).is_host).toBe(false);
    expect(WaitingRoom.parse((await as(alice, 'GET', `/v1/meetings/${m.id}/media/waiting`)).json()).waiting).toEqual([]);

    const other = await meeting({ waiting_room: true });
    await media(alice, other.id);
    await media(bob, other.id);
    expect((await as(alice, 'POST', `/v1/meetings/${other.id}/media/admit`, { occupant: bobId, admit: false })).statusCode).toBe(204);
    expect(errorOf(await media(bob, other.id))).toEqual({ status: 403, error: 'denied' });
  });

  it('only moderators may start: nobody comes in before a host is in the room', async () => {
    const m = await meeting({ only_mods: true });
    expect(errorOf(await media(bob, m.id))).toEqual({ status: 403, error: 'waiting_for_host' });
    // Someone else in the room is no host.
    inRoom.set(m.id, [{ id: 1, display: displayFor({ name: 'Bob Martinez', userId: bobId, kind: 'camera' }) }]);
    expect(errorOf(await media(bob, m.id))).toEqual({ status: 403, error: 'waiting_for_host' });
    inRoom.set(m.id, [{ id: 2, display: displayFor({ name: 'Alice Nguyen', userId: aliceId, kind: 'camera' }) }]);
    expect((await media(bob, m.id)).statusCode).toBe(200);
  });

  it('with member bypass, colleagues come straight in and a guest waits', async () => {
    const m = await meeting({ waiting_room: true, member_bypass: true });
    expect((await media(alice, m.id)).statusCode).toBe(200);
    expect((await media(bob, m.id)).statusCode).toBe(200);
    const g = GuestJoinResponse.parse((await t.app.inject({ method: 'POST', url: '/v1/meetings/guest', remoteAddress: '198.51.100.77', payload: { meeting: m.meeting_access_code, email: 'g@example.org', name: 'Gail Guest' } })).json());
    expect(errorOf(await media(g.access_token, m.id))).toEqual({ status: 403, error: 'waiting' });
    expect(WaitingRoom.parse((await as(alice, 'GET', `/v1/meetings/${m.id}/media/waiting`)).json()).waiting).toEqual([{ occupant: expect.any(Number), name: 'Gail Guest' }]);
  });
});

import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JWT_GUEST_PREFIX } from '../../src/wire/auth';
import { ApiErrorBody } from '../../src/wire/common';
import { GuestJoinResponse, Lobby, Meeting, MEETING_ERRORS, MeetingInfo, MeetingMedia } from '../../src/wire/meetings';
import type { MeetingRooms } from '../../server/meetings/janus-rooms';
import { backends, bearer, startTestServer, type TestServer } from './helpers';

const MIN = 60_000;
const iso = (t: number) => new Date(t).toISOString();

// The media route's videorooms without Janus (the services tests drive the real one).
const rooms: MeetingRooms = { ensure: async (id) => ({ room: id, pin: 'room-pin' }), moderate: async () => undefined, participants: async () => [], kick: async () => undefined, destroy: async () => undefined, close: async () => undefined };

/*
 * Guests (issue 22): someone without an account joins with the meeting's ID, an e-mail address and
 * the PIN, and gets a token that opens that meeting's page (info, lobby, media) and nothing else.
 */
describe.each(backends)('meeting guests ($name)', (backend) => {
  let t: TestServer;
  let alice = '';
  beforeAll(async () => {
    t = await startTestServer(backend, { app: { settings: { meetingUrl: 'https://meet.acme.example' }, meetings: { chat: null, rooms } } });
    alice = await t.login('alice');
  });
  afterAll(async () => t?.close());

  const as = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });
  const errorOf = (res: { statusCode: number; json(): unknown }) => ({ status: res.statusCode, message: ApiErrorBody.parse(res.json()).message });
  const create = async (over: Record<string, unknown> = {}) => {
    const res = await as(alice, 'POST', '/v1/meetings', { meeting_name: 'Guest test', instant: true, time_zone: 'Europe/Paris', ...over });
    expect(res.statusCode, res.body).toBe(201);
    return Meeting.parse(res.json());
  };
  // Each test its own client address: the throttle counts failures per address.
  const join = (body: Record<string, unknown>, ip = '198.51.100.1') => t.app.inject({ method: 'POST', url: '/v1/meetings/guest', remoteAddress: ip, payload: body });

  it('issues a guest token (three parts, guest subject, audience ending with the meeting id) that opens the meeting page: info, lobby, media', async () => {
    const m = await create({ pin: '4321' });
    const res = await join({ meeting: m.meeting_access_code, email: 'Gina@Example.org', name: 'Gina Guest', pin: '4321' }, '198.51.100.10');
    expect(res.statusCode, res.body).toBe(200);
    const g = GuestJoinResponse.parse(res.json());
    expect(g).toMatchObject({ token_type: 'Bearer', meeting_id: m.id, slug: m.slug, name: 'Gina Guest' });
    expect(g.access_token.split('.')).toHaveLength(3);
    const claims = decodeJwt(g.access_token);
    expect(claims.sub).toMatch(new RegExp(`^${JWT_GUEST_PREFIX}\\d+$`));
    expect(String(claims.aud).endsWith(String(m.id))).toBe(true);
    // The link's slug works as the ID does.
    expect((await join({ meeting: m.slug, email: 'h@example.org', name: 'Hal', pin: '4321' }, '198.51.100.10')).statusCode).toBe(200);

    const info = MeetingInfo.parse((await as(g.access_token, 'GET', `/v1/meetings/by-slug/${m.slug}`)).json());
    expect(info).toMatchObject({ id: m.id, is_owner: false, pin: null, needs_pin: false, meeting_title: 'Guest test' });
    // Media needs a lobby place first, as for users.
    expect((await as(g.access_token, 'POST', `/v1/meetings/${m.id}/media`)).statusCode).toBe(403);
    const lobby = Lobby.parse((await as(g.access_token, 'POST', `/v1/meetings/${m.id}/presence`, { client_id: 'gina' })).json());
    expect(lobby.occupants).toEqual([{ user_id: expect.any(Number), name: 'Gina Guest', state: null, is_self: true, is_guest: true }]);
    // The booker sees the guest, marked as one; the guest sees the booker.
    await as(alice, 'POST', `/v1/meetings/${m.id}/presence`, { client_id: 'alice' });
    const seen = Lobby.parse((await as(alice, 'GET', `/v1/meetings/${m.id}/presence`)).json()).occupants;
    expect(seen).toContainEqual({ user_id: expect.any(Number), name: 'Gina Guest', state: null, is_self: false, is_guest: true });
    expect(Lobby.parse((await as(g.access_token, 'GET', `/v1/meetings/${m.id}/presence`)).json()).occupants.map((o) => o.name)).toEqual(['Alice Nguyen', 'Gina Guest']);
    const media = MeetingMedia.parse((await as(g.access_token, 'POST', `/v1/meetings/${m.id}/media`)).json());
    expect(media).toMatchObject({ room: m.id, pin: 'room-pin' });
    expect(media.turn.username).toMatch(/:guest-\d+$/);
    expect((await as(g.access_token, 'DELETE', `/v1/meetings/${m.id}/presence/gina`)).statusCode).toBe(204);
    expect(Lobby.parse((await as(alice, 'GET', `/v1/meetings/${m.id}/presence`)).json()).occupants.map((o) => o.name)).toEqual(['Alice Nguyen']);
  });

  it('a guest token opens no other meeting and no other route', async () => {
    const m = await create();
    const other = await create();
    const g = GuestJoinResponse.parse((await join({ meeting: m.meeting_access_code, email: 'g@example.org', name: 'G' }, '198.51.100.20')).json());
    const h = bearer(g.access_token);
    expect(errorOf(await t.app.inject({ url: `/v1/meetings/by-slug/${other.slug}`, headers: h }))).toEqual({ status: 403, message: MEETING_ERRORS.guestOnly });
    expect((await t.app.inject({ method: 'POST', url: `/v1/meetings/${other.id}/presence`, headers: h, payload: { client_id: 'x' } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `/v1/meetings/${other.id}/media`, headers: h })).statusCode).toBe(403);
    for (const url of ['/v1/contacts', `/v1/meetings/${m.id}`, '/v1/meetings', '/v1/ucc-config', '/v1/turn-credentials', '/v1/access-token']) {
      const res = await t.app.inject({ url, headers: h });
      expect([401, 403], `${url}: ${res.statusCode}`).toContain(res.statusCode);
      ApiErrorBody.parse(res.json());
    }
    // A token for the meeting whose id ends like this one's is no token for this one.
    const forged = await t.app.inject({ url: `/v1/meetings/by-slug/${m.slug}`, headers: bearer(g.access_token.slice(0, -2) + 'xx') });
    expect(forged.statusCode).toBe(401);
  });

  it('refuses a wrong or missing PIN, a bad e-mail, an unknown meeting; NUL bytes and huge input are 4xx, never 500', async () => {
    const m = await create({ pin: '1111' });
    const ip = '198.51.100.30';
    const base = { meeting: m.meeting_access_code, email: 'g@example.org', name: 'G' };
    expect(errorOf(await join({ ...base, pin: '2222' }, ip))).toEqual({ status: 403, message: MEETING_ERRORS.wrongPin });
    expect(errorOf(await join(base, ip))).toEqual({ status: 403, message: MEETING_ERRORS.wrongPin });
    expect((await join({ ...base, email: 'not-an-address', pin: '1111' }, ip)).statusCode).toBe(400);
    const bad = await join({ ...base, email: 'a@b', pin: '1111' }, ip);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(MEETING_ERRORS.guestEmail);
    expect((await join({ ...base, name: '  ', pin: '1111' }, ip)).statusCode).toBe(400);
    expect((await join({ ...base, meeting: '999999998', pin: '1111' }, ip)).statusCode).toBe(404);
    for (const body of [
      { ...base, name: 'G\u0000', pin: '1111' },
      { ...base, email: 'g\u0000@example.org', pin: '1111' },
      { ...base, meeting: `${m.meeting_access_code}\u0000` },
      { ...base, name: 'x'.repeat(100_000), pin: '1111' },
      { ...base, email: `${'x'.repeat(300)}@example.org`, pin: '1111' },
      { ...base, meeting: '1'.repeat(5000) },
      { ...base, pin: 1111 },
      'not json',
      [],
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/meetings/guest', remoteAddress: '198.51.100.31', payload: body as object });
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    expect((await join({ ...base, pin: '1111' }, ip)).statusCode).toBe(200);
  });

  it('an ended meeting takes no guests', async () => {
    const now = Date.now();
    const m = await create({ instant: false, start: iso(now + 3 * 60 * MIN), end: iso(now + 4 * 60 * MIN) });
    expect(errorOf(await join({ meeting: m.meeting_access_code, email: 'g@example.org', name: 'G' }, '198.51.100.40'))).toEqual({ status: 403, message: MEETING_ERRORS.joinTooEarly });
  });

  it('guessing PINs is throttled like sign-ins: past the free failures the meeting ID waits', async () => {
    const m = await create({ pin: '5555' });
    const body = { meeting: m.meeting_access_code, email: 'g@example.org', name: 'G', pin: '0000' };
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await join(body, `203.0.113.${i + 1}`)).statusCode);
    expect(codes.slice(0, 5)).toEqual([403, 403, 403, 403, 403]);
    expect(codes.slice(5)).toContain(429);
    // Even the right PIN waits while the ID is blocked.
    expect((await join({ ...body, pin: '5555' }, '203.0.113.99')).statusCode).toBe(429);
  });
});

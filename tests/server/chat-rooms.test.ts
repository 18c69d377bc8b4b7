import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatRoom, ChatRoomsResponse } from '../../src/wire/chatRooms';
import { backends, bearer, startTestServer, type TestServer } from './helpers';

// The rows and the rules; making ejabberd match them is covered against the real server in
// tests/services/chat-rooms.test.ts.
process.env.UC_XMPP_PROVISIONING = 'off';

describe.each(backends)('group chats /v1/chat/rooms ($name)', (backend) => {
  let t: TestServer;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    t = await startTestServer(backend);
    for (const u of ['alice', 'bob', 'carol', 'dave', 'olivia', 'rita']) ids[u] = await t.userId(u);
  });
  afterAll(() => t?.close());

  const call = async (user: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(await t.login(user)), ...(payload ? { payload } : {}) });

  it('creates a group of the caller and the chosen colleagues, all owners, listed for each member only', async () => {
    const res = await call('alice', 'POST', '/v1/chat/rooms', { subject: '  Launch plan ', member_ids: [ids.bob, ids.carol] });
    expect(res.statusCode).toBe(201);
    const room = ChatRoom.parse(res.json());
    expect(room.subject).toBe('Launch plan');
    expect(room.jid).toMatch(/^g-[0-9a-f]{12}@conference\.uc\.local$/);
    expect(room.members.map((m) => m.name)).toEqual(['Alice Nguyen', 'Bob Martinez', 'Carol Okafor']);
    expect(room.members.every((m) => m.affiliation === 'owner')).toBe(true);

    const bobs = ChatRoomsResponse.parse((await call('bob', 'GET', '/v1/chat/rooms')).json()).rooms;
    expect(bobs.map((r) => r.jid)).toContain(room.jid);
    const olivias = ChatRoomsResponse.parse((await call('olivia', 'GET', '/v1/chat/rooms')).json()).rooms;
    expect(olivias.map((r) => r.jid)).not.toContain(room.jid);
    // Another organisation's user cannot see or change it (it looks absent).
    expect((await call('rita', 'PUT', `/v1/chat/rooms/${room.jid}`, { subject: 'Mine' })).statusCode).toBe(404);
  });

  it('refuses an empty subject, no members, oneself, duplicates, the limited-access role and other organisations', async () => {
    const bad = async (body: object) => {
      const res = await call('alice', 'POST', '/v1/chat/rooms', body);
      expect(res.statusCode).toBe(400);
      return res.json().details.map((d: { message: string }) => d.message);
    };
    expect(await bad({ subject: '   ', member_ids: [ids.bob] })).toContain('subject_required');
    expect(await bad({ subject: 'x'.repeat(201), member_ids: [ids.bob] })).toContain('subject_too_long');
    expect(await bad({ subject: 'S', member_ids: [] })).toContain('members_required');
    expect(await bad({ subject: 'S', member_ids: [ids.alice, ids.bob] })).toContain('self_member');
    expect(await bad({ subject: 'S', member_ids: [ids.bob, ids.bob] })).toContain('duplicate_member');
    expect(await bad({ subject: 'S', member_ids: [ids.bob, ids.dave] })).toContain('not_a_colleague');
    expect(await bad({ subject: 'S', member_ids: [ids.rita] })).toContain('not_a_colleague');
  });

  it('lets a member rename the group and change who else belongs; a removed member no longer sees it', async () => {
    const room = ChatRoom.parse((await call('alice', 'POST', '/v1/chat/rooms', { subject: 'Team', member_ids: [ids.bob, ids.carol] })).json());
    const res = await call('bob', 'PUT', `/v1/chat/rooms/${encodeURIComponent(room.jid)}`, { subject: 'Team B', member_ids: [ids.alice, ids.olivia] });
    expect(res.statusCode).toBe(200);
    const updated = ChatRoom.parse(res.json());
    expect(updated.subject).toBe('Team B');
    expect(updated.members.map((m) => m.name)).toEqual(['Alice Nguyen', 'Bob Martinez', 'Olivia Bennett']);
    const carols = ChatRoomsResponse.parse((await call('carol', 'GET', '/v1/chat/rooms')).json()).rooms;
    expect(carols.map((r) => r.jid)).not.toContain(room.jid);
    expect((await call('carol', 'PUT', `/v1/chat/rooms/${room.jid}`, { subject: 'Back in' })).statusCode).toBe(404);
  });

  it('lets a member leave; the last one out deletes the group', async () => {
    const room = ChatRoom.parse((await call('alice', 'POST', '/v1/chat/rooms', { subject: 'Short-lived', member_ids: [ids.bob] })).json());
    expect((await call('bob', 'DELETE', `/v1/chat/rooms/${room.jid}/members/me`)).statusCode).toBe(204);
    expect((await call('bob', 'DELETE', `/v1/chat/rooms/${room.jid}/members/me`)).statusCode).toBe(404);
    const alices = ChatRoomsResponse.parse((await call('alice', 'GET', '/v1/chat/rooms')).json()).rooms;
    expect(alices.find((r) => r.jid === room.jid)?.members.map((m) => m.name)).toEqual(['Alice Nguyen']);
    expect((await call('alice', 'DELETE', `/v1/chat/rooms/${room.jid}/members/me`)).statusCode).toBe(204);
    const { rows } = await t.db.query('SELECT 1 FROM chat_rooms WHERE jid_local = $1', [room.jid.split('@')[0]]);
    expect(rows).toHaveLength(0);
  });

  it('refuses the limited-access role and callers without a login', async () => {
    expect((await call('dave', 'GET', '/v1/chat/rooms')).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/v1/chat/rooms' })).statusCode).toBe(401);
  });
});

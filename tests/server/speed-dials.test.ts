import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody } from '../../src/wire/common';
import { SpeedDial, SpeedDialList, shortcutInUse, SHARED_NOT_ALLOWED, NOT_YOUR_SPEED_DIAL, speedDialLimitReached } from '../../src/wire/speedDial';
import { backends, bearer, startTestServer, type TestServer } from './helpers';

describe.each(backends)('speed dials ($name)', (backend) => {
  let t: TestServer;
  const token: Record<string, string> = {};
  const id: Record<string, number> = {};
  beforeAll(async () => {
    t = await startTestServer(backend);
    for (const u of ['olivia', 'alice', 'bob', 'rita']) {
      token[u] = await t.login(u);
      id[u] = await t.userId(u);
    }
  });
  afterAll(() => t?.close());

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, headers: bearer(token[user]!), ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  };
  const list = async (user: string) => SpeedDialList.parse((await call('GET', '/v1/speed-dials', user)).body);
  const create = async (user: string, payload: object) => call('POST', `/v1/users/${id[user]}/speed-dials`, user, payload);
  const created = async (user: string, payload: object) => {
    const res = await create(user, payload);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return SpeedDial.parse(res.body);
  };
  const clear = async () => {
    for (const u of ['olivia', 'alice', 'bob', 'rita']) for (const e of (await list(u)).items) if (e.canEdit) await call('DELETE', `/v1/users/${id[u]}/speed-dials/${e.id}`, u);
  };

  it('creates an entry with the first free shortcut, the number stripped to what is dialled, last in the list', async () => {
    await clear();
    const a = await created('alice', { dial_string: '+1 (415) 555-0100,,12#', label: 'Support line' });
    expect(a).toMatchObject({ shortcut: 1, dial_string: '14155550100,,12#', label: 'Support line', visibility: 'personal', canEdit: true, isShared: false, user_id: id.alice });
    await created('alice', { dial_string: '1002', shortcut: 3 });
    // The lowest unused positive integer: 2 (1 and 3 are taken).
    const c = await created('alice', { dial_string: '1003' });
    expect(c.shortcut).toBe(2);
    const l = await list('alice');
    expect(l.items.map((e) => e.shortcut)).toEqual([1, 3, 2]);
    expect(l.total_org_speed_dials).toBe(3);
    expect(l.max_org_speed_dials).toBe(100);
    // Bob sees none of alice's personal entries.
    expect((await list('bob')).items).toEqual([]);
  });

  it('refuses a shortcut already in use with a 400 naming it, and keeps the shortcuts of other users apart', async () => {
    await clear();
    await created('alice', { dial_string: '1002', shortcut: 12 });
    const res = await create('alice', { dial_string: '1003', shortcut: 12 });
    expect(res.status).toBe(400);
    expect(ApiErrorBody.parse(res.body).message).toBe(shortcutInUse(12));
    // Bob's personal #12 does not clash with alice's personal #12.
    expect((await created('bob', { dial_string: '1001', shortcut: 12 })).shortcut).toBe(12);
  });

  it('shared entries: everyone in the organisation lists them read-only; standard users may not share; owners can move an entry from personal to shared', async () => {
    await clear();
    const res = await create('alice', { dial_string: '1002', visibility: 'shared' });
    expect(res.status).toBe(403);
    expect(ApiErrorBody.parse(res.body).message).toBe(SHARED_NOT_ALLOWED);
    const mine = await created('alice', { dial_string: '1002', shortcut: 5 });
    const put = await call('PUT', `/v1/users/${id.alice}/speed-dials/${mine.id}`, 'alice', { ...mine, visibility: 'shared' });
    expect(put.status).toBe(403);

    const o = await created('olivia', { dial_string: '4155550199', label: 'Reception', shortcut: 7 });
    const shared = await call('PUT', `/v1/users/${id.olivia}/speed-dials/${o.id}`, 'olivia', { ...o, visibility: 'shared' });
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);
    expect(SpeedDial.parse(shared.body)).toMatchObject({ isShared: true, visibility: 'shared', shortcut: 7 });
    const seen = (await list('bob')).items.find((e) => e.id === o.id);
    expect(seen).toMatchObject({ canEdit: false, isShared: true, owner_name: 'Olivia Bennett' });
    // Read-only for colleagues: neither changed nor deleted.
    expect((await call('PUT', `/v1/users/${id.bob}/speed-dials/${o.id}`, 'bob', { ...o, label: 'Mine now' })).status).toBe(403);
    const del = await call('DELETE', `/v1/users/${id.bob}/speed-dials/${o.id}`, 'bob');
    expect([del.status, ApiErrorBody.parse(del.body).message]).toEqual([403, NOT_YOUR_SPEED_DIAL]);
    // Everyone dials the shared #7: alice cannot take it for herself, and the first free skips it.
    expect(ApiErrorBody.parse((await create('alice', { dial_string: '1', shortcut: 7 })).body).message).toBe(shortcutInUse(7));
    // A shared entry cannot take a shortcut someone in the organisation uses (alice's #5).
    expect((await create('olivia', { dial_string: '1', shortcut: 5, visibility: 'shared' })).status).toBe(400);
  });

  it('another organisation sees and touches none of it; users manage only their own list', async () => {
    await clear();
    const o = await created('olivia', { dial_string: '1002', visibility: 'shared', shortcut: 9 });
    expect((await list('rita')).items).toEqual([]);
    expect((await call('PUT', `/v1/users/${id.rita}/speed-dials/${o.id}`, 'rita', { dial_string: '1' })).status).toBe(404);
    expect((await call('DELETE', `/v1/users/${id.rita}/speed-dials/${o.id}`, 'rita')).status).toBe(404);
    // Someone else's user id in the path.
    expect((await call('POST', `/v1/users/${id.olivia}/speed-dials`, 'alice', { dial_string: '1' })).status).toBe(403);
    // rita may use #9 in her own organisation.
    expect((await created('rita', { dial_string: '1', shortcut: 9, visibility: 'shared' })).shortcut).toBe(9);
  });

  it('stops at the organisation maximum', async () => {
    await clear();
    await t.db.query("UPDATE organizations SET max_speed_dials = 2 WHERE id = (SELECT organization_id FROM users WHERE username = 'alice')");
    try {
      await created('alice', { dial_string: '1' });
      await created('bob', { dial_string: '2' });
      const res = await create('alice', { dial_string: '3' });
      expect([res.status, ApiErrorBody.parse(res.body).message]).toEqual([400, speedDialLimitReached(2)]);
      expect((await list('alice')).total_org_speed_dials).toBe(2);
    } finally {
      await t.db.query("UPDATE organizations SET max_speed_dials = 100 WHERE id = (SELECT organization_id FROM users WHERE username = 'alice')");
    }
  });

  it('reorders and edits with PUT, deletes with DELETE', async () => {
    await clear();
    const a = await created('alice', { dial_string: '1', label: 'One' });
    const b = await created('alice', { dial_string: '2', label: 'Two' });
    expect((await call('PUT', `/v1/users/${id.alice}/speed-dials/${a.id}`, 'alice', { ...a, position: b.position + 1 })).status).toBe(200);
    expect((await list('alice')).items.map((e) => e.label)).toEqual(['Two', 'One']);
    const edit = await call('PUT', `/v1/users/${id.alice}/speed-dials/${b.id}`, 'alice', { ...b, shortcut: 40, dial_string: '1003,5', label: 'Carol then 5' });
    expect(SpeedDial.parse(edit.body)).toMatchObject({ shortcut: 40, dial_string: '1003,5', label: 'Carol then 5' });
    expect((await call('DELETE', `/v1/users/${id.alice}/speed-dials/${b.id}`, 'alice')).status).toBe(204);
    expect((await list('alice')).items.map((e) => e.id)).toEqual([a.id]);
  });

  it("the contacts' speed-dial group lists the colleagues and contacts whose number a speed dial calls", async () => {
    await clear();
    const group = async (user: string) => ((await call('GET', '/v1/contacts?group=speeddial', user)).body as { items: Array<{ name: string }> }).items.map((c) => c.name);
    expect(await group('alice')).toEqual([]);
    await created('alice', { dial_string: '1002' });
    const personal = await call('POST', '/v1/contacts', 'alice', {
      first_name: 'Zed', last_name: 'Plumber', company: '', title: '', notes: '', time_zone: null, birthday: null, emails: [], addresses: [], instant_messengers: [],
      phone_numbers: [{ number: '(415) 555-0142', extension: null, type: 'work', custom_type: null, source: 'personal', source_id: null, is_default: true, is_primary: true, caller_id: false }],
    });
    expect(personal.status, JSON.stringify(personal.body)).toBeLessThan(300);
    await created('alice', { dial_string: '(415) 555-0142' });
    expect(await group('alice')).toEqual(['Bob Martinez', 'Zed Plumber']);
    // A shared entry of the owner's shows for everyone in the organisation.
    await created('olivia', { dial_string: '1003', visibility: 'shared' });
    expect(await group('bob')).toEqual(['Carol Okafor']);
    await call('DELETE', `/v1/contacts/${(personal.body as { id: string }).id}`, 'alice');
  });

  it('refuses bad input with a 400 and a message', async () => {
    for (const payload of [
      {},
      { dial_string: '' },
      { dial_string: 'call me' },
      { dial_string: ',,,' },
      { dial_string: '1'.repeat(65) },
      { dial_string: '1', shortcut: 0 },
      { dial_string: '1', shortcut: 10000 },
      { dial_string: '1', shortcut: 1.5 },
      { dial_string: '1', label: 'x'.repeat(101) },
      { dial_string: '1', visibility: 'everyone' },
      { dial_string: '1\u0000' },
    ]) {
      const res = await create('alice', payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(ApiErrorBody.parse(res.body).message).toMatch(/\w/);
    }
    expect((await call('PUT', `/v1/users/${id.alice}/speed-dials/99999999999`, 'alice', { dial_string: '1' })).status).toBe(400);
    expect((await call('DELETE', `/v1/users/${id.alice}/speed-dials/abc`, 'alice')).status).toBe(400);
    expect((await call('POST', '/v1/users/0/speed-dials', 'alice', { dial_string: '1' })).status).toBe(400);
  });
});

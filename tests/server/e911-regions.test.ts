import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AvailabilityRegionList, E911Address } from '../../src/wire/profileExtras';
import { backends, bearer, startTestServer, type TestServer } from './helpers';

describe.each(backends)('E911 address and availability regions ($name)', (backend) => {
  let t: TestServer;
  const token: Record<string, string> = {};
  const id: Record<string, number> = {};
  beforeAll(async () => {
    t = await startTestServer(backend);
    for (const u of ['olivia', 'bob', 'carol', 'alice', 'rita']) [token[u], id[u]] = await Promise.all([t.login(u), t.userId(u)]);
  });
  afterAll(() => t?.close());

  const get = (who: string, url: string) => t.app.inject({ url, headers: bearer(token[who]!) });

  it('answers the caller\'s own emergency address, and a 404 with a message for a user without one', async () => {
    const res = await get('carol', '/v1/e911');
    expect(res.statusCode, res.body).toBe(200);
    expect(E911Address.parse(res.json())).toMatchObject({ street1: '12 Harbor Way', city: 'Portland', country: 'USA' });
    const none = await get('bob', '/v1/e911');
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ error: 'not_found', message: 'No emergency address on file' });
  });

  it('lets an account owner read a colleague\'s address, refuses a standard user, and treats another organisation\'s users as absent', async () => {
    expect((await get('olivia', `/v1/e911?user_id=${id.carol}`)).json()).toMatchObject({ city: 'Portland' });
    expect((await get('alice', `/v1/e911?user_id=${id.carol}`)).statusCode).toBe(403);
    // rita administers Northwind; carol is Acme's, and olivia (Acme's owner) may not read rita's either.
    const foreign = await get('rita', `/v1/e911?user_id=${id.carol}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('Harbor');
    expect((await get('olivia', `/v1/e911?user_id=${id.rita}`)).statusCode).toBe(404);
  });

  it('refuses a malformed user id with a 400, and an anonymous caller with a 401', async () => {
    for (const q of ['abc', '0', '-3', '99999999999', '1.5']) {
      const res = await get('olivia', `/v1/e911?user_id=${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().message, q).toEqual(expect.any(String));
    }
    expect((await t.app.inject({ url: '/v1/e911' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/v1/availability_regions' })).statusCode).toBe(401);
  });

  it('lists only the caller\'s organisation\'s regions, with their test servers and the caller\'s own region', async () => {
    const acme = AvailabilityRegionList.parse((await get('carol', '/v1/availability_regions')).json());
    expect(acme.items.map((r) => r.name)).toEqual(['eu-central', 'us-east', 'us-west']);
    expect(acme.items.find((r) => r.id === acme.user_region_id)?.display_name).toBe('US West');
    expect(acme.items.find((r) => r.name === 'us-east')?.network_test_server).toMatchObject({ hostname: 'nts-use.example.net' });
    expect(acme.items.find((r) => r.name === 'eu-central')).toMatchObject({ status: 'inactive', network_test_server: null });

    const northwind = AvailabilityRegionList.parse((await get('rita', '/v1/availability_regions')).json());
    expect(northwind.items.map((r) => r.name)).toEqual(['ca-central']);
    expect(northwind.user_region_id).toBe(northwind.items[0]!.id);
    expect(acme.items.map((r) => r.id)).not.toContain(northwind.items[0]!.id);
  });

  it('filters by status, and refuses an unknown status with a 400', async () => {
    const active = AvailabilityRegionList.parse((await get('bob', '/v1/availability_regions?status=active')).json());
    expect(active.items.map((r) => r.status)).toEqual(['active', 'active']);
    const bad = await get('bob', '/v1/availability_regions?status=retired');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'validation_failed' });
  });
});

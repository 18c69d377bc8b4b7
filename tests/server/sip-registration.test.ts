import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegActiveResponse } from '../../src/wire/services';
import { reserveRegistration } from '../../server/sip/repository';
import { loadOrCreateSecret } from '../../server/services/layout';
import { backends, bearer, startTestServer, type TestServer } from './helpers';

describe.each(backends)('phone registration ownership ($name)', (backend) => {
  let t: TestServer;
  let alice: string;
  let aliceId: number;
  beforeAll(async () => {
    t = await startTestServer(backend);
    alice = await t.login('alice');
    aliceId = await t.userId('alice');
  });
  afterAll(() => t?.close());

  const reserve = async (token: string, body: unknown) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/regreserve', headers: bearer(token), payload: body as object });
    return { status: res.statusCode, body: res.json() };
  };

  it('one tab holds it; another is told who does, and may take it over', async () => {
    expect((await reserve(alice, { peer: 'tab-a', client: 'web' })).body).toMatchObject({ peer: 'tab-a', granted: true });
    expect((await reserve(alice, { peer: 'tab-b', client: 'web' })).body).toMatchObject({ peer: 'tab-a', granted: false });
    expect((await reserve(alice, { peer: 'tab-b', client: 'web', takeover: true })).body).toMatchObject({ peer: 'tab-b', granted: true });
    // The displaced tab learns it at its next renewal.
    expect((await reserve(alice, { peer: 'tab-a', client: 'web' })).body).toMatchObject({ peer: 'tab-b', granted: false });
    const active = RegActiveResponse.parse((await t.app.inject({ url: '/v1/regactive', headers: bearer(alice) })).json());
    expect(active.peer).toBe('tab-b');
  });

  it('a closing tab gives its hold up at once; only the holder can release it', async () => {
    expect((await reserve(alice, { peer: 'tab-c', client: 'web', takeover: true })).body).toMatchObject({ peer: 'tab-c', granted: true });
    // Someone else's release changes nothing.
    expect((await reserve(alice, { peer: 'tab-d', client: 'web', release: true })).body).toMatchObject({ peer: 'tab-c', granted: false });
    expect((await reserve(alice, { peer: 'tab-d', client: 'web' })).body).toMatchObject({ peer: 'tab-c', granted: false });
    expect((await reserve(alice, { peer: 'tab-c', client: 'web', release: true })).body).toMatchObject({ peer: null, granted: false });
    // Free now: the other tab gets it without taking over.
    expect((await reserve(alice, { peer: 'tab-d', client: 'web' })).body).toMatchObject({ peer: 'tab-d', granted: true });
  });

  it('refuses a malformed reservation with a message', async () => {
    const res = await reserve(alice, { peer: '', client: 'desk' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/registration reservation/);
  });

  it('tabs racing for a free or expired hold never both win', async () => {
    for (let round = 0; round < 25; round++) {
      // Expired: free for everyone at once.
      await t.db.query(`UPDATE sip_registration_holders SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [aliceId]);
      const peers = Array.from({ length: 4 }, (_, i) => `race-${round}-${i}`);
      const answers = await Promise.all(peers.map((p) => reserveRegistration(t.db, aliceId, p)));
      const winners = answers.filter((a) => a.granted);
      expect(winners).toHaveLength(1);
      // Every loser names the one winner.
      for (const a of answers) expect(a.peer).toBe(winners[0]!.peer);
    }
  });
});

describe('runtime secrets', () => {
  it('concurrent first uses in one process agree on one secret and leave no draft behind', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'uc-secret-'));
    try {
      const all = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateSecret(dir, 'x.key')));
      for (const s of all) expect(s.equals(all[0]!)).toBe(true);
      expect(await readdir(path.join(dir, 'secrets'))).toEqual(['x.key']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../server/auth/passwords';
import { loadMigrations, migrate } from '../../server/db/migrate';
import { acquireDirLock } from '../../server/db/dir-lock';
import { openPglite } from '../../server/db/pglite';
import type { Db } from '../../server/db/types';
import { DEMO_PASSWORD, seedDemo } from '../../server/seed';
import { backends, SEED_NOW } from './helpers';

async function historyDigest(db: Db): Promise<string> {
  const { rows } = await db.query(
    `SELECT u.username, h.call_time, h.direction, h.disposition, h.source_phone, h.dest_phone, h.duration, h.is_primary, h.caller_id, h.cnam
       FROM call_history h JOIN users u ON u.id = h.user_id ORDER BY u.username, h.call_time, h.id`,
  );
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
}

describe.each(backends)('database ($name)', (backend) => {
  let db: Db;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ db, dispose } = await backend.open());
    await migrate(db);
    await seedDemo(db, { now: SEED_NOW });
  });
  afterAll(() => dispose?.());

  it('migrations are recorded and a second run applies nothing', async () => {
    const { rows } = await db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual((await loadMigrations()).map((m) => m.version));
    expect(await migrate(db)).toEqual([]);
  });

  it('a failing migration rolls back completely and is not recorded', async () => {
    const broken = [{ version: '900', name: 'broken', sql: 'CREATE TABLE half_done (id int); SELECT no_such_function();' }];
    await expect(migrate(db, broken)).rejects.toThrow();
    const table = await db.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'`);
    expect(table.rows).toEqual([]);
    const recorded = await db.query(`SELECT 1 FROM schema_migrations WHERE version = '900'`);
    expect(recorded.rows).toEqual([]);
  });

  it('has the indexes the history queries use', async () => {
    const { rows } = await db.query<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE tablename = 'call_history'`);
    expect(rows.map((r) => r.indexname)).toEqual(
      expect.arrayContaining(['call_history_user_time_idx', 'call_history_user_primary_time_idx', 'call_history_user_search_trgm']),
    );
  });

  it('seeds the demo organisations and users', async () => {
    const orgs = await db.query<{ name: string; level: string; reseller: string | null }>(
      `SELECT o.name, o.level, r.name AS reseller FROM organizations o LEFT JOIN organizations r ON r.id = o.reseller_id ORDER BY o.name`,
    );
    expect(orgs.rows).toEqual([
      { name: 'Acme Corp', level: 'customer', reseller: 'Northwind Partners' },
      { name: 'Birch Dental', level: 'customer', reseller: 'Northwind Partners' },
      { name: 'Cove Marine', level: 'customer', reseller: 'Harbor Telecom' },
      { name: 'Harbor Telecom', level: 'reseller', reseller: null },
      { name: 'Northwind Partners', level: 'reseller', reseller: null },
      { name: 'Old Mill Bakery', level: 'customer', reseller: 'Northwind Partners' },
    ]);
    const users = await db.query<{ username: string; extension: string; role_id: number; level: string; org: string }>(
      `SELECT u.username, u.extension, u.role_id, u.level, o.name AS org FROM users u JOIN organizations o ON o.id = u.organization_id ORDER BY u.extension`,
    );
    const byName = new Map(users.rows.map((u) => [u.username, u]));
    expect(byName.get('olivia')).toMatchObject({ extension: '1000', role_id: 1, org: 'Acme Corp' });
    for (const [name, ext] of [['alice', '1001'], ['bob', '1002'], ['carol', '1003']] as const) {
      expect(byName.get(name)).toMatchObject({ extension: ext, role_id: 3, level: 'customer' });
    }
    expect(byName.get('dave')).toMatchObject({ extension: '1004', role_id: 4 });
    expect(byName.get('rita')).toMatchObject({ extension: '2000', role_id: 2, level: 'reseller', org: 'Northwind Partners' });
    // The second reseller's administrator, who has not been through the onboarding wizard.
    expect(byName.get('hana')).toMatchObject({ extension: '3000', role_id: 2, level: 'reseller', org: 'Harbor Telecom' });
    const staff = users.rows.filter((u) => u.org === 'Acme Corp' && Number(u.extension) >= 1005);
    expect(staff.length).toBeGreaterThanOrEqual(38);
    expect(staff.length).toBeLessThanOrEqual(45);
  });

  it('every demo password is Demo-pass-1, each with its own salt', async () => {
    const { rows } = await db.query<{ password_hash: string }>(`SELECT password_hash FROM users WHERE username IN ('alice', 'rita', 'mateo.garcia')`);
    expect(rows).toHaveLength(3);
    for (const r of rows) expect(await verifyPassword(DEMO_PASSWORD, r.password_hash)).toBe(true);
    const all = await db.query<{ n: number; distinct_hashes: number }>('SELECT count(*)::int AS n, count(DISTINCT password_hash)::int AS distinct_hashes FROM users');
    expect(all.rows[0]!.distinct_hashes).toBe(all.rows[0]!.n);
  });

  it('gives each user about 500 varied calls over ~120 days', async () => {
    const { rows } = await db.query<{ n: number; oldest_days: number; missed: number; outbound: number; inbound: number; internal: number; external: number; no_cnam: number; primary: number }>(
      `SELECT count(*)::int AS n,
              floor(extract(epoch FROM ($1::timestamptz - min(call_time))) / 86400)::int AS oldest_days,
              count(*) FILTER (WHERE direction = 'inbound' AND disposition = 'UNANSWERED')::int AS missed,
              count(*) FILTER (WHERE direction = 'outbound')::int AS outbound,
              count(*) FILTER (WHERE direction = 'inbound' AND disposition = 'ANSWERED')::int AS inbound,
              count(*) FILTER (WHERE source_phone ~ '^\\d{4}$' AND dest_phone ~ '^\\d{4}$')::int AS internal,
              count(*) FILTER (WHERE source_phone LIKE '+1%' OR dest_phone LIKE '+1%')::int AS external,
              count(*) FILTER (WHERE cnam IS NULL)::int AS no_cnam,
              count(*) FILTER (WHERE is_primary)::int AS primary
         FROM call_history GROUP BY user_id`,
      [SEED_NOW.toISOString()],
    );
    expect(rows.length).toBe(48);
    for (const r of rows) {
      expect(r.n).toBeGreaterThanOrEqual(450);
      expect(r.n).toBeLessThanOrEqual(550);
      expect(r.oldest_days).toBeGreaterThanOrEqual(110);
      expect(r.oldest_days).toBeLessThanOrEqual(120);
      expect(r.missed).toBeGreaterThan(0);
      expect(r.outbound).toBeGreaterThan(0);
      expect(r.inbound).toBeGreaterThan(0);
      expect(r.external).toBeGreaterThan(0);
      expect(r.no_cnam).toBeGreaterThan(0);
      expect(r.primary / r.n).toBeGreaterThan(0.8);
    }
    expect(rows.filter((r) => r.internal > 0).length).toBe(47); // everyone but rita, alone in her organisation
    const future = await db.query('SELECT 1 FROM call_history WHERE call_time > $1::timestamptz', [SEED_NOW.toISOString()]);
    expect(future.rows).toEqual([]);
    const bad = await db.query(`SELECT 1 FROM call_history WHERE disposition = 'UNANSWERED' AND duration <> 0`);
    expect(bad.rows).toEqual([]);
  });

  it('external numbers are E.164 and colleague calls carry the colleague’s name', async () => {
    const { rows } = await db.query<{ phone: string }>(
      `SELECT source_phone AS phone FROM call_history WHERE direction = 'inbound' UNION SELECT dest_phone FROM call_history WHERE direction = 'outbound'`,
    );
    for (const { phone } of rows) expect(phone).toMatch(/^(\+1[2-9]\d{9}|[12]\d{3})$/);
    const named = await db.query<{ ok: boolean }>(
      `SELECT bool_and(h.cnam = u.first_name || ' ' || u.last_name) AS ok
         FROM call_history h JOIN users u ON u.extension = h.source_phone
        WHERE h.direction = 'inbound' AND h.source_phone ~ '^\\d{4}$'`,
    );
    expect(named.rows[0]!.ok).toBe(true);
  });

  // How long seeding takes is not asserted here (a loaded machine would make it flaky); the
  // spoken clips are cached between seeds (seed-media.ts), which keeps test servers quick to start.
  it('is idempotent', async () => {
    expect(await seedDemo(db, { now: SEED_NOW })).toEqual({ seeded: false, users: 0, historyRows: 0 });
  });

  it('is deterministic: a second database seeded at the same instant holds the same data', async () => {
    const other = await backend.open();
    try {
      await migrate(other.db);
      await seedDemo(other.db, { now: SEED_NOW });
      expect(await historyDigest(other.db)).toBe(await historyDigest(db));
    } finally {
      await other.dispose();
    }
    // A whole second seed: 28 s measured at load average 15, past the default 20 s bound.
  }, 90_000);
});

describe('PGlite on disk', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'uc-pglite-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('persists across reopen and refuses a second concurrent opener', async () => {
    const dataDir = path.join(dir, 'pglite');
    const first = await openPglite(dataDir);
    await migrate(first);
    await first.query(`INSERT INTO organizations (name, level) VALUES ('Persisted', 'customer')`);
    await expect(openPglite(dataDir)).rejects.toThrow(/already open/);
    await first.close();
    expect(await readdir(dir)).not.toContain('pglite.lock');

    const second = await openPglite(dataDir);
    try {
      expect(await migrate(second)).toEqual([]);
      const { rows } = await second.query<{ name: string }>('SELECT name FROM organizations');
      expect(rows).toEqual([{ name: 'Persisted' }]);
    } finally {
      await second.close();
    }
  });
});

describe('database folder lock', () => {
  it("refuses a lock held by another live process and takes over a dead one's", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'uc-lock-'));
    try {
      const lock = path.join(dir, 'x.lock');
      await writeFile(lock, '1\n'); // pid 1 is always alive
      await expect(acquireDirLock(lock)).rejects.toThrow(/in use by process 1/);
      await writeFile(lock, '4194304\n'); // above Linux's pid_max: never a live process
      const release = await acquireDirLock(lock);
      expect((await readFile(lock, 'utf8')).trim()).toBe(String(process.pid));
      await release();
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

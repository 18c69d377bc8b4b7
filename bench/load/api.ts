/**
 * The API's busiest calls under autocannon (HTTP/1.1 keep-alive, one Node process on this machine:
 * its own CPU competes with the server's), on PGlite (the single-machine default, inside the API
 * process) and on PostgreSQL 15 (scripts/pg-test.sh on port 42990), the real API server started
 * as the product runs it (server/main.ts, port 42080, stopped by PID).
 *
 * Database: the demo organisation plus LOAD_USERS users, each with HISTORY_PER_USER calls,
 * CONTACTS_PER_USER personal contacts and VOICEMAILS_PER_USER voicemails (alice's newest, copied in
 * one statement each; PGlite still takes a minute or two to take them in, with their indexes).
 *
 * Each call at 1 and at 10 connections (1× and 10× the load) for STEP_S: requests per second and
 * latency p99. Sign-in is one scrypt hash per request (by design: a password guess must cost).
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { hashPassword } from '../../server/auth/passwords';
import { migrate } from '../../server/db/migrate';
import { openDb } from '../../server/db/open';
import type { Db } from '../../server/db/types';
import { removeRuntimeDir } from '../../server/services/layout';
import { DEMO_PASSWORD, seedDemo } from '../../server/seed';
import { insertUsers } from '../../server/users/create';
import { startApi, stopApi } from '../apiServer';
import { round1 } from '../measure';
import { measureGroups, type GroupSample } from './procStat';

const PORT_BASE = 42000;
const API_PORT = 42080;
const PG_PORT = 42990;
export const LOAD_USERS = 10_000;
export const HISTORY_PER_USER = 20;
export const CONTACTS_PER_USER = 10;
export const VOICEMAILS_PER_USER = 5;
const SIGNED_IN = 40;
const STEP_S = 5;
export const CONNECTIONS = [1, 10];

interface Endpoint {
  name: string;
  request(u: { username: string; id: number; token: string }): { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string };
}

const ENDPOINTS: Endpoint[] = [
  { name: 'signin', request: (u) => ({ method: 'POST', path: '/login', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: u.username, password: DEMO_PASSWORD }) }) },
  { name: 'history', request: (u) => ({ method: 'GET', path: `/v2/users/${u.id}/call-history?limit=50`, headers: { authorization: `Bearer ${u.token}` } }) },
  { name: 'contacts_index', request: (u) => ({ method: 'GET', path: '/v1/contacts/index', headers: { authorization: `Bearer ${u.token}` } }) },
  { name: 'voicemail', request: (u) => ({ method: 'GET', path: `/v2/user/${u.id}/voicemails`, headers: { authorization: `Bearer ${u.token}` } }) },
];

export interface ApiStep {
  db: string;
  endpoint: string;
  connections: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  servers: Record<string, GroupSample>;
  /** autocannon's CPU (this process), percent of one core. */
  generatorCpu: number;
}

/** The demo, then LOAD_USERS users in Acme with alice's newest calls, contacts and voicemails as theirs. */
export async function seedLoad(db: Db): Promise<{ users: number; history: number; contacts: number; voicemails: number }> {
  await migrate(db);
  await seedDemo(db);
  const hash = await hashPassword(DEMO_PASSWORD);
  const sized = await db.transaction(async (tx) => {
    const org = await tx.query<{ id: number }>(`SELECT organization_id AS id FROM users WHERE username = 'alice'`);
    await insertUsers(
      tx,
      Array.from({ length: LOAD_USERS }, (_, i) => ({
        organizationId: org.rows[0]!.id, username: `load.${i}`, passwordHash: hash, first: 'Load', last: `User ${i}`, email: `load.${i}@acme.example`,
        extension: String(20000 + i), roleId: 3, level: 'customer' as const, company: 'Acme Corp', alias: null, enabled: true,
      })),
    );
    const count = async (sql: string) => (await tx.query<{ n: number }>(`WITH done AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM done`, [HISTORY_PER_USER, CONTACTS_PER_USER])).rows[0]!.n;
    const loadUsers = `users u WHERE u.username LIKE 'load.%'`;
    const alice = `(SELECT id FROM users WHERE username = 'alice')`;
    const history = await count(`INSERT INTO call_history (user_id, call_time, direction, disposition, source_phone, dest_phone, duration, is_primary, caller_id, cnam)
      SELECT u.id, h.call_time, h.direction, h.disposition, CASE WHEN h.direction = 'inbound' THEN h.source_phone ELSE u.extension END,
             CASE WHEN h.direction = 'inbound' THEN u.extension ELSE h.dest_phone END, h.duration, h.is_primary, h.caller_id, h.cnam
        FROM (SELECT * FROM call_history WHERE user_id = ${alice} ORDER BY call_time DESC LIMIT $1) h CROSS JOIN ${loadUsers} AND $2::int > 0`);
    const cols = 'first_name, last_name, company, title, favorite, birthday_day, birthday_month, birthday_year, phone_numbers, emails, addresses, display_name, sort_name, search_text, search_digits';
    const contacts = await count(`INSERT INTO contacts (owner_id, ${cols})
      SELECT u.id, ${cols.split(', ').map((c) => `c.${c}`).join(', ')}
        FROM (SELECT * FROM contacts WHERE owner_id = ${alice} ORDER BY id LIMIT $2) c CROSS JOIN ${loadUsers} AND $1::int > 0`);
    const voicemails = await count(`INSERT INTO voicemails (user_id, mailbox, caller_number, caller_name, received_at, duration, status, transcript_state, transcript, media_id)
      SELECT u.id, u.extension, v.caller_number, v.caller_name, v.received_at, v.duration, v.status, v.transcript_state, v.transcript, v.media_id
        FROM (SELECT * FROM voicemails WHERE user_id = ${alice} ORDER BY received_at DESC LIMIT ${VOICEMAILS_PER_USER}) v CROSS JOIN ${loadUsers} AND $1::int > 0 AND $2::int > 0`);
    return { users: LOAD_USERS, history, contacts, voicemails };
  });
  // Planner statistics for the new rows, as PostgreSQL's autovacuum would gather them soon after a
  // bulk load (PGlite has none): without them the first plans are the empty tables'.
  await db.query('ANALYZE');
  return sized;
}

async function signIn(origin: string, username: string): Promise<{ username: string; id: number; token: string }> {
  const r = await fetch(`${origin}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: DEMO_PASSWORD }) });
  if (!r.ok) throw new Error(`sign-in of ${username}: ${r.status}`);
  const { access_token, user_id } = (await r.json()) as { access_token: string; user_id: number };
  return { username, id: user_id, token: access_token };
}

const cpuOf = (u: NodeJS.CpuUsage) => Math.round((u.user + u.system) / 1000 / (STEP_S * 10));

async function measureApi(dbName: string, origin: string, groups: Record<string, number>, log: (l: string) => void): Promise<ApiStep[]> {
  const users: Array<{ username: string; id: number; token: string }> = [];
  for (let i = 0; i < SIGNED_IN; i += 10) users.push(...(await Promise.all(Array.from({ length: 10 }, (_, k) => signIn(origin, `load.${(i + k) * Math.floor(LOAD_USERS / SIGNED_IN)}`)))));
  const steps: ApiStep[] = [];
  for (const e of ENDPOINTS) {
    for (const connections of CONNECTIONS) {
      let n = 0;
      // One request first, alone: it waits behind whatever the previous step left queued (PGlite
      // answers one query at a time), so that backlog is not counted against this call.
      const first = e.request(users[0]!);
      const warm = await fetch(`${origin}${first.path}`, { method: first.method, headers: first.headers, body: first.body, signal: AbortSignal.timeout(120_000) });
      if (!warm.ok) throw new Error(`${e.name}: ${warm.status} ${(await warm.text()).slice(0, 200)}`);
      const m = measureGroups(groups);
      const cpu0 = process.cpuUsage();
      const r = await autocannon({
        url: origin,
        connections,
        duration: STEP_S,
        requests: [{ setupRequest: (req) => ({ ...req, ...e.request(users[n++ % users.length]!) }) }],
      });
      const step = { db: dbName, endpoint: e.name, connections, rps: Math.round(r.requests.average), p50Ms: round1(r.latency.p50), p99Ms: round1(r.latency.p99), errors: r.errors + r.timeouts + r.non2xx, servers: m.stop(), generatorCpu: cpuOf(process.cpuUsage(cpu0)) };
      log(`api ${dbName} ${e.name} ×${connections}: ${JSON.stringify(step)}`);
      steps.push(step);
    }
  }
  return steps;
}

async function withApi<T>(runtimeDir: string, env: Record<string, string>, work: (origin: string, api: ChildProcess) => Promise<T>): Promise<T> {
  const root = resolve(import.meta.dirname, '..', '..');
  const staticDir = join(runtimeDir, 'static');
  mkdirSync(staticDir, { recursive: true });
  const api = await startApi({ root, runtimeDir, distDir: staticDir, portBase: PORT_BASE, apiPort: API_PORT, env: { UC_XMPP_PROVISIONING: 'off', UC_LOG_LEVEL: 'warn', ...env } });
  try {
    return await work(`http://127.0.0.1:${API_PORT}`, api);
  } finally {
    await stopApi(api);
  }
}

/** PostgreSQL from the project's own script; started (and so stopped) here unless it already ran. */
function pgTest(command: 'start' | 'stop' | 'url' | 'status'): string {
  const root = resolve(import.meta.dirname, '..', '..');
  return execFileSync('bash', [join(root, 'scripts', 'pg-test.sh'), command], { encoding: 'utf8', env: { ...process.env, UC_TEST_PG_PORT: String(PG_PORT) }, stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** The postmaster's PID (its backends are its children). */
const postmasterPid = () => Number(/pid (\d+)/.exec(pgTest('status'))![1]);

export async function benchApiLoad(log: (line: string) => void): Promise<{ figures: Record<string, number>; table: string[] }> {
  const root = resolve(import.meta.dirname, '..', '..');
  const parent = join(root, 'runtime', 'bench-load-api');
  mkdirSync(parent, { recursive: true });
  const steps: ApiStep[] = [];
  let size = '';

  // PGlite: seeded here, then the API opens the same folder (one process at a time holds it).
  const runtimeDir = mkdtempSync(join(parent, 'run-'));
  const t0 = performance.now();
  const db = await openDb({ runtimeDir });
  const seeded = await seedLoad(db).finally(() => db.close());
  size = `${seeded.users} users (+ the demo's), ${seeded.history} calls, ${seeded.contacts} contacts, ${seeded.voicemails} voicemails`;
  log(`api: seeded PGlite in ${Math.round(performance.now() - t0)} ms: ${size}`);
  await withApi(runtimeDir, {}, async (origin, api) => steps.push(...(await measureApi('pglite', origin, { api: api.pid! }, log))));
  removeRuntimeDir(runtimeDir);

  const alreadyRunning = (() => {
    try {
      return pgTest('status').includes('running (pid');
    } catch {
      return false;
    }
  })();
  if (!alreadyRunning) pgTest('start');
  const pgGroup = postmasterPid();
  const adminUrl = pgTest('url');
  const dbName = `uc_load_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${dbName}`);
    const url = adminUrl.replace(/\/[^/]*$/, `/${dbName}`);
    const pgRuntime = mkdtempSync(join(parent, 'run-pg-'));
    const pgDb = await openDb({ databaseUrl: url, runtimeDir: pgRuntime });
    await seedLoad(pgDb).finally(() => pgDb.close());
    await withApi(pgRuntime, { DATABASE_URL: url }, async (origin, api) => steps.push(...(await measureApi('postgres', origin, { api: api.pid!, postgres: pgGroup }, log))));
    removeRuntimeDir(pgRuntime);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    if (!alreadyRunning) pgTest('stop');
  }

  const figures: Record<string, number> = {};
  for (const s of steps.filter((x) => x.connections === Math.max(...CONNECTIONS))) {
    figures[`api_${s.endpoint}_${s.db}_p99_ms`] = s.p99Ms;
    figures[`api_${s.endpoint}_${s.db}_rps`] = s.rps;
  }
  return {
    figures,
    table: [
      `Database: ${size}.`,
      '',
      '| call | database | connections | requests/s | p50 / p99 | errors | CPU (% of one core) | autocannon CPU |',
      '|---|---|---|---|---|---|---|---|',
      ...steps.map((s) => `| ${s.endpoint} | ${s.db} | ${s.connections} | ${s.rps} | ${s.p50Ms} / ${s.p99Ms} ms | ${s.errors} | ${Object.entries(s.servers).map(([k, v]) => `${k} ${v.cpu} %`).join(', ')} | ${s.generatorCpu} % |`),
    ],
  };
}

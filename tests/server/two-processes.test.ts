import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { AccessTokenResponse, REFRESH_COOKIE } from '../../src/wire/auth';
import { MobileAuthResponse } from '../../src/wire/mobile';
import { buildApp } from '../../server/app';
import { migrate } from '../../server/db/migrate';
import { openPostgres } from '../../server/db/postgres';
import { loadOrCreateSecret, SECRET_NAMES } from '../../server/services/layout';
import type { Db } from '../../server/db/types';
import { DEMO_PASSWORD, seedDemo } from '../../server/seed';
import { bearer, SEED_NOW } from './helpers';

/**
 * Issue 25: two API processes on one PostgreSQL, a user's requests sent alternately to both. Only
 * with UC_TEST_DATABASE_URL (PGlite admits one process). Ports (the task's range): UC_TEST_TWO_API_PORT and the next
 * three, and the voicemail phone's from UC_TEST_TWO_API_PORT + 100 (SIP +64, control +67, RTP +450…+499).
 */
const adminUrl = process.env.UC_TEST_DATABASE_URL;
const PORT = Number(process.env.UC_TEST_TWO_API_PORT || 42030);
const repoRoot = path.resolve(__dirname, '../..');

interface ApiProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startApi(env: NodeJS.ProcessEnv, until: RegExp): Promise<ApiProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      UC_XMPP_PROVISIONING: 'off',
      UC_DTMF_EVENTS: 'off',
      UC_LOG_LEVEL: 'warn',
      // The real servers' ports (the voicemail phone's control port among them) are this test's, with nothing on them.
      UC_PORT_BASE: String(PORT + 100),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const proc = { child, output: () => out, exited };
  return new Promise((resolve, reject) => {
    const check = () => {
      if (until.test(out)) {
        child.stdout!.off('data', check);
        child.stderr!.off('data', check);
        resolve(proc);
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    void exited.then((code) => (until.test(out) ? undefined : reject(new Error(`API exited (${code}) before ready:\n${out}`))));
  });
}

async function stopApi(p: ApiProcess | undefined): Promise<void> {
  if (!p || p.child.exitCode !== null) return;
  p.child.kill('SIGTERM');
  await p.exited;
}

describe.skipIf(!adminUrl)('two API processes on one PostgreSQL (issue 25)', () => {
  const name = `uc_test_two_${process.pid}_${Date.now().toString(36)}`;
  let url = '';
  let db: Db;
  let runtimeDir = '';
  let a: ApiProcess | undefined;
  let b: ApiProcess | undefined;
  const base = { a: `http://127.0.0.1:${PORT}`, b: `http://127.0.0.1:${PORT + 1}` };

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(adminUrl!);
    u.pathname = `/${name}`;
    url = u.toString();
    db = await openPostgres(url);
    await migrate(db);
    await seedDemo(db, { now: SEED_NOW });
    // One runtime folder, as the processes of one machine share (the JWT key is made by the first).
    runtimeDir = await mkdtemp(path.join(tmpdir(), 'uc-two-api-'));
    const env = { DATABASE_URL: url, UC_RUNTIME_DIR: runtimeDir, UC_STATIC_DIR: runtimeDir };
    a = await startApi({ ...env, UC_API_PORT: String(PORT) }, /UC API listening/);
    b = await startApi({ ...env, UC_API_PORT: String(PORT + 1), UC_API_PROCESS_INDEX: '2' }, /UC API listening/);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([stopApi(a), stopApi(b)]);
    await db?.close();
    if (runtimeDir) await rm(runtimeDir, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  const login = (on: string, username: string, password = DEMO_PASSWORD) =>
    fetch(`${on}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });

  it("a session made on A works on B and A in turn; its refresh cookie too; a logout on B ends it on A", async () => {
    const res = await login(base.a, 'alice');
    expect(res.status).toBe(200);
    const { access_token: token, user_id: userId } = AccessTokenResponse.parse(await res.json());
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${REFRESH_COOKIE}=`))!.split(';')[0]!;
    for (const on of [base.b, base.a, base.b, base.a]) {
      const me = await fetch(`${on}/v1/users/${userId}`, { headers: bearer(token) });
      expect({ on, status: me.status }).toEqual({ on, status: 200 });
    }
    const refreshed = await fetch(`${base.b}/v1/access-token`, { headers: { cookie } });
    expect(refreshed.status).toBe(200);
    const second = AccessTokenResponse.parse(await refreshed.json()).access_token;
    expect((await fetch(`${base.a}/v1/users/${userId}`, { headers: bearer(second) })).status).toBe(200);
    expect((await fetch(`${base.b}/logout`, { method: 'POST', headers: { cookie } })).status).toBe(204);
    for (const on of [base.a, base.b]) {
      expect((await fetch(`${on}/v1/users/${userId}`, { headers: bearer(token) })).status).toBe(401);
      expect((await fetch(`${on}/v1/access-token`, { headers: { cookie } })).status).toBe(401);
    }
  });

  it('wrong passwords sent alternately to A and B add up to one throttle, which both then apply', async () => {
    const statuses: number[] = [];
    // Five are free per account; the sixth starts a wait. Each process saw only three.
    for (let i = 0; i < 6; i++) statuses.push((await login(i % 2 ? base.b : base.a, 'bob', 'wrong password')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // The right password is refused too while the wait lasts, on the process that made it and on the other.
    expect((await login(base.a, 'bob')).status).toBe(429);
  });

  it('a mobile sign-in code spent on A is refused on B', async () => {
    const token = AccessTokenResponse.parse(await (await login(base.b, 'carol')).json()).access_token;
    const issued = MobileAuthResponse.parse(await (await fetch(`${base.b}/v1/mobile-auth`, { headers: bearer(token) })).json());
    const redeem = (on: string) =>
      fetch(`${on}/login/mobile`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: issued.access_token }) });
    expect((await redeem(base.a)).status).toBe(200);
    expect((await redeem(base.b)).status).toBe(401);
  });

  it('the calendar refresh timer of two processes reads a due calendar once, never both at the same time', async () => {
    // Two apps with pools of their own on the one database are two processes to PostgreSQL; the
    // calendar server holds each read longer than a tick, so the other process ticks while it waits.
    let inFlight = 0;
    let most = 0;
    let reads = 0;
    let hold = false;
    const calendar = [
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', 'BEGIN:VEVENT', 'UID:one@test',
      'DTSTAMP:20260320T150000Z', 'DTSTART:20260325T100000Z', 'DTEND:20260325T110000Z', 'SUMMARY:Standup', 'END:VEVENT', 'END:VCALENDAR', '',
    ].join('\r\n');
    const feedServer: Server = createServer((req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(
        () => {
          inFlight--;
          if (hold) reads++;
          res.writeHead(200, { 'content-type': 'text/calendar' }).end(calendar);
        },
        hold ? 2500 : 0,
      );
    });
    await new Promise<void>((resolve) => feedServer.listen(PORT + 3, '127.0.0.1', resolve));
    const apps: FastifyInstance[] = [];
    const dbs: Db[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const own = await openPostgres(url);
        dbs.push(own);
        apps.push(await buildApp({ db: own, runtimeDir, meetings: { chat: null, feeds: { allowPrivateHosts: true, timeoutMs: 8000, refreshIntervalMs: 1000 } } }));
      }
      const login = await apps[0]!.inject({ method: 'POST', url: '/login', payload: { username: 'dave', password: DEMO_PASSWORD } });
      const token = AccessTokenResponse.parse(login.json()).access_token;
      const added = await apps[0]!.inject({ method: 'POST', url: '/v1/calendar-feeds', headers: bearer(token), payload: { url: `http://127.0.0.1:${PORT + 3}/cal.ics` } });
      expect(added.statusCode, added.body).toBe(201);
      hold = true;
      await expect.poll(() => reads, { timeout: 20_000, interval: 100 }).toBeGreaterThanOrEqual(2);
      expect(most).toBe(1);
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await Promise.all(dbs.map((d) => d.close()));
      await new Promise((resolve) => feedServer.close(resolve));
    }
  }, 40_000);

  it('an API process killed mid-use: the other answers the same session at once (only a request in flight on the killed one fails, at once), the cluster starts a new one, and the session works on it', async () => {
    const on = `http://127.0.0.1:${PORT + 3}`;
    const cluster = await startApi(
      { DATABASE_URL: url, UC_RUNTIME_DIR: runtimeDir, UC_STATIC_DIR: runtimeDir, UC_API_PORT: String(PORT + 3), UC_API_PROCESSES: '2' },
      /UC API: 2 processes \(pids \d+, \d+\)/,
    );
    try {
      const [first] = /pids (\d+), (\d+)/.exec(cluster.output())!.slice(1).map(Number);
      const res = await login(on, 'alice');
      const { access_token: token, user_id: userId } = AccessTokenResponse.parse(await res.json());
      // A new connection each time: the cluster hands connections to its processes in turn.
      const me = () =>
        fetch(`${on}/v1/users/${userId}`, { headers: { ...bearer(token), connection: 'close' }, signal: AbortSignal.timeout(5000) }).then(
          (r) => r.status,
          (err: Error & { cause?: { code?: string } }) => err.cause?.code ?? err.message,
        );
      const listening = () => cluster.output().match(/UC API listening/g)?.length ?? 0;
      expect(listening()).toBe(2);
      process.kill(first!, 'SIGKILL');
      // Until its replacement listens the process left answers. A request the killed one was
      // answering at that moment fails at once with a reset (the app retries reads, kernel/api.ts);
      // none hangs, as a connection handed to a dead process by the primary would (SCHED_NONE).
      const meanwhile: (number | string)[] = [];
      while (listening() < 3) {
        meanwhile.push(await me());
        if (meanwhile.length > 2000) throw new Error(`no new process after ${meanwhile.length} requests:\n${cluster.output()}`);
      }
      const failed = meanwhile.filter((s) => s !== 200);
      // The dead process's socket ends either way, depending on when the kernel closes it: a reset
      // (ECONNRESET) or undici's "other side closed" (UND_ERR_SOCKET); a browser's fetch gives a
      // TypeError for both, which the app retries for reads.
      expect(failed.filter((s) => s !== 'ECONNRESET' && s !== 'UND_ERR_SOCKET')).toEqual([]);
      expect(failed.length).toBeLessThanOrEqual(1);
      expect(meanwhile.length).toBeGreaterThan(failed.length);
      expect(cluster.output()).toMatch(new RegExp(`UC API process 1 \\(pid ${first}\\) ended \\(SIGKILL\\); starting it again`));
      // Both processes again, the new one among them: the session made before the kill works on each.
      const after: (number | string)[] = [];
      for (let i = 0; i < 6; i++) after.push(await me());
      expect(after).toEqual(Array(6).fill(200));
    } finally {
      await stopApi(cluster);
    }
  }, 90_000);

  it('UC_API_PROCESSES=2 runs two processes on one port, both answering for the first one\'s voicemail phone; PGlite refuses it with the reason', async () => {
    const refused = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: repoRoot,
      env: { ...process.env, UC_API_PROCESSES: '2', DATABASE_URL: '', UC_RUNTIME_DIR: runtimeDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    refused.stderr.on('data', (d: Buffer) => (err += d.toString()));
    expect(await new Promise((resolve) => refused.once('exit', resolve))).toBe(1);
    expect(err).toMatch(/UC_API_PROCESSES=2 needs PostgreSQL .*PGlite\) admits one process/);

    // The real voicemail phone (baresip), driven by the first process: Kamailio's question whether a
    // call may go to voicemail gets the same answer from either process.
    const services = (action: string) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/services/cli.ts', action, 'voicemail'], {
        cwd: repoRoot,
        env: { ...process.env, UC_PORT_BASE: String(PORT + 100), UC_RUNTIME_DIR: runtimeDir },
      });
    await services('start');
    let cluster: ApiProcess | undefined;
    try {
      cluster = await startApi(
        { DATABASE_URL: url, UC_RUNTIME_DIR: runtimeDir, UC_STATIC_DIR: runtimeDir, UC_API_PORT: String(PORT + 2), UC_API_PROCESSES: '2' },
        /UC API: 2 processes \(pids \d+, \d+\)/,
      );
      const pids = /pids (\d+), (\d+)/.exec(cluster.output())!.slice(1).map(Number);
      const internal = { 'x-uc-internal': (await loadOrCreateSecret(runtimeDir, SECRET_NAMES.internalApi)).toString('base64url'), connection: 'close' };
      // A new connection each; the answer says which process gave it.
      const ask = async () => {
        const res = await fetch(`http://127.0.0.1:${PORT + 2}/internal/sip/route?callee=1001&on=voicemail`, { headers: internal });
        return { by: res.headers.get('x-uc-process'), answer: await res.text() };
      };
      // Until the phone is connected, and both processes know it: each process answers voicemail.
      const answered = new Map<string | null, string>();
      await expect
        .poll(async () => {
          const a = await ask();
          answered.set(a.by, a.answer);
          return Object.fromEntries(answered);
        }, { timeout: 30_000 })
        .toEqual({ 1: 'voicemail:1001', 2: 'voicemail:1001' });
      const answers: string[] = [];
      for (let i = 0; i < 6; i++) answers.push((await ask()).answer);
      expect(answers).toEqual(Array(6).fill('voicemail:1001'));
      await stopApi(cluster);
      // Stopping the primary stops its workers.
      for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
    } finally {
      await stopApi(cluster);
      await services('stop');
    }
  }, 90_000);
});

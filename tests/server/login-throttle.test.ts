import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { THROTTLE } from '../../server/auth/throttle';
import { ApiErrorBody } from '../../src/wire';
import { backends, startTestServer, type TestServer } from './helpers';

describe.each(backends)('login throttle ($name)', (backend) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(backend);
  });
  afterAll(() => t?.close());

  let n = 0;
  /** Each test signs in from its own client address, so the per-client count of one test never spills into another. */
  const client = () => `10.0.${Math.floor(++n / 250)}.${n % 250}`;
  const login = (username: string, password: string, ip: string, app = t.app) =>
    app.inject({ method: 'POST', url: '/login', payload: { username, password }, remoteAddress: ip });
  /** The wait is over without waiting: the test moves the block into the past. */
  const endBlocks = () => t.db.query(`UPDATE login_failures SET blocked_until = now() - interval '1 second'`);

  it('blocks an account after a few failures with 429 and Retry-After, growing, even for the right password', async () => {
    const ip = client();
    for (let i = 0; i < THROTTLE.freeFailures.account; i++) expect((await login('bob', 'wrong', ip)).statusCode).toBe(401);
    const blocked = await login('bob', 'wrong', ip);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBe(1);
    const body = ApiErrorBody.parse(blocked.json());
    expect(body).toMatchObject({ error: 'too_many_attempts', retry_after: 1 });
    // While blocked, the password is not even looked at.
    const right = await login('bob', 'Demo-pass-1', client());
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await endBlocks();
    expect((await login('bob', 'wrong', ip)).headers['retry-after']).toBe('2');
    await endBlocks();
    expect((await login('bob', 'wrong', ip)).headers['retry-after']).toBe('4');
    await endBlocks();
    // Temporary: once the wait is over the right password works, and clears the account's count.
    expect((await login('bob', 'Demo-pass-1', ip)).statusCode).toBe(200);
    expect((await login('bob', 'wrong', ip)).statusCode).toBe(401);
  });

  it('never throttles correct sign-ins', async () => {
    const ip = client();
    for (let i = 0; i < 40; i++) expect((await login('carol', 'Demo-pass-1', ip)).statusCode).toBe(200);
  });

  it('blocks a client address spraying many accounts, not other addresses', async () => {
    const ip = client();
    for (let i = 0; i < THROTTLE.freeFailures.client; i++) expect((await login(`nobody${i}`, 'x', ip)).statusCode).toBe(401);
    expect((await login('someone-else', 'x', ip)).statusCode).toBe(429);
    expect((await login('alice', 'Demo-pass-1', ip)).statusCode).toBe(429);
    expect((await login('alice', 'Demo-pass-1', client())).statusCode).toBe(200);
  });

  it('forgets failures after a quiet window', async () => {
    const ip = client();
    for (let i = 0; i < THROTTLE.freeFailures.account; i++) await login('olivia', 'wrong', ip);
    await t.db.query(`UPDATE login_failures SET last_failure_at = now() - make_interval(secs => $1 + 1)`, [THROTTLE.windowSeconds]);
    expect((await login('olivia', 'wrong', client())).statusCode).toBe(401);
  });

  it('is shared by every API copy on the database', async () => {
    const runtimeDir = await mkdtemp(path.join(tmpdir(), 'uc-api-copy-'));
    const copy = await buildApp({ db: t.db, runtimeDir });
    try {
      const ip = client();
      for (let i = 0; i < THROTTLE.freeFailures.account; i++) await login('dave', 'wrong', ip, i % 2 ? copy : t.app);
      expect((await login('dave', 'wrong', ip, copy)).statusCode).toBe(429);
      expect((await login('dave', 'Demo-pass-1', client(), t.app)).statusCode).toBe(429);
    } finally {
      await copy.close();
      await rm(runtimeDir, { recursive: true, force: true });
    }
  });
});

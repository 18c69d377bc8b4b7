import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessTokenResponse } from '../../src/wire/auth';
import { ApiErrorBody } from '../../src/wire/common';
import { MOBILE_CODE_TTL_SECONDS, MobileApps, MobileAuthResponse } from '../../src/wire/mobile';
import { backends, bearer, startTestServer, type TestServer } from './helpers';

describe.each(backends)('mobile sign-in codes ($name)', (backend) => {
  let t: TestServer;
  let alice: string;
  beforeAll(async () => {
    t = await startTestServer(backend, { app: { settings: { mobileIosUrl: 'https://apps.example.com/uc', mobileAndroidUrl: undefined } } });
    alice = await t.login('alice');
  });
  afterAll(() => t?.close());

  const issue = async (token: string) => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/mobile-auth', headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    return MobileAuthResponse.parse(res.json());
  };
  const redeem = (code: unknown) => t.app.inject({ method: 'POST', url: '/login/mobile', payload: { code }, remoteAddress: '10.9.8.7' });

  it("a code signs the mobile app in as its user, once: the second use is refused", async () => {
    const { access_token: code, expires_in } = await issue(alice);
    expect(expires_in).toBe(MOBILE_CODE_TTL_SECONDS);
    const first = await redeem(code);
    expect(first.statusCode, first.body).toBe(200);
    const session = AccessTokenResponse.parse(first.json());
    expect(session.user_id).toBe(await t.userId('alice'));
    // The new session works like any other: the app reads the user's own data with it.
    expect((await t.app.inject({ method: 'GET', url: '/v1/mobile-apps', headers: bearer(session.access_token) })).statusCode).toBe(200);
    const again = await redeem(code);
    expect(again.statusCode).toBe(401);
    expect(ApiErrorBody.parse(again.json()).message).toMatch(/not valid any more/);
  });

  it('an expired code is refused, and a new one works', async () => {
    const { access_token: code } = await issue(alice);
    // The clock of the database decides; move the code's end into the past rather than wait a minute.
    await t.db.query(`UPDATE mobile_sign_in_codes SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`);
    expect((await redeem(code)).statusCode).toBe(401);
    expect((await redeem((await issue(alice)).access_token)).statusCode).toBe(200);
  });

  it('codes are per request and unguessable; a made-up or malformed code gets a 4xx with a message', async () => {
    const [a, b] = [await issue(alice), await issue(alice)];
    expect(a.access_token).not.toBe(b.access_token);
    expect(a.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const bad of ['x'.repeat(43), '', 'a\u0000b', 'x'.repeat(5000), 42, null]) {
      const res = await redeem(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(ApiErrorBody.parse(res.json()).message.length).toBeGreaterThan(0);
    }
  });

  it('a user turned off (Enabled = No) cannot spend a code issued before, and their sessions end', async () => {
    const bob = await t.login('bob');
    const { access_token: code } = await issue(bob);
    await t.db.query(`UPDATE users SET enabled = false WHERE username = 'bob'`);
    try {
      expect((await redeem(code)).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: '/v1/mobile-apps', headers: bearer(bob) })).statusCode).toBe(401);
    } finally {
      await t.db.query(`UPDATE users SET enabled = true WHERE username = 'bob'`);
    }
  });

  it('only a signed-in user gets a code; the store links are the deployment\'s https ones', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v1/mobile-auth' })).statusCode).toBe(401);
    const res = await t.app.inject({ method: 'GET', url: '/v1/mobile-apps', headers: bearer(alice) });
    expect(MobileApps.parse(res.json())).toEqual({ ios: 'https://apps.example.com/uc' });
  });
});

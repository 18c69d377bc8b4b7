import type { LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessTokenResponse, ApiErrorBody, REFRESH_COOKIE } from '../../src/wire';
import { jwtKeyPath } from '../../server/auth/jwt-secret';
import { signGuestToken } from '../../server/auth/tokens';
import { backends, bearer, startTestServer, type TestServer } from './helpers';

describe.each(backends)('auth ($name)', (backend) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(backend);
  });
  afterAll(() => t?.close());

  const login = (body: unknown) => t.app.inject({ method: 'POST', url: '/login', payload: body as object });
  const refreshCookie = (res: LightMyRequestResponse) => res.cookies.find((c) => c.name === REFRESH_COOKIE);

  it('logs in and sets an httpOnly SameSite=Strict session cookie', async () => {
    const res = await login({ username: 'alice', password: 'Demo-pass-1' });
    expect(res.statusCode).toBe(200);
    const body = AccessTokenResponse.parse(res.json());
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 900, user_id: await t.userId('alice') });
    expect(res.headers['cache-control']).toBe('no-store');
    const cookie = refreshCookie(res)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie.value.length).toBeGreaterThanOrEqual(40);
    // No Max-Age/Expires without "remember": the cookie ends with the browser session.
    expect(cookie.maxAge).toBeUndefined();
    expect(cookie.expires).toBeUndefined();
    // Only a hash of the token is stored.
    const stored = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM sessions');
    expect(stored.rows.some((r) => r.token_hash === cookie.value)).toBe(false);
  });

  it('remember: true gives a 30-day persistent cookie', async () => {
    const res = await login({ username: 'bob', password: 'Demo-pass-1', remember: true });
    expect(res.statusCode).toBe(200);
    expect(refreshCookie(res)!.maxAge).toBe(30 * 24 * 3600);
  });

  it('usernames are case-insensitive and trimmed', async () => {
    expect((await login({ username: '  ALICE ', password: 'Demo-pass-1' })).statusCode).toBe(200);
  });

  it('a wrong password and an unknown user get the same 401', async () => {
    const wrong = await login({ username: 'alice', password: 'nope' });
    const unknown = await login({ username: 'nobody-here', password: 'Demo-pass-1' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'login_failed', message: 'Login Failed: Please try again.' });
      expect(refreshCookie(res)).toBeUndefined();
    }
  });

  it('an invalid login body is a 400 with details', async () => {
    const res = await login({ username: '', password: 'x' });
    expect(res.statusCode).toBe(400);
    const body = ApiErrorBody.parse(res.json());
    expect(body.details).toContainEqual({ path: 'username', message: 'Username is required' });
    const noBody = await t.app.inject({ method: 'POST', url: '/login' });
    expect(noBody.statusCode).toBe(400);
    ApiErrorBody.parse(noBody.json());
  });

  it('renews the access token from the refresh cookie', async () => {
    const res = await login({ username: 'carol', password: 'Demo-pass-1' });
    const cookie = refreshCookie(res)!;
    const renew = await t.app.inject({ method: 'GET', url: '/v1/access-token', cookies: { [REFRESH_COOKIE]: cookie.value } });
    expect(renew.statusCode).toBe(200);
    const body = AccessTokenResponse.parse(renew.json());
    expect(body.user_id).toBe(await t.userId('carol'));
    const profile = await t.app.inject({ url: `/v1/users/${body.user_id}`, headers: bearer(body.access_token) });
    expect(profile.statusCode).toBe(200);
  });

  it('renewal without a cookie, with an unknown or an expired one is a 401', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/v1/access-token' });
    expect(none.statusCode).toBe(401);
    ApiErrorBody.parse(none.json());
    const bogus = await t.app.inject({ method: 'GET', url: '/v1/access-token', cookies: { [REFRESH_COOKIE]: 'not-a-session' } });
    expect(bogus.statusCode).toBe(401);

    const res = await login({ username: 'dave', password: 'Demo-pass-1' });
    const cookie = refreshCookie(res)!;
    await t.db.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [await t.userId('dave')]);
    const expired = await t.app.inject({ method: 'GET', url: '/v1/access-token', cookies: { [REFRESH_COOKIE]: cookie.value } });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error).toBe('session_expired');
  });

  it('a session cookie still expires server-side after 12 hours', async () => {
    await login({ username: 'olivia', password: 'Demo-pass-1' });
    const { rows } = await t.db.query<{ hours: number }>(
      `SELECT round(extract(epoch FROM expires_at - created_at) / 3600)::int AS hours FROM sessions WHERE user_id = $1`,
      [await t.userId('olivia')],
    );
    expect(rows.map((r) => r.hours)).toContain(12);
  });

  it('logout revokes the refresh token and clears the cookie', async () => {
    const res = await login({ username: 'alice', password: 'Demo-pass-1' });
    const cookie = refreshCookie(res)!;
    const out = await t.app.inject({ method: 'POST', url: '/logout', cookies: { [REFRESH_COOKIE]: cookie.value } });
    expect(out.statusCode).toBe(204);
    const cleared = refreshCookie(out)!;
    expect(cleared.value).toBe('');
    expect(new Date(cleared.expires!).getTime()).toBeLessThan(Date.now());
    const renew = await t.app.inject({ method: 'GET', url: '/v1/access-token', cookies: { [REFRESH_COOKIE]: cookie.value } });
    expect(renew.statusCode).toBe(401);
  });

  it('logout ends the access tokens of that session at once, and only those', async () => {
    const first = await login({ username: 'carol', password: 'Demo-pass-1' });
    const other = await login({ username: 'carol', password: 'Demo-pass-1' });
    const cookie = refreshCookie(first)!;
    const renewed = await t.app.inject({ method: 'GET', url: '/v1/access-token', cookies: { [REFRESH_COOKIE]: cookie.value } });
    const bearers = [first.json().access_token as string, renewed.json().access_token as string];
    for (const token of bearers) expect((await t.app.inject({ url: '/v1/ucc-config', headers: bearer(token) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/logout', cookies: { [REFRESH_COOKIE]: cookie.value } })).statusCode).toBe(204);
    for (const token of bearers) {
      const res = await t.app.inject({ url: '/v1/ucc-config', headers: bearer(token) });
      expect(res.statusCode).toBe(401);
      expect(ApiErrorBody.parse(res.json()).error).toBe('session_ended');
    }
    // The same user's other session (another browser) goes on.
    expect((await t.app.inject({ url: '/v1/ucc-config', headers: bearer(other.json().access_token) })).statusCode).toBe(200);
  });

  it('a validly signed token that names no session is refused', async () => {
    const key = Buffer.from((await readFile(jwtKeyPath(t.runtimeDir), 'utf8')).trim(), 'base64url');
    const sessionless = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(`user:${await t.userId('alice')}`)
      .setIssuer('uc-api')
      .setAudience('uc-api')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new Uint8Array(key));
    expect((await t.app.inject({ url: '/v1/ucc-config', headers: bearer(sessionless) })).statusCode).toBe(401);
  });

  it('logout without a cookie, or with an empty JSON body, still succeeds', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/logout', headers: { 'content-type': 'application/json' }, payload: '' });
    expect(res.statusCode).toBe(204);
  });

  it('bearer endpoints answer 401 without or with a bad token', async () => {
    const id = await t.userId('alice');
    const guest = await signGuestToken('g@example.com', '1', new Uint8Array(Buffer.from((await readFile(jwtKeyPath(t.runtimeDir), 'utf8')).trim(), 'base64url')));
    const cases: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer' },
      { authorization: 'Basic YWxpY2U6RGVtby1wYXNzLTE=' },
      { authorization: 'Bearer a.b' },
      { authorization: 'Bearer not.a.token' },
      { authorization: `Bearer ${guest}` },
    ];
    for (const headers of cases) {
      for (const url of ['/v1/ucc-config', `/v1/users/${id}`, '/v1/user-preferences/uc-language', `/v2/users/${id}/call-history`]) {
        const res = await t.app.inject({ url, headers });
        expect(res.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(401);
        ApiErrorBody.parse(res.json());
      }
    }
  });

  it('an expired access token is a 401 token_expired', async () => {
    const key = Buffer.from((await readFile(jwtKeyPath(t.runtimeDir), 'utf8')).trim(), 'base64url');
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(`user:${await t.userId('alice')}`)
      .setIssuer('uc-api')
      .setAudience('uc-api')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 1800)
      .sign(new Uint8Array(key));
    const res = await t.app.inject({ url: '/v1/ucc-config', headers: bearer(expired) });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('token_expired');
  });

  it('keeps the JWT key private (mode 600)', async () => {
    const { stat } = await import('node:fs/promises');
    expect((await stat(jwtKeyPath(t.runtimeDir))).mode & 0o777).toBe(0o600);
  });
});

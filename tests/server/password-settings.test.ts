import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_REUSED_MESSAGE } from '../../src/wire/password';
import { UC_SETTINGS_DEFAULTS } from '../../src/wire/ucSettings';
import { REFRESH_COOKIE } from '../../src/wire/auth';
import { DEMO_PASSWORD } from '../../server/seed';
import { backends, bearer, startTestServer, type TestServer } from './helpers';

describe.each(backends)('password change and UC settings ($name)', (backend) => {
  let t: TestServer;
  let daveId: number;
  let carolId: number;
  beforeAll(async () => {
    t = await startTestServer(backend);
    [daveId, carolId] = await Promise.all([t.userId('dave'), t.userId('carol')]);
  });
  afterAll(() => t?.close());

  const change = (token: string, id: number, body: unknown) => t.app.inject({ method: 'PATCH', url: `/v1/users/${id}`, payload: body as object, headers: bearer(token) });
  const me = (token: string, id: number) => t.app.inject({ url: `/v1/users/${id}`, headers: bearer(token) });
  const signIn = async (username: string, password: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/login', payload: { username, password } });
    return { status: res.statusCode, token: res.statusCode === 200 ? (res.json().access_token as string) : '', cookie: res.cookies.find((c) => c.name === REFRESH_COOKIE)?.value };
  };

  it('changes the password: this session goes on, the other sessions end, the new password signs in and the old one no longer does', async () => {
    const here = await signIn('dave', DEMO_PASSWORD);
    const elsewhere = await signIn('dave', DEMO_PASSWORD);
    const res = await change(here.token, daveId, { current_password: DEMO_PASSWORD, new_password: 'Fresh-pass-2' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await me(here.token, daveId)).statusCode).toBe(200);
    expect((await me(elsewhere.token, daveId)).statusCode).toBe(401);
    const renew = await t.app.inject({ method: 'GET', url: '/v1/access-token', cookies: { [REFRESH_COOKIE]: elsewhere.cookie! } });
    expect(renew.statusCode).toBe(401);
    expect((await signIn('dave', DEMO_PASSWORD)).status).toBe(401);
    expect((await signIn('dave', 'Fresh-pass-2')).status).toBe(200);
  });

  it('refuses the last five passwords with the exact message, and takes a sixth-oldest again', async () => {
    const { token } = await signIn('dave', 'Fresh-pass-2');
    // History so far: Demo-pass-1, Fresh-pass-2 (current). Three more changes make five.
    for (const [from, to] of [['Fresh-pass-2', 'Fresh-pass-3'], ['Fresh-pass-3', 'Fresh-pass-4'], ['Fresh-pass-4', 'Fresh-pass-5']]) {
      expect((await change(token, daveId, { current_password: from, new_password: to })).statusCode).toBe(200);
    }
    for (const old of [DEMO_PASSWORD, 'Fresh-pass-2', 'Fresh-pass-4', 'Fresh-pass-5']) {
      const res = await change(token, daveId, { current_password: 'Fresh-pass-5', new_password: old });
      expect(res.statusCode, old).toBe(400);
      expect(res.json()).toMatchObject({ error: 'password_reused', message: PASSWORD_REUSED_MESSAGE });
    }
    // A sixth change pushes the demo password out of the last five.
    expect((await change(token, daveId, { current_password: 'Fresh-pass-5', new_password: 'Fresh-pass-6' })).statusCode).toBe(200);
    const back = await change(token, daveId, { current_password: 'Fresh-pass-6', new_password: DEMO_PASSWORD });
    expect(back.statusCode, back.body).toBe(200);
  });

  it('answers a wrong current password, a weak or half request, or someone else\'s password with a 4xx, never a 500', async () => {
    const { token } = await signIn('dave', DEMO_PASSWORD);
    const cases: [unknown, number, string][] = [
      [{ current_password: 'wrong', new_password: 'Other-pass-9' }, 400, 'current_password_mismatch'],
      [{ current_password: DEMO_PASSWORD, new_password: 'short' }, 400, 'validation_failed'],
      [{ current_password: DEMO_PASSWORD, new_password: 'nodigits-Here' }, 400, 'validation_failed'],
      [{ current_password: DEMO_PASSWORD, new_password: 'Nospecial9' }, 400, 'validation_failed'],
      [{ current_password: DEMO_PASSWORD }, 400, 'validation_failed'],
      [{ new_password: 'Other-pass-9' }, 400, 'validation_failed'],
      [{ current_password: DEMO_PASSWORD, new_password: 'Other-pass-9', first_name: 'X' }, 400, 'validation_failed'],
      [{ current_password: 12, new_password: 'Other-pass-9' }, 400, 'validation_failed'],
    ];
    for (const [body, status, error] of cases) {
      const res = await change(token, daveId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error, JSON.stringify(body)).toBe(error);
    }
    const other = await change(token, carolId, { current_password: DEMO_PASSWORD, new_password: 'Other-pass-9' });
    expect(other.statusCode).toBe(403);
    // Nothing changed.
    expect((await signIn('dave', DEMO_PASSWORD)).status).toBe(200);
    expect((await signIn('carol', DEMO_PASSWORD)).status).toBe(200);
  });

  it('throttles wrong current passwords like failed sign-ins: past five, even the right one must wait', async () => {
    const { token } = await signIn('bob', DEMO_PASSWORD);
    const bobId = await t.userId('bob');
    for (let i = 0; i < 6; i++) expect((await change(token, bobId, { current_password: `wrong-${i}`, new_password: 'Other-pass-9' })).statusCode).toBe(400);
    const res = await change(token, bobId, { current_password: DEMO_PASSWORD, new_password: 'Other-pass-9' });
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toBe('too_many_attempts');
    expect((await signIn('bob', DEMO_PASSWORD)).status).toBe(200);
  });

  it('keeps the six UC settings per user: defaults, a partial PUT merges, unknown or mistyped keys are refused, only one\'s own', async () => {
    const { token } = await signIn('carol', DEMO_PASSWORD);
    const url = `/v1/users/${carolId}/settings/uc`;
    expect((await t.app.inject({ url, headers: bearer(token) })).json()).toEqual(UC_SETTINGS_DEFAULTS);
    const put = (payload: unknown) => t.app.inject({ method: 'PUT', url, payload: payload as object, headers: bearer(token) });
    expect((await put({ expand_nav: false })).json()).toEqual({ ...UC_SETTINGS_DEFAULTS, expand_nav: false });
    expect((await put({ share_presence: false, auto_record_audio: true })).json()).toEqual({ ...UC_SETTINGS_DEFAULTS, expand_nav: false, share_presence: false, auto_record_audio: true });
    expect((await t.app.inject({ url, headers: bearer(token) })).json()).toMatchObject({ expand_nav: false, share_presence: false, auto_record_audio: true });
    expect((await put({ expand_nav: 'yes' })).statusCode).toBe(400);
    expect((await put({ colour: true })).statusCode).toBe(400);
    const dave = await signIn('dave', DEMO_PASSWORD);
    expect((await t.app.inject({ url, headers: bearer(dave.token) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url, payload: { expand_nav: true }, headers: bearer(dave.token) })).statusCode).toBe(403);
    expect((await t.app.inject({ url })).statusCode).toBe(401);
  });
});

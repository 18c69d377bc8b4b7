/**
 * `POST /v1/calls/click-dial` refuses before any phone rings: no token, a number Kamailio would not
 * route, the option off, the user's own extension, no extension, no click-dial phone, and more than
 * the minute's allowance. What happens once it rings is tests/services/click-dial.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClickDialPhone } from '../../server/calls/click-dial';
import { CLICK_DIALS_PER_MINUTE } from '../../server/calls/click-dial-routes';
import { admitClickDial, releaseClickDial } from '../../server/calls/click-dial-limits';
import { buildApp } from '../../server/app';
import { backends, bearer, startTestServer, type TestServer } from './helpers';

/** A phone that is up (or not) but never rings anything: nothing here gets that far (the registrar is not running). */
const idlePhone: ClickDialPhone & { ready: boolean } = { ready: true, ring: () => Promise.reject(new Error('not in these tests')), close: () => undefined };

describe.each(backends)('click-dial requests ($name)', (backend) => {
  let t: TestServer;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    t = await startTestServer(backend, { app: { clickDialPhone: idlePhone } });
    for (const u of ['alice', 'bob', 'carol']) tokens[u] = await t.login(u);
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (server: TestServer, token: string | null, body: unknown) =>
    server.app.inject({ method: 'POST', url: '/v1/calls/click-dial', headers: token ? bearer(token) : {}, payload: body as object });
  const turnOn = (server: TestServer, token: string, value: unknown = { enabled: true, device: 'desk' }) =>
    server.app.inject({ method: 'PUT', url: '/v1/user-preferences/uc-click-dial', headers: bearer(token), payload: { value } });

  it('asks who is calling', async () => {
    expect((await post(t, null, { number: '1002' })).statusCode).toBe(401);
  });

  it('takes an extension or an outside number only, and nothing else in the body', async () => {
    for (const body of [{}, { number: '' }, { number: 'abc' }, { number: '12*' }, { number: 'sip:1002@uc.local' }, { number: '1234567890123456' }, { number: 1002 }, { number: '1002', device: 'mobile' }]) {
      const res = await post(t, tokens.alice!, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation_failed', message: 'Invalid click-dial request' });
    }
  });

  it('the setting is checked as it is saved: a desk phone only', async () => {
    expect((await turnOn(t, tokens.alice!, { enabled: true, device: 'mobile' })).statusCode).toBe(400);
    expect((await turnOn(t, tokens.alice!, { enabled: 'yes', device: 'desk' })).statusCode).toBe(400);
  });

  it('refuses while the option is off, so no one can ring a desk phone that never asked for it', async () => {
    const res = await post(t, tokens.bob!, { number: '1002' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'click_dial_off', message: '"Call my phone first" is off in your calling preferences' });
    expect((await turnOn(t, tokens.bob!, { enabled: false, device: 'desk' })).statusCode).toBe(200);
    expect((await post(t, tokens.bob!, { number: '1001' })).json()).toMatchObject({ error: 'click_dial_off' });
  });

  it("refuses the user's own extension, and a user without one", async () => {
    expect((await turnOn(t, tokens.alice!)).statusCode).toBe(200);
    const own = await post(t, tokens.alice!, { number: '1001' });
    expect(own.statusCode).toBe(400);
    expect(own.json()).toMatchObject({ error: 'own_number', message: 'That is your own extension' });

    await turnOn(t, tokens.carol!);
    await t.db.query(`UPDATE users SET extension = NULL WHERE username = 'carol'`);
    try {
      expect((await post(t, tokens.carol!, { number: '1001' })).json()).toMatchObject({ error: 'sip_not_configured' });
    } finally {
      await t.db.query(`UPDATE users SET extension = '1003' WHERE username = 'carol'`);
    }
  });

  it('says so when the click-dial phone is not connected', async () => {
    await turnOn(t, tokens.bob!);
    idlePhone.ready = false;
    try {
      const res = await post(t, tokens.bob!, { number: '1001' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ error: 'click_dial_unavailable' });
    } finally {
      idlePhone.ready = true;
    }
  });

  it(`allows ${CLICK_DIALS_PER_MINUTE} a minute per user, then 429 with when to try again; others are not held back`, async () => {
    // Each attempt counts even though it fails further on (the SIP registrar is not running here).
    for (let i = 0; i < CLICK_DIALS_PER_MINUTE; i++) expect((await post(t, tokens.alice!, { number: '1002' })).json()).toMatchObject({ error: 'sip_unavailable' });
    const refused = await post(t, tokens.alice!, { number: '1002' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'too_many_click_dials', retry_after: expect.any(Number) });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await post(t, tokens.carol!, { number: '1002' })).json()).toMatchObject({ error: 'sip_unavailable' });
  });

  it('two API processes on one database share the allowance: starts on either count against both', async () => {
    // A second app on the same database, as a second process of a cluster would be.
    const other = await buildApp({ db: t.db, runtimeDir: t.runtimeDir, clickDialPhone: idlePhone });
    try {
      const bob = tokens.bob!;
      expect((await turnOn(t, bob)).statusCode).toBe(200);
      for (let i = 0; i < CLICK_DIALS_PER_MINUTE; i++) {
        const on = i % 2 ? other : t.app;
        const res = await on.inject({ method: 'POST', url: '/v1/calls/click-dial', headers: bearer(bob), payload: { number: '1001' } });
        expect(res.json()).toMatchObject({ error: 'sip_unavailable' });
      }
      for (const on of [t.app, other]) {
        const refused = await on.inject({ method: 'POST', url: '/v1/calls/click-dial', headers: bearer(bob), payload: { number: '1001' } });
        expect(refused.json()).toMatchObject({ error: 'too_many_click_dials' });
      }
    } finally {
      await other.close();
    }
  });

  it('one ring at a time per user, whichever process took it; a ring its process never ended frees the user after its lease', async () => {
    const dave = await t.userId('dave');
    expect(await admitClickDial(t.db, dave)).toEqual({ ok: true });
    expect(await admitClickDial(t.db, dave)).toEqual({ ok: false, reason: 'in_progress' });
    await releaseClickDial(t.db, dave);
    expect(await admitClickDial(t.db, dave)).toEqual({ ok: true });
    // The process holding it died mid-ring: the lease runs out.
    await t.db.query(`UPDATE click_dial_active SET since = now() - interval '121 seconds' WHERE user_id = $1`, [dave]);
    expect(await admitClickDial(t.db, dave)).toEqual({ ok: true });
    await releaseClickDial(t.db, dave);
  });
});

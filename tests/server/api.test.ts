import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody, FEATURE_FLAGS, PreferenceResponse, Profile, UccConfig } from '../../src/wire';
import { buildApp } from '../../server/app';
import { readUccSettings } from '../../server/settings';
import { backends, bearer, startTestServer, type TestServer } from './helpers';

describe.each(backends)('API ($name)', (backend) => {
  let t: TestServer;
  let alice: string;
  let rita: string;
  let ids: Record<'alice' | 'bob' | 'dave' | 'olivia' | 'rita', number>;
  beforeAll(async () => {
    t = await startTestServer(backend);
    [alice, rita] = await Promise.all([t.login('alice'), t.login('rita')]);
    ids = {
      alice: await t.userId('alice'),
      bob: await t.userId('bob'),
      dave: await t.userId('dave'),
      olivia: await t.userId('olivia'),
      rita: await t.userId('rita'),
    };
  });
  afterAll(() => t?.close());

  const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
  const put = (url: string, token: string, payload: unknown) =>
    t.app.inject({ method: 'PUT', url, headers: { ...bearer(token), 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
  const expectError = (res: { statusCode: number; json(): unknown }, status: number) => {
    expect(res.statusCode).toBe(status);
    return ApiErrorBody.parse(res.json());
  };

  describe('GET /health', () => {
    it('is ok without a token', async () => {
      const res = await t.app.inject({ url: '/health' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
    });
  });

  describe('GET /v1/ucc-config', () => {
    it('matches the wire schema with every feature flag', async () => {
      const res = await get('/v1/ucc-config', alice);
      expect(res.statusCode).toBe(200);
      const config = UccConfig.parse(res.json());
      expect(Object.keys(config.features).sort()).toEqual([...FEATURE_FLAGS].sort());
      expect(config.client_id).toBe('uccweb.v7');
      expect(config.branding).toEqual({ product_name: 'Acme UC', logo_url: null, accent_color: '#2563eb' });
      expect(config.features).toMatchObject({ ucDisabled: false, sso: false, voicemail2: true, threeWayCallingFirefox: false, attendedTransfer: true });
      expect(config.sip).toMatchObject({ configured: true, domain: 'uc.local', register_expires: 300, no_answer_timeout: 60, stun_port: 3478, restart_after_online_ms: 10000 });
      expect(config.messaging).toMatchObject({ enabled: true, domain: 'uc.local', muc_domain: 'conference.uc.local', ping_interval_ms: 30000, ping_timeout_ms: 25000, history_page_size: 25 });
      expect(config.sip.ws_url).toMatch(/^wss?:\/\//);
      expect(config.mailbox_number).toBe('1001');
    });

    it('says whether e-mail is set up: only with UC_SMTP_URL (voicemail e-mails need it)', async () => {
      expect(UccConfig.parse((await get('/v1/ucc-config', alice)).json()).email_configured).toBe(false);
      expect(readUccSettings({ UC_SMTP_URL: 'smtp://127.0.0.1:2525' }).smtpUrl).toBe('smtp://127.0.0.1:2525');
      expect(readUccSettings({}).smtpUrl).toBeUndefined();
      // A second app on the same database and secrets: the same token is good there.
      const withMail = await buildApp({ db: t.db, runtimeDir: t.runtimeDir, settings: { smtpUrl: 'smtp://127.0.0.1:2525' } });
      try {
        const res = await withMail.inject({ url: '/v1/ucc-config', headers: bearer(alice) });
        expect(UccConfig.parse(res.json()).email_configured).toBe(true);
      } finally {
        await withMail.close();
      }
    });

    it('keeps the limited-access role out of chat', async () => {
      const dave = await t.login('dave');
      const config = UccConfig.parse((await get('/v1/ucc-config', dave)).json());
      expect(config.messaging.enabled).toBe(false);
      expect(config.sip.configured).toBe(true);
    });

    it('says calling is not configured for a user without an extension', async () => {
      await t.db.query(`UPDATE users SET extension = NULL WHERE username = 'carol'`);
      try {
        const carol = await t.login('carol');
        const config = UccConfig.parse((await get('/v1/ucc-config', carol)).json());
        expect(config.sip.configured).toBe(false);
        expect(config.mailbox_number).toBeNull();
      } finally {
        await t.db.query(`UPDATE users SET extension = '1003' WHERE username = 'carol'`);
      }
    });

    it('gives reseller-level and customer-level users different help links', async () => {
      const customer = UccConfig.parse((await get('/v1/ucc-config', alice)).json());
      const reseller = UccConfig.parse((await get('/v1/ucc-config', rita)).json());
      expect(reseller.help_url).not.toBe(customer.help_url);
      expect(reseller.mailbox_number).toBe('2000');
    });

    it('says whether the server can send e-mail (no SMTP server set here)', async () => {
      const config = UccConfig.parse((await get('/v1/ucc-config', alice)).json());
      expect(config.email_configured).toBe(false);
    });
  });

  describe('GET /v1/users/{id}', () => {
    it("returns one's own profile", async () => {
      const res = await get(`/v1/users/${ids.alice}`, alice);
      expect(res.statusCode).toBe(200);
      const profile = Profile.parse(res.json());
      expect(profile).toMatchObject({
        user_id: ids.alice,
        username: 'alice',
        first_name: 'Alice',
        email: 'alice@acme.example',
        c2d_peer_type: 2,
        company: 'Acme Corp',
        role_id: 3,
        extension: '1001',
        is_reseller_level: false,
      });
      expect(profile.phone_numbers).toEqual([{ source: 'extension', source_id: null, extension: '1001', number: null, is_primary: true }]);
    });

    it("returns a colleague's profile within the organisation", async () => {
      const res = await get(`/v1/users/${ids.olivia}`, alice);
      expect(res.statusCode).toBe(200);
      expect(Profile.parse(res.json())).toMatchObject({ username: 'olivia', role_id: 1, extension: '1000' });
      const limited = Profile.parse((await get(`/v1/users/${ids.dave}`, alice)).json());
      expect(limited.role_id).toBe(4);
    });

    it('marks reseller-level users', async () => {
      const res = await get(`/v1/users/${ids.rita}`, rita);
      expect(Profile.parse(res.json())).toMatchObject({ is_reseller_level: true, role_id: 2, company: 'Northwind Partners' });
    });

    it('refuses other organisations and unknown ids alike (403)', async () => {
      expectError(await get(`/v1/users/${ids.rita}`, alice), 403);
      expectError(await get(`/v1/users/${ids.alice}`, rita), 403);
      expectError(await get('/v1/users/999999', alice), 403);
    });

    it('rejects a malformed id (400)', async () => {
      for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
        const body = expectError(await get(`/v1/users/${id}`, alice), 400);
        expect(body.details?.[0]?.path).toBe('id');
      }
    });
  });

  describe('/v1/user-preferences/{key}', () => {
    it('404 when unset, then PUT, then GET', async () => {
      const missing = expectError(await get('/v1/user-preferences/uc-home-page', alice), 404);
      expect(missing.error).toBe('not_found');

      const saved = await put('/v1/user-preferences/uc-home-page', alice, { value: 'history' });
      expect(saved.statusCode).toBe(200);
      expect(PreferenceResponse.parse(saved.json())).toEqual({ key: 'uc-home-page', value: 'history' });

      const read = await get('/v1/user-preferences/uc-home-page', alice);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual({ key: 'uc-home-page', value: 'history' });
    });

    it('stores any JSON value, including arrays, objects, false and null, and overwrites', async () => {
      for (const value of [['a', 'b'], { url: '/bg/3.jpg', random: false }, false, null, 0, { sms: 90, group_sms: 90, chat: 90, group_chat: 90 }]) {
        const res = await put('/v1/user-preferences/uc-messages-cut-off', alice, { value });
        expect(res.statusCode).toBe(200);
        expect((await get('/v1/user-preferences/uc-messages-cut-off', alice)).json()).toEqual({ key: 'uc-messages-cut-off', value });
      }
    });

    it("are per user: bob does not see alice's", async () => {
      await put('/v1/user-preferences/uc-language', alice, { value: 'fr' });
      const bobToken = await t.login('bob');
      expectError(await get('/v1/user-preferences/uc-language', bobToken), 404);
      await put('/v1/user-preferences/uc-language', bobToken, { value: 'de' });
      expect((await get('/v1/user-preferences/uc-language', alice)).json().value).toBe('fr');
    });

    it('unknown key → 400 (GET and PUT)', async () => {
      expect(expectError(await get('/v1/user-preferences/no-such-key', alice), 400).error).toBe('unknown_preference');
      expectError(await put('/v1/user-preferences/no-such-key', alice, { value: 1 }), 400);
    });

    it('a value over 64 KiB of JSON → 400; exactly at the limit is fine', async () => {
      const over = expectError(await put('/v1/user-preferences/uc-recent-commands', alice, { value: 'x'.repeat(64 * 1024) }), 400);
      expect(over.error).toBe('value_too_large');
      // JSON.stringify adds two quotes.
      const atLimit = await put('/v1/user-preferences/uc-recent-commands', alice, { value: 'x'.repeat(64 * 1024 - 2) });
      expect(atLimit.statusCode).toBe(200);
    });

    it('a missing value, a non-object body and malformed JSON → 400', async () => {
      const missing = expectError(await put('/v1/user-preferences/uc-language', alice, { other: 1 }), 400);
      expect(missing.details?.map((d) => d.path)).toEqual(['value']);
      expectError(await put('/v1/user-preferences/uc-language', alice, ['x']), 400);
      const malformed = await t.app.inject({
        method: 'PUT',
        url: '/v1/user-preferences/uc-language',
        headers: { ...bearer(alice), 'content-type': 'application/json' },
        payload: '{"value": ',
      });
      expect(expectError(malformed, 400)).toEqual({ error: 'invalid_json', message: 'Request body is not valid JSON' });
      const poisoned = await t.app.inject({
        method: 'PUT',
        url: '/v1/user-preferences/uc-language',
        headers: { ...bearer(alice), 'content-type': 'application/json' },
        payload: '{"value": 1, "__proto__": {"admin": true}}',
      });
      expectError(poisoned, 400);
    });

    it('validates the hotkeys map against its schema', async () => {
      const ok = await put('/v1/user-preferences/uc-hotkeys', alice, { value: { 'history.open': 'g h', 'palette.open': null } });
      expect(ok.statusCode).toBe(200);
      const bad = expectError(await put('/v1/user-preferences/uc-hotkeys', alice, { value: { 'history.open': 42 } }), 400);
      expect(bad.details?.[0]?.path).toBe('value.history.open');
    });

    it('accepts false for a shaped preference (a missing preference is saved as false)', async () => {
      const res = await put('/v1/user-preferences/uc-hotkeys', alice, { value: false });
      expect(res.statusCode).toBe(200);
    });
  });

  describe('POST /v1/analytics', () => {
    it('stores a valid event', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/analytics', headers: bearer(alice), payload: { action_type: 'command:palette.open', session_id: 'session-0001' } });
      expect(res.statusCode).toBe(204);
      const { rows } = await t.db.query<{ user_id: number; action_type: string }>('SELECT user_id, action_type FROM analytics_events');
      expect(rows).toContainEqual({ user_id: ids.alice, action_type: 'command:palette.open' });
    });

    it('rejects an invalid event and requires a token', async () => {
      const bad = expectError(await t.app.inject({ method: 'POST', url: '/v1/analytics', headers: bearer(alice), payload: { action_type: '' } }), 400);
      expect(bad.details?.map((d) => d.path).sort()).toEqual(['action_type', 'session_id']);
      expectError(await t.app.inject({ method: 'POST', url: '/v1/analytics', payload: { action_type: 'x', session_id: 'y' } }), 401);
    });
  });

  describe('errors', () => {
    it('an unknown /v1 or /v2 route is a JSON 404', async () => {
      for (const [method, url] of [['GET', '/v1/nope'], ['POST', '/v1/users/1/nope'], ['GET', '/v2/whatever'], ['DELETE', '/login']] as const) {
        const res = await t.app.inject({ method, url, headers: bearer(alice) });
        expect(expectError(res, 404).error).toBe('not_found');
      }
    });

    it('a malformed URL is a JSON 400', async () => {
      expectError(await t.app.inject({ url: '/v1/users/%E0%A4%A', headers: bearer(alice) }), 400);
    });

    it('a non-JSON body is a JSON 415', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/login', headers: { 'content-type': 'text/xml' }, payload: '<x/>' });
      expect(expectError(res, 415).error).toBe('unsupported_media_type');
    });

    it('sets protective headers on API responses', async () => {
      const res = await get('/v1/ucc-config', alice);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });
  });
});

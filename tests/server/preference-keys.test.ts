import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { ApiErrorBody } from '../../src/wire/common';
import { MEETING_ERRORS, MeetingPermissions } from '../../src/wire/meetings';
import { WizardState } from '../../src/wire/wizard';
import { backends, bearer, SEED_NOW, startTestServer, type TestServer } from './helpers';

/**
 * The two preference keys the server decides (issue 24): uc-can-create-meetings (who may start or
 * schedule meetings) and uc-services-account-confirmed (this user confirmed the wizard's company).
 */
describe.each(backends)('server-decided preference keys ($name)', (backend) => {
  let t: TestServer;
  const token: Record<string, string> = {};
  let harbor: number;
  beforeAll(async () => {
    t = await startTestServer(backend);
    harbor = (await t.db.query<{ id: number }>(`SELECT id FROM organizations WHERE name = 'Harbor Telecom'`)).rows[0]!.id;
    // A second administrator of Harbor (hana's colleague), and a second Harbor customer.
    await t.db.query(
      `INSERT INTO users (organization_id, username, password_hash, first_name, last_name, email, extension, role_id, level, company)
       SELECT organization_id, 'hugo', password_hash, 'Hugo', 'Lind', 'hugo@harbor.example', '3009', 2, 'reseller', company FROM users WHERE username = 'hana'`,
    );
    const reef = (await t.db.query<{ id: number }>(`INSERT INTO organizations (name, level, reseller_id) VALUES ('Reef Diving', 'customer', $1) RETURNING id`, [harbor])).rows[0]!.id;
    await t.db.query(`INSERT INTO company_accounts (organization_id, customer_id, billing_phone) VALUES ($1, 'REEF-20002', '+12075550102')`, [reef]);
    for (const u of ['alice', 'dave', 'hana', 'hugo', 'rita']) token[u] = await t.login(u);
  });
  afterAll(() => t?.close());

  const call = async (user: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, app = t.app) => {
    const res = await app.inject({ method, url, headers: bearer(token[user]!), ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: res.statusCode, body: res.json() as unknown };
  };
  const pref = (user: string, key: string) => call(user, 'GET', `/v1/user-preferences/${key}`);
  const wizard = async (user: string) => WizardState.parse((await call(user, 'GET', '/v1/wizard')).body);
  const refused = (res: { status: number; body: unknown }, status: number) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    return ApiErrorBody.parse(res.body).message;
  };

  describe('uc-can-create-meetings', () => {
    it('is true for a standard user, false for a limited-access one; the permissions call and the create call agree', async () => {
      expect(await pref('alice', 'uc-can-create-meetings')).toEqual({ status: 200, body: { key: 'uc-can-create-meetings', value: true } });
      expect(await pref('dave', 'uc-can-create-meetings')).toEqual({ status: 200, body: { key: 'uc-can-create-meetings', value: false } });
      expect(MeetingPermissions.parse((await call('dave', 'GET', '/v1/meetings/permissions')).body).can_create_meetings).toBe(false);
      expect(MeetingPermissions.parse((await call('alice', 'GET', '/v1/meetings/permissions')).body).can_create_meetings).toBe(true);
      const start = SEED_NOW.getTime() + 86_400_000;
      const meeting = { meeting_name: 'Stand-up', start: new Date(start).toISOString(), end: new Date(start + 1_800_000).toISOString(), time_zone: 'UTC' };
      expect(refused(await call('dave', 'POST', '/v1/meetings', meeting), 403)).toBe(MEETING_ERRORS.createNotPermitted);
    });

    it('cannot be set by the user, not even to true by a limited-access one', async () => {
      expect(refused(await call('dave', 'PUT', '/v1/user-preferences/uc-can-create-meetings', { value: true }), 403)).toMatch(/cannot be set/);
      refused(await call('alice', 'PUT', '/v1/user-preferences/uc-can-create-meetings', { value: false }), 403);
      expect((await pref('dave', 'uc-can-create-meetings')).body).toEqual({ key: 'uc-can-create-meetings', value: false });
    });

    it('is false for everyone when web meeting management is off', async () => {
      const off = await buildApp({ db: t.db, runtimeDir: t.runtimeDir, settings: { webMeetingManagement: false } });
      try {
        expect((await call('alice', 'GET', '/v1/user-preferences/uc-can-create-meetings', undefined, off)).body).toEqual({ key: 'uc-can-create-meetings', value: false });
      } finally {
        await off.close();
      }
    });
  });

  describe('uc-services-account-confirmed', () => {
    it('rita confirmed her company: set, and her wizard opens at step 2', async () => {
      expect((await pref('rita', 'uc-services-account-confirmed')).body).toEqual({ key: 'uc-services-account-confirmed', value: true });
      expect(await wizard('rita')).toMatchObject({ confirmed: true, step: 2 });
    });

    it('is set by confirming the company (PUT services-account), not by writing the preference', async () => {
      expect((await pref('hana', 'uc-services-account-confirmed')).status).toBe(404);
      refused(await call('hana', 'PUT', '/v1/user-preferences/uc-services-account-confirmed', { value: true }), 403);
      expect(await wizard('hana')).toMatchObject({ confirmed: false, step: 0 });
      await call('hana', 'PUT', `/v1/resellers/${harbor}/services-account`, { customer_id: 'COVE-20001' });
      expect((await pref('hana', 'uc-services-account-confirmed')).body).toEqual({ key: 'uc-services-account-confirmed', value: true });
      expect(await wizard('hana')).toMatchObject({ confirmed: true, step: 2, customerId: 'COVE-20001' });
    });

    it('is each administrator’s own: a colleague sees the configured company to confirm, and starts at the beginning', async () => {
      expect(await wizard('hugo')).toMatchObject({ confirmed: false, step: 0, customerId: 'COVE-20001' });
      // Confirming the same company leaves hana's confirmation as it is.
      await call('hugo', 'PUT', `/v1/resellers/${harbor}/services-account`, { customer_id: 'COVE-20001' });
      expect(await wizard('hugo')).toMatchObject({ confirmed: true, step: 2 });
      expect(await wizard('hana')).toMatchObject({ confirmed: true, step: 2 });
    });

    it('choosing another company takes the colleagues’ confirmations back: they confirmed the old one', async () => {
      await call('hugo', 'PUT', `/v1/resellers/${harbor}/services-account`, { customer_id: 'REEF-20002' });
      expect(await wizard('hugo')).toMatchObject({ confirmed: true, step: 2, customerId: 'REEF-20002' });
      expect(await wizard('hana')).toMatchObject({ confirmed: false, step: 0, customerId: 'REEF-20002' });
      expect((await pref('hana', 'uc-services-account-confirmed')).status).toBe(404);
      // Another reseller's administrators keep theirs.
      expect(await wizard('rita')).toMatchObject({ confirmed: true, step: 2 });
    });

    it('the user may take their own confirmation back (false), and the wizard asks again', async () => {
      expect((await call('hugo', 'PUT', '/v1/user-preferences/uc-services-account-confirmed', { value: false })).status).toBe(200);
      expect(await wizard('hugo')).toMatchObject({ confirmed: false, step: 0 });
    });
  });
});

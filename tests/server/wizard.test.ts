import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody } from '../../src/wire/common';
import { CompanyList, ImportReport, OrgUserList, ServiceUserList, WizardState } from '../../src/wire/wizard';
import { backends, bearer, multipart, startTestServer, type TestServer } from './helpers';

const HEADER = 'Username,FirstName,LastName,Enabled';
const csv = (...lines: string[]) => Buffer.from([HEADER, ...lines].join('\n'));

describe.each(backends)('onboarding wizard ($name)', (backend) => {
  let t: TestServer;
  const token: Record<string, string> = {};
  let northwind: number;
  let harbor: number;
  let acme: number;
  beforeAll(async () => {
    t = await startTestServer(backend);
    for (const u of ['rita', 'hana', 'alice', 'olivia']) token[u] = await t.login(u);
    const orgs = await t.db.query<{ id: number; name: string }>('SELECT id, name FROM organizations');
    const byName = new Map(orgs.rows.map((o) => [o.name, o.id]));
    northwind = byName.get('Northwind Partners')!;
    harbor = byName.get('Harbor Telecom')!;
    acme = byName.get('Acme Corp')!;
  });
  afterAll(() => t?.close());

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, user: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, headers: bearer(token[user]!), ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: res.statusCode, body: res.headers['content-type']?.toString().startsWith('application/json') ? res.json() : res.body, headers: res.headers };
  };
  const upload = async (user: string, orgId: number, content: Buffer, name = 'users.csv', type = 'text/csv') => {
    const m = multipart('file', name, type, content);
    const res = await t.app.inject({ method: 'PATCH', url: `/v1/organizations/${orgId}/users`, headers: { ...bearer(token[user]!), ...m.headers }, payload: m.payload });
    return { status: res.statusCode, body: res.json() };
  };
  const error = (res: { status: number; body: unknown }, status: number, code?: string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    const body = ApiErrorBody.parse(res.body);
    if (code) expect(body.error).toBe(code);
    expect(body.message.length).toBeGreaterThan(0);
    return body;
  };

  describe('state', () => {
    it('rita: active, finished, her customer confirmed, so it opens at step 2', async () => {
      const s = WizardState.parse((await call('GET', '/v1/wizard', 'rita')).body);
      expect(s).toEqual({ active: true, completed: true, step: 2, resellerId: northwind, customerId: 'ACME-10042', confirmed: true, hasServiceUser: false });
    });
    it('hana (the second reseller): not finished, nothing confirmed, step 0', async () => {
      const s = WizardState.parse((await call('GET', '/v1/wizard', 'hana')).body);
      expect(s).toMatchObject({ active: true, completed: false, step: 0, resellerId: harbor, customerId: null, confirmed: false });
    });
    it('customer-level users have no wizard, and cannot complete one', async () => {
      expect(WizardState.parse((await call('GET', '/v1/wizard', 'alice')).body)).toMatchObject({ active: false, resellerId: null });
      expect(WizardState.parse((await call('GET', '/v1/wizard', 'olivia')).body).active).toBe(false);
      error(await call('POST', '/v1/wizard/complete', 'alice'), 403);
    });
  });

  describe('companies and the services account', () => {
    it('lists the reseller’s companies with billing phone and the three addresses; activeOnly leaves the inactive one out', async () => {
      const all = CompanyList.parse((await call('GET', `/v1/resellers/${northwind}/companies`, 'rita')).body).items;
      expect(all.map((c) => c.companyName)).toEqual(['Acme Corp', 'Birch Dental', 'Old Mill Bakery']);
      const active = CompanyList.parse((await call('GET', `/v1/resellers/${northwind}/companies?activeOnly=true`, 'rita')).body).items;
      expect(active.map((c) => c.customerId)).toEqual(['ACME-10042', 'BIRCH-10077']);
      expect(active[0]).toMatchObject({
        organizationId: acme,
        billingPhone: '+14155550142',
        billingAddress: { Street1: '500 Market Street', Street2: 'Suite 1200', City: 'San Francisco', State: 'CA', ZipCode: '94105' },
        shippingAddress: { City: 'Oakland' },
        siteAddress: { Street1: '500 Market Street' },
      });
      error(await call('GET', `/v1/resellers/${northwind}/companies?activeOnly=maybe`, 'rita'), 400);
    });
    it('refuses another reseller’s list, and customer-level users', async () => {
      error(await call('GET', `/v1/resellers/${harbor}/companies?activeOnly=true`, 'rita'), 403);
      error(await call('GET', `/v1/resellers/${northwind}/companies?activeOnly=true`, 'hana'), 403);
      error(await call('GET', `/v1/resellers/${northwind}/companies`, 'alice'), 403);
      error(await call('GET', '/v1/resellers/abc/companies', 'rita'), 400);
    });
    it('PUT services-account: its own active customer only, 4xx with a message otherwise', async () => {
      error(await call('PUT', `/v1/resellers/${harbor}/services-account`, 'hana', {}), 400, 'validation_failed');
      error(await call('PUT', `/v1/resellers/${harbor}/services-account`, 'hana', { customer_id: 'NOPE-1' }), 400, 'unknown_customer');
      // Northwind's customer is not Harbor's.
      error(await call('PUT', `/v1/resellers/${harbor}/services-account`, 'hana', { customer_id: 'ACME-10042' }), 400, 'unknown_customer');
      error(await call('PUT', `/v1/resellers/${northwind}/services-account`, 'rita', { customer_id: 'MILL-10013' }), 400, 'customer_inactive');
      error(await call('PUT', `/v1/resellers/${northwind}/services-account`, 'hana', { customer_id: 'ACME-10042' }), 403);
      const s = WizardState.parse((await call('PUT', `/v1/resellers/${harbor}/services-account`, 'hana', { customer_id: 'COVE-20001' })).body);
      expect(s).toMatchObject({ confirmed: true, customerId: 'COVE-20001', step: 2, completed: false });
      const users = ServiceUserList.parse((await call('GET', `/v1/resellers/${harbor}/services-account/users`, 'hana')).body).items;
      expect(users.map((u) => u.username).sort()).toEqual(['june.park', 'marco.reyes']);
    });
  });

  describe('users of the organisation', () => {
    it('imports a CSV: accepted rows are created (they sign in, have an extension and a voicemail forward), refused rows say why', async () => {
      const file = csv(
        'nina.bell,Nina,Bell,Yes',
        'omar.khan,Omar,Khan,No',
        ',No,Name,Yes',
        'bad name!,Bad,Name,Yes',
        'no.first,,Last,Yes',
        'maybe,May,Be,Perhaps',
        'NINA.BELL,Nina,Again,Yes',
        'alice,Alice,Again,Yes',
      );
      const report = ImportReport.parse((await upload('rita', northwind, file)).body);
      expect(report.total).toBe(8);
      expect(report.accepted.map((a) => a.Username)).toEqual(['nina.bell', 'omar.khan']);
      expect(report.accepted.every((a) => /^\d{1,5}$/.test(a.Extension))).toBe(true);
      expect(new Set(report.accepted.map((a) => a.Extension)).size).toBe(2);
      expect(report.refused.map((r) => [r.line, r.reasons])).toEqual([
        [4, ['usernameMissing']],
        [5, ['usernameInvalid']],
        [6, ['firstNameMissing']],
        [7, ['enabledInvalid']],
        [8, ['duplicateInFile']],
        [9, ['usernameTaken']],
      ]);
      expect(report.refused.every((r) => r.messages.length === r.reasons.length && r.messages.every((m) => m.length > 5))).toBe(true);
      const list = OrgUserList.parse((await call('GET', `/v1/organizations/${northwind}/users`, 'rita')).body).items;
      expect(list.find((u) => u.Username === 'nina.bell')).toMatchObject({ FirstName: 'Nina', LastName: 'Bell', Enabled: 'Yes', _service_user_id: null });
      expect(list.find((u) => u.Username === 'omar.khan')?.Enabled).toBe('No');
      const forward = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM user_call_routing r JOIN users u ON u.id = r.user_id WHERE u.username IN ('nina.bell', 'omar.khan') AND r.forward_default->>'enabled' = 'true'`,
      );
      expect(forward.rows[0]!.n).toBe(2);
    });

    it('a row with a Password signs in; Enabled No cannot; a weak password is refused', async () => {
      const file = Buffer.from(['Username,First Name,Last Name,Enabled,Email,Password', 'pia.lund,Pia,Lund,Yes,pia@northwind.example,Welcome-2026', 'ola.berg,Ola,Berg,No,,Welcome-2026', 'weak.one,Weak,One,Yes,,password', 'mail.bad,Mail,Bad,Yes,not-an-address,'].join('\r\n'));
      const report = ImportReport.parse((await upload('rita', northwind, file)).body);
      expect(report.accepted.map((a) => a.Username)).toEqual(['pia.lund', 'ola.berg']);
      expect(report.refused.map((r) => r.reasons)).toEqual([['passwordWeak'], ['emailInvalid']]);
      expect(await t.login('pia.lund', 'Welcome-2026')).toMatch(/\./);
      const pia = await t.login('pia.lund', 'Welcome-2026');
      const profile = await t.app.inject({ method: 'GET', url: '/v1/sip-credentials', headers: bearer(pia) });
      expect(profile.statusCode, profile.body).toBe(200);
      const disabled = await t.app.inject({ method: 'POST', url: '/login', payload: { username: 'ola.berg', password: 'Welcome-2026' } });
      expect(disabled.statusCode).toBe(401);
    });

    it('refuses a file without the needed columns, an empty one, a non-CSV, a JSON body, another reseller’s organisation', async () => {
      error(await upload('rita', northwind, Buffer.from('Name,Surname\nx,y')), 400, 'csv_columns_missing');
      error(await upload('rita', northwind, Buffer.from(HEADER)), 400, 'csv_no_rows');
      error(await upload('rita', northwind, Buffer.from('')), 400);
      error(await upload('rita', northwind, Buffer.from('%PDF-1.4'), 'users.pdf', 'application/pdf'), 415, 'not_csv');
      error(await call('PATCH', `/v1/organizations/${northwind}/users`, 'rita', { users: [] }), 415);
      error(await upload('hana', northwind, csv('x.y,X,Y,Yes')), 403);
      error(await upload('rita', harbor, csv('x.y,X,Y,Yes')), 403);
      error(await upload('alice', acme, csv('x.y,X,Y,Yes')), 403);
      error(await upload('rita', 999_999, csv('x.y,X,Y,Yes')), 404);
      error(await call('GET', `/v1/organizations/${harbor}/users`, 'rita'), 403);
      error(await call('GET', `/v1/organizations/${harbor}/users/csv`, 'rita'), 403);
      error(await call('PUT', `/v1/organizations/${harbor}/users`, 'rita', []), 403);
    });

    it('imports 5,000 rows in one go', async () => {
      const rows = Array.from({ length: 5000 }, (_, i) => `bulk.user${i},Bulk,User ${i},${i % 10 ? 'Yes' : 'No'}`);
      const started = performance.now();
      const res = await upload('hana', harbor, csv(...rows));
      const seconds = (performance.now() - started) / 1000;
      const report = ImportReport.parse(res.body);
      expect(report.accepted.length).toBe(5000);
      expect(report.refused).toEqual([]);
      expect(new Set(report.accepted.map((a) => a.Extension)).size).toBe(5000);
      const n = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE organization_id = $1', [harbor]);
      expect(n.rows[0]!.n).toBe(5001);
      expect(seconds).toBeLessThan(60);
      // Again: every row is now taken.
      const again = ImportReport.parse((await upload('hana', harbor, csv(...rows.slice(0, 10)))).body);
      expect(again.accepted).toEqual([]);
      expect(again.refused.every((r) => r.reasons[0] === 'usernameTaken')).toBe(true);
    }, 120_000);

    it('downloads the organisation’s users as CSV', async () => {
      const res = await call('GET', `/v1/organizations/${northwind}/users/csv`, 'rita');
      expect(res.status).toBe(200);
      expect(String(res.headers['content-type'])).toMatch(/^text\/csv/);
      const lines = String(res.body).split(/\r?\n/);
      expect(lines[0]).toBe('Username,FirstName,LastName,Enabled,Extension,_service_user_id');
      expect(lines).toContain('rita,Rita,Alvarez,Yes,2000,');
    });

    it('configure users: maps to the services account’s users, refuses anything else, and then opens at step 3', async () => {
      const services = ServiceUserList.parse((await call('GET', `/v1/resellers/${northwind}/services-account/users`, 'rita')).body).items;
      const alice = services.find((u) => u.username === 'alice')!;
      const bob = services.find((u) => u.username === 'bob')!;
      const june = (await t.db.query<{ id: number }>(`SELECT id FROM users WHERE username = 'june.park'`)).rows[0]!.id;
      error(await call('PUT', `/v1/organizations/${northwind}/users`, 'rita', [{ Username: 'nina.bell', _service_user_id: june }]), 400, 'invalid_mapping');
      error(await call('PUT', `/v1/organizations/${northwind}/users`, 'rita', [{ Username: 'nina.bell', _service_user_id: alice.id }, { Username: 'pia.lund', _service_user_id: alice.id }]), 400, 'invalid_mapping');
      error(await call('PUT', `/v1/organizations/${northwind}/users`, 'rita', [{ Username: 'nobody.here', _service_user_id: bob.id }]), 400, 'unknown_users');
      error(await call('PUT', `/v1/organizations/${northwind}/users`, 'rita', { Username: 'x' }), 400, 'validation_failed');
      const saved = OrgUserList.parse((await call('PUT', `/v1/organizations/${northwind}/users`, 'rita', [{ Username: 'nina.bell', _service_user_id: alice.id }, { Username: 'rita', _service_user_id: bob.id }])).body).items;
      expect(saved.find((u) => u.Username === 'nina.bell')?._service_user_id).toBe(alice.id);
      expect(saved.find((u) => u.Username === 'rita')?._service_user_id).toBe(bob.id);
      expect(WizardState.parse((await call('GET', '/v1/wizard', 'rita')).body)).toMatchObject({ step: 3, hasServiceUser: true });
    });

    it('completing the wizard is remembered for that user', async () => {
      expect(WizardState.parse((await call('POST', '/v1/wizard/complete', 'hana')).body).completed).toBe(true);
      expect(WizardState.parse((await call('GET', '/v1/wizard', 'hana')).body).completed).toBe(true);
    });
  });
});

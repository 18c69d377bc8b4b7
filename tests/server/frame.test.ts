import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryScriptOf } from '../../server/frame/client-build';
import { writeMaintenance } from '../../server/frame/maintenance';
import { ANNOUNCEMENT_DEMO_USER } from '../../server/seed-frame';
import { AnalyticsSummary } from '../../src/wire/analytics';
import { UccConfig } from '../../src/wire/config';
import { backends, bearer, startTestServer, type TestServer } from './helpers';

const SESSION = 'b1f0c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

describe.each(backends)('the frame: analytics, announcements, maintenance ($name)', (backend) => {
  let t: TestServer;
  let staticDir: string;
  const token: Record<string, string> = {};
  const users = ['olivia', 'alice', 'rita', ANNOUNCEMENT_DEMO_USER];
  beforeAll(async () => {
    staticDir = await mkdtemp(path.join(tmpdir(), 'uc-frame-static-'));
    await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><script type="module" crossorigin src="/assets/index-Ab12Cd.js"></script>');
    t = await startTestServer(backend, { app: { staticDir } });
    // Rita becomes the account owner of her own organisation (Northwind): owners see only their own.
    await t.db.query(`UPDATE users SET role_id = 1 WHERE username = 'rita'`);
    for (const u of users) token[u] = await t.login(u);
  });
  afterAll(async () => {
    await t?.close();
    await rm(staticDir, { recursive: true, force: true });
  });

  const call = async (method: 'GET' | 'POST', url: string, user: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, headers: bearer(token[user]!), ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  };
  const track = (user: string, action_type: unknown, session_id: unknown = SESSION) => call('POST', '/v1/analytics', user, { action_type, session_id });

  describe('analytics', () => {
    it('records sign-in, calls, messages and palette commands by id', async () => {
      for (const a of ['sign_in', 'call_placed', 'message_sent', 'text_sent', 'command:telephony.call', 'command:speed-dial.new', 'command:messaging.texts.new']) {
        expect((await track('alice', a)).status, a).toBe(204);
      }
    });

    it('refuses anything else with a 400 that says why, never a 500: no arguments, names or numbers get in', async () => {
      const refused: Array<[unknown, unknown]> = [
        ['command:telephony.call 4155550100', SESSION],
        ['command:telephony.call?number=1002', SESSION],
        ['call_placed:alice', SESSION],
        ['Alice Nguyen', SESSION],
        ['', SESSION],
        ['x'.repeat(200), SESSION],
        [42, SESSION],
        ['sign_in', ''],
        ['sign_in', 'alice@acme.example'],
        ['sign_in', null],
      ];
      for (const [action, session] of refused) {
        const res = await track('alice', action, session);
        expect(res.status, JSON.stringify(action)).toBe(400);
        expect(res.body.message).toMatch(/analytics event/);
      }
      const noBody = await t.app.inject({ method: 'POST', url: '/v1/analytics', headers: { ...bearer(token.alice!), 'content-type': 'application/json' }, payload: '{"action_type":' });
      expect(noBody.statusCode).toBe(400);
      expect((await t.app.inject({ method: 'POST', url: '/v1/analytics', payload: { action_type: 'sign_in', session_id: SESSION } })).statusCode).toBe(401);
    });

    it("gives the account owner their own organisation's counts per day, and nobody else's", async () => {
      await track('olivia', 'sign_in');
      await track('rita', 'sign_in');
      await track('rita', 'command:shell.help');
      const acme = await call('GET', '/v1/analytics/summary', 'olivia');
      expect(acme.status).toBe(200);
      const summary = AnalyticsSummary.parse(acme.body);
      expect(summary.days).toBe(30);
      const today = new Date().toISOString().slice(0, 10);
      const count = (a: string) => summary.counts.find((c) => c.day === today && c.action_type === a)?.count;
      // Alice's sign-in and Olivia's: Acme's two; Rita's (Northwind) is not among them.
      expect(count('sign_in')).toBe(2);
      expect(count('command:telephony.call')).toBe(1);
      expect(count('command:shell.help')).toBeUndefined();
      const northwind = AnalyticsSummary.parse((await call('GET', '/v1/analytics/summary?days=1', 'rita')).body);
      expect(northwind.counts).toEqual([
        { day: today, action_type: 'command:shell.help', count: 1 },
        { day: today, action_type: 'sign_in', count: 1 },
      ]);
    });

    it('is for account owners only, and checks the number of days', async () => {
      expect((await call('GET', '/v1/analytics/summary', 'alice')).status).toBe(403);
      for (const days of ['0', '367', 'abc', '-1', '1.5']) {
        const res = await call('GET', `/v1/analytics/summary?days=${days}`, 'olivia');
        expect(res.status, days).toBe(400);
        expect(res.body.message).toMatch(/summary query/);
      }
    });
  });

  describe('the design-changes announcement', () => {
    it('is pending until the user confirms it, then never again; per user', async () => {
      const who = ANNOUNCEMENT_DEMO_USER;
      expect((await call('GET', '/v1/announcements', who)).body).toEqual({ pending: ['design-changes'] });
      // The other demo accounts have confirmed it (the seed).
      expect((await call('GET', '/v1/announcements', 'alice')).body).toEqual({ pending: [] });
      expect((await call('POST', '/v1/announcements/design-changes/confirm', who)).status).toBe(204);
      expect((await call('GET', '/v1/announcements', who)).body).toEqual({ pending: [] });
      // Twice is harmless.
      expect((await call('POST', '/v1/announcements/design-changes/confirm', who)).status).toBe(204);
    });

    it('answers 404 for an announcement that does not exist', async () => {
      const res = await call('POST', '/v1/announcements/no-such-thing/confirm', 'alice');
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('No such announcement');
    });
  });

  describe('maintenance', () => {
    it('answers 200 with the served build while the service runs, 503 with the message once switched on, 200 again once off', async () => {
      expect(await call('GET', '/v1/maintenance', 'alice')).toEqual({ status: 200, body: { maintenance: false, client_build: 'index-Ab12Cd.js' } });
      await writeMaintenance(t.runtimeDir, true, 'Back at 03:00 UTC.');
      const res = await call('GET', '/v1/maintenance', 'alice');
      expect(res).toEqual({ status: 503, body: { error: 'maintenance', message: 'Back at 03:00 UTC.' } });
      await writeMaintenance(t.runtimeDir, false);
      expect((await call('GET', '/v1/maintenance', 'alice')).status).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/v1/maintenance' })).statusCode).toBe(401);
    });
  });

  describe('configuration', () => {
    it("carries the user's contact-center links (the seeded owner's) and the served build", async () => {
      const olivia = UccConfig.parse((await call('GET', '/v1/ucc-config', 'olivia')).body);
      expect(olivia.contact_center).toEqual([
        { type: 'cc', admin_url: 'https://cc.acme-uc.example/admin', agent_url: 'https://cc.acme-uc.example/agent' },
        { type: 'ivr', admin_url: 'https://ivr.acme-uc.example/admin', agent_url: null },
      ]);
      expect(olivia.client_build).toBe('index-Ab12Cd.js');
      expect(UccConfig.parse((await call('GET', '/v1/ucc-config', 'alice')).body).contact_center).toEqual([]);
    });

    it('reads the entry script of a built index.html, and none from the development one', () => {
      expect(entryScriptOf('<script type="module" crossorigin src="/assets/index-Zz9.js"></script>')).toBe('index-Zz9.js');
      expect(entryScriptOf('<script type="module" src="/src/main.tsx"></script>')).toBeNull();
    });
  });
});

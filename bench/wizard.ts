/**
 * wizard_import_5000_users_s (issue 24, no number budget): `PATCH /v1/organizations/{orgId}/users`
 * with a 5,000-row CSV, from the request to the report (parse, every row checked, taken usernames and
 * free extensions read, the users and their voicemail forwards inserted), the real API in this
 * process on embedded PostgreSQL with the demo seeded. Signed in as hana, into Harbor Telecom.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../server/app';
import { migrate } from '../server/db/migrate';
import { openDb } from '../server/db/open';
import { DEMO_PASSWORD, seedDemo } from '../server/seed';

const ROWS = 5000;

export async function benchWizard(runtimeRoot: string): Promise<Record<string, number>> {
  const runtimeDir = mkdtempSync(join(runtimeRoot, 'bench-wizard-'));
  const db = await openDb({ runtimeDir });
  try {
    await migrate(db);
    await seedDemo(db);
    const app = await buildApp({ db, runtimeDir });
    try {
      await app.ready();
      const login = await app.inject({ method: 'POST', url: '/login', payload: { username: 'hana', password: DEMO_PASSWORD } });
      const token = (login.json() as { access_token: string }).access_token;
      const org = await db.query<{ id: number }>(`SELECT id FROM organizations WHERE name = 'Harbor Telecom'`);
      const csv = ['Username,FirstName,LastName,Enabled', ...Array.from({ length: ROWS }, (_, i) => `bench.import${i},Bench,Import ${i},${i % 10 ? 'Yes' : 'No'}`)].join('\n');
      const boundary = '----ucbench';
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="users.csv"\r\nContent-Type: text/csv\r\n\r\n`),
        Buffer.from(csv),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const t0 = performance.now();
      const res = await app.inject({
        method: 'PATCH',
        url: `/v1/organizations/${org.rows[0]!.id}/users`,
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      const seconds = (performance.now() - t0) / 1000;
      const report = res.json() as { accepted?: unknown[] };
      if (res.statusCode !== 200 || report.accepted?.length !== ROWS) throw new Error(`wizard bench: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return { wizard_import_5000_users_s: Math.round(seconds * 100) / 100 };
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
    rmSync(runtimeDir, { recursive: true, force: true });
  }
}

/**
 * Voicemail and recordings at 10,000 in a real browser: the built client served by the real API
 * server on embedded PostgreSQL, one user with 10,000 voicemails and 10,000 recordings, Debian's chromium.
 *
 * - voicemail_open_10k_ms: route change (history → voicemail, 10,000 messages) → first rows painted; median of 5.
 * - voicemail_search_10k_p95_ms: keystroke in the voicemail search → rows for the new term painted (p95).
 * - recordings_open_10k_ms: route change (history → recordings) → the first page of 50 painted; median of 5.
 * - media_bench_loadavg: the machine's 1-minute load average when the bench ran.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { addBulkMedia } from '../server/seed-media';
import { openScreenOnce, percentile, round1, searchLatencies, withListBench } from './measure';

const USER = 'bob';
const COUNT = 10_000;
const QUERIES = ['grace', 'invoice', '212 555', 'contoso'];

export function benchMedia(distDir: string, runtimeRoot: string): Promise<Record<string, number>> {
  return withListBench(
    { distDir, runtimeRoot, name: 'media', username: USER, addData: (db, userId) => db.transaction((tx) => addBulkMedia(tx, userId, COUNT)) },
    async ({ page, signIn }) => {
      let list!: ReturnType<typeof page.waitForResponse>;
      await signIn(() => (list = page.waitForResponse((r) => r.url().includes('/voicemails'), { timeout: 60_000 })));
      await (await list).finished();
      await page.getByRole('link', { name: /Voicemail/ }).waitFor();

      const vmOpens: number[] = [];
      for (let i = 0; i < 5; i++) vmOpens.push(await openScreenOnce(page, '/voicemail', '.voicemail-screen'));
      const count = await page.locator('.vm-count').textContent();
      if (Number(count?.replace(/\D/g, '')) < COUNT) throw new Error(`media bench: expected ≥ ${COUNT} voicemails, the screen says "${count}"`);
      const keystrokes = await searchLatencies(page, page.getByRole('searchbox', { name: 'Search voicemail' }), [...QUERIES, ...QUERIES]);
      if (process.env.UC_BENCH_VERBOSE) console.log(`voicemail search per key: ${keystrokes.map(round1).join(' ')}`);

      await page.getByRole('link', { name: /Call recordings/ }).waitFor();
      const recOpens: number[] = [];
      for (let i = 0; i < 5; i++) recOpens.push(await openScreenOnce(page, '/recordings', '.recordings-screen'));
      return {
        voicemail_open_10k_ms: round1(percentile(vmOpens, 50)),
        voicemail_search_10k_p95_ms: round1(percentile(keystrokes, 95)),
        recordings_open_10k_ms: round1(percentile(recOpens, 50)),
        media_bench_loadavg: round1(loadavg()[0]!),
      };
    },
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = join(import.meta.dirname, '..');
  const figures = await benchMedia(process.env.UC_BENCH_DIST ?? join(root, 'dist'), join(root, 'runtime'));
  for (const [k, v] of Object.entries(figures)) console.log(`${k}=${v}`);
}

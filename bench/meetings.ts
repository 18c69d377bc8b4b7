/**
 * Meetings at 1,000 in a real browser: the built client served by the real API on embedded
 * PostgreSQL, alice booking 1,000 meetings around today (900 single, 100 weekly: their occurrences
 * in the list's window come to about 1,700 rows), Debian's chromium.
 *
 * - meetings_open_1000_ms: route change (history → meetings) → first rows painted; median of 5.
 * - meetings_open_1000_first_ms: the first of those (the screen's chunk and strings not yet loaded).
 */
import { join } from 'node:path';
import type { Db } from '../server/db/types';
import { openScreenOnce, percentile, round1, withListBench } from './measure';

const COUNT = 1000;
const DAY = 86_400_000;

async function addMeetings(db: Db, userId: number): Promise<void> {
  const now = Date.now();
  let seed = 11;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const rows: unknown[][] = [];
  for (let i = 0; i < COUNT; i++) {
    const weekly = i % 10 === 0;
    // Single meetings from yesterday to two months on; weekly ones started up to a month ago.
    const start = Math.round((now + (weekly ? -rnd() * 30 : -1 + rnd() * 60) * DAY) / 900_000) * 900_000;
    rows.push([userId, `Bench meeting ${i} ${['planning', 'review', 'sync', 'retro', 'demo'][i % 5]}`, new Date(start).toISOString(), (1 + (i % 4)) * 15 * 60_000, weekly ? 2 : null, weekly ? 1 << (i % 5) : 0, `bench${String(i).padStart(6, '0')}`]);
  }
  for (let i = 0; i < rows.length; i += 200) {
    const chunk = rows.slice(i, i + 200);
    const values = chunk.map((_, j) => `((SELECT organization_id FROM users WHERE id = $${j * 7 + 1}), $${j * 7 + 1}, 'meeting', $${j * 7 + 2}, $${j * 7 + 3}::timestamptz, $${j * 7 + 4}, $${j * 7 + 5}, $${j * 7 + 6}, $${j * 7 + 7})`);
    await db.query(
      `INSERT INTO meetings (organization_id, booked_by_id, meeting_type, name, starts_at, duration_ms, occurs, day_in_week, access_code) VALUES ${values.join(', ')}`,
      chunk.flat(),
    );
  }
}

export function benchMeetings(distDir: string, runtimeRoot: string): Promise<Record<string, number>> {
  return withListBench({ distDir, runtimeRoot, name: 'meetings', username: 'alice', addData: addMeetings }, async ({ page, signIn }) => {
    await signIn();
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    const opens: number[] = [];
    for (let i = 0; i < 5; i++) opens.push(await openScreenOnce(page, '/meetings', '.meetings-screen'));
    if (process.env.UC_BENCH_VERBOSE) console.log(`meetings opens: ${opens.map(round1).join(' ')}`);
    return { meetings_open_1000_ms: round1(percentile(opens, 50)), meetings_open_1000_first_ms: round1(opens[0]!) };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = join(import.meta.dirname, '..');
  const figures = await benchMeetings(process.env.UC_BENCH_DIST ?? join(root, 'dist'), join(root, 'runtime'));
  for (const [k, v] of Object.entries(figures)) console.log(`${k}=${v}`);
}

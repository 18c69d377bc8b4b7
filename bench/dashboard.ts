/**
 * The dashboard as home, in a real browser: the built client served by the real API on embedded
 * PostgreSQL with the demo's seeded data (alice: 12 voicemails, a week of calls), Debian's chromium.
 *
 * - dashboard_first_paint_ms: a load of `/` (alice signed in, the dashboard her home page) → the
 *   frame that paints the feed's first row; median of 5 loads. Budget ≤ 1000 ms.
 * - dashboard_first_paint_signin_ms: the same from the Enter that signs in (once).
 */
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { Db } from '../server/db/types';
import { percentile, round1, waitPaintedScript, withListBench } from './measure';

export const DASHBOARD_FIRST_PAINT_BUDGET_MS = 1000;
const FEED_ROW = `document.querySelector('.dashboard [role="grid"] [role="row"]')`;

/** Her home page: the dashboard (what Preferences ▸ General ▸ Home page saves). */
async function dashboardHome(db: Db, userId: number): Promise<void> {
  await db.query(`INSERT INTO user_preferences (user_id, key, value) VALUES ($1, 'uc-home-page', '"/dashboard"'::jsonb)`, [userId]);
}

/** A full load of `/`: ms from the navigation's start to the painted first row. */
async function loadOnce(page: Page): Promise<number> {
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  return page.evaluate<number>(waitPaintedScript(FEED_ROW));
}

export function benchDashboard(distDir: string, runtimeRoot: string): Promise<Record<string, number>> {
  return withListBench({ distDir, runtimeRoot, name: 'dashboard', username: 'alice', addData: dashboardHome }, async ({ page, signIn }) => {
    let t0 = 0;
    await signIn(() => void (t0 = Date.now()));
    await page.locator('.dashboard [role="grid"] [role="row"]').first().waitFor({ timeout: 30_000 });
    const signin = Date.now() - t0;
    const loads: number[] = [];
    for (let i = 0; i < 5; i++) loads.push(await loadOnce(page));
    if (process.env.UC_BENCH_VERBOSE) console.log(`dashboard loads: ${loads.map(round1).join(' ')}`);
    return { dashboard_first_paint_ms: round1(percentile(loads, 50)), dashboard_first_paint_signin_ms: round1(signin) };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = join(import.meta.dirname, '..');
  const figures = await benchDashboard(process.env.UC_BENCH_DIST ?? join(root, 'dist'), join(root, 'runtime'));
  for (const [k, v] of Object.entries(figures)) console.log(`${k}=${v}`);
}

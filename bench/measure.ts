/**
 * What the benchmarks share: statistics, and for the list screens (contacts, voicemail, recordings)
 * an in-process API server on embedded PostgreSQL with one user's bulk data, a signed-in Debian
 * Chromium page, and the two measurements: opening a screen and typing in its search.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Locator, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium';
import { buildApp } from '../server/app';
import { migrate } from '../server/db/migrate';
import { openDb } from '../server/db/open';
import type { Db } from '../server/db/types';
import { DEMO_PASSWORD, seedDemo } from '../server/seed';

export function percentile(values: readonly number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export const round1 = (n: number) => Math.round(n * 10) / 10;

/** Page script: resolves with performance.now() at the first animation frame after `ready` holds (the frame that paints it). */
export const waitPaintedScript = (ready: string) => `new Promise((resolve) => {
  const check = () => { if (${ready}) { requestAnimationFrame(() => resolve(performance.now())); return true; } return false; };
  if (check()) return;
  const mo = new MutationObserver(() => { if (check()) mo.disconnect(); });
  mo.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
})`;

/**
 * Route change from History to `path` (what a link does: pushState and the router's popstate),
 * timed in the page until the first row of `screen`'s grid is painted.
 */
export async function openScreenOnce(page: Page, path: string, screen: string): Promise<number> {
  await page.evaluate(() => {
    history.pushState({}, '', '/history');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await page.locator(screen).waitFor({ state: 'detached' });
  return page.evaluate(`(async () => {
    const t0 = performance.now();
    history.pushState({}, '', ${JSON.stringify(path)});
    dispatchEvent(new PopStateEvent('popstate'));
    const t1 = await ${waitPaintedScript(`document.querySelector('${screen} [role="grid"] [role="row"]')`)};
    return t1 - t0;
  })()`);
}

/**
 * Types each query into `search` key by key and returns, per keystroke, the time from the key
 * event to the frame that paints the list for the new term (the list pane's data-term).
 */
export async function searchLatencies(page: Page, search: Locator, queries: readonly string[]): Promise<number[]> {
  const out: number[] = [];
  for (const q of queries) {
    await search.fill('');
    await page.locator('.list-pane[data-term=""]').waitFor();
    await search.focus();
    out.push(...(await typeTimed(page, q, (typed) => `document.querySelector('.list-pane')?.getAttribute('data-term') === ${JSON.stringify(typed)}`)));
  }
  return out;
}

/**
 * Opens the command palette (Ctrl+K) once per query, types the query key by key and returns, per
 * keystroke, the time from the key event to the frame that paints the results for the new query
 * (the list's data-query); Escape closes it again.
 */
export async function paletteLatencies(page: Page, queries: readonly string[]): Promise<number[]> {
  const out: number[] = [];
  const dialog = page.getByRole('dialog', { name: 'Command palette' });
  for (const q of queries) {
    await page.keyboard.press('Control+k');
    await page.locator('.palette-list[data-query=""]').waitFor();
    out.push(...(await typeTimed(page, q, (typed) => `document.querySelector('.palette-list')?.getAttribute('data-query') === ${JSON.stringify(typed)}`)));
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  }
  return out;
}

/** Types `q` into the focused field key by key; per key, the time from its keydown to the frame that paints what `shown(typed)` tests. */
async function typeTimed(page: Page, q: string, shown: (typed: string) => string): Promise<number[]> {
  await page.evaluate(() => {
    const w = window as unknown as { __benchKey?: number };
    if (w.__benchKey === undefined) addEventListener('keydown', (e) => void (w.__benchKey = e.timeStamp), true);
    w.__benchKey = 0;
  });
  const out: number[] = [];
  for (let i = 1; i <= q.length; i++) {
    const painted = page.evaluate(waitPaintedScript(shown(q.slice(0, i))));
    await page.keyboard.press(q[i - 1] === ' ' ? 'Space' : q[i - 1]!);
    const t1 = (await painted) as number;
    out.push(t1 - (await page.evaluate(() => (window as unknown as { __benchKey: number }).__benchKey)));
  }
  return out;
}

export interface ListBench {
  page: Page;
  /** Signs the user in (the page starts at /login); `before` runs first, e.g. to start waiting for a response. */
  signIn(before?: () => void): Promise<void>;
}

/**
 * The demo organisation on embedded PostgreSQL plus `addData(db, userId)` for `username`, the
 * built client served by the real API in this process, and one Chromium page; all removed after.
 */
export async function withListBench<T>(
  o: { distDir: string; runtimeRoot: string; name: string; username: string; addData(db: Db, userId: number): Promise<void>; initScript?: () => void },
  measure: (b: ListBench) => Promise<T>,
): Promise<T> {
  // A fresh clone has no runtime folder until a server has run.
  mkdirSync(o.runtimeRoot, { recursive: true, mode: 0o700 });
  const runtimeDir = mkdtempSync(join(o.runtimeRoot, `bench-${o.name}-`));
  const db = await openDb({ runtimeDir });
  try {
    await migrate(db);
    await seedDemo(db);
    const { rows } = await db.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [o.username]);
    await o.addData(db, rows[0]!.id);
    const app = await buildApp({ db, runtimeDir, staticDir: o.distDir });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ baseURL: base, locale: 'en-US', viewport: { width: 1280, height: 900 } });
      if (o.initScript) await page.addInitScript(o.initScript);
      await page.goto('/login');
      return await measure({
        page,
        signIn: async (before) => {
          await page.getByRole('textbox', { name: 'Username' }).fill(o.username);
          await page.getByLabel('Password').fill(DEMO_PASSWORD);
          before?.();
          await page.keyboard.press('Enter');
        },
      });
    } finally {
      await browser.close();
      await app.close();
    }
  } finally {
    await db.close();
    rmSync(runtimeDir, { recursive: true, force: true });
  }
}

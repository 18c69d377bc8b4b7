/**
 * Voicemail and recordings at 10,000 in a real browser: the built client served by the real API
 * server on embedded PostgreSQL, one user with 10,000 voicemails and 10,000 recordings, Debian's chromium.
 *
 * - voicemail_open_10k_ms: route change (history → voicemail, 10,000 messages) → first rows painted; median of 5.
 * - voicemail_search_10k_p95_ms: keystroke in the voicemail search → rows for the new term painted (p95).
 * - recordings_open_10k_ms: route change (history → recordings) → the first page of 50 painted; median of 5.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium';
import { buildApp } from '../server/app';
import { migrate } from '../server/db/migrate';
import { openDb } from '../server/db/open';
import { DEMO_PASSWORD, seedDemo } from '../server/seed';
import { addBulkMedia } from '../server/seed-media';

const USER = 'bob';
const COUNT = 10_000;
const QUERIES = ['grace', 'invoice', '212 555', 'contoso'];

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;
const round1 = (n: number) => Math.round(n * 10) / 10;
const waitPainted = (ready: string) => `new Promise((resolve) => {
  const check = () => { if (${ready}) { requestAnimationFrame(() => resolve(performance.now())); return true; } return false; };
  if (check()) return;
  const mo = new MutationObserver(() => { if (check()) mo.disconnect(); });
  mo.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
})`;

async function openOnce(page: Page, path: string, screen: string): Promise<number> {
  await page.evaluate(() => {
    history.pushState({}, '', '/history');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await page.locator(screen).waitFor({ state: 'detached' });
  return page.evaluate(`(async () => {
    const t0 = performance.now();
    history.pushState({}, '', ${JSON.stringify(path)});
    dispatchEvent(new PopStateEvent('popstate'));
    const t1 = await ${waitPainted(`document.querySelector('${screen} [role="grid"] [role="row"]')`)};
    return t1 - t0;
  })()`);
}

export async function benchMedia(distDir: string, runtimeRoot: string): Promise<Record<string, number>> {
  const runtimeDir = mkdtempSync(join(runtimeRoot, 'bench-media-'));
  const db = await openDb({ runtimeDir });
  await migrate(db);
  await seedDemo(db);
  const { rows } = await db.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [USER]);
  await db.transaction((tx) => addBulkMedia(tx, rows[0]!.id, COUNT));
  const app = await buildApp({ db, runtimeDir, staticDir: distDir });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ baseURL: base, locale: 'en-US', viewport: { width: 1280, height: 900 } });
    await page.goto('/login');
    await page.getByRole('textbox', { name: 'Username' }).fill(USER);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    const list = page.waitForResponse((r) => r.url().includes('/voicemails'), { timeout: 60_000 });
    await page.keyboard.press('Enter');
    await (await list).finished();
    await page.getByRole('link', { name: /Voicemail/ }).waitFor();

    const vmOpens: number[] = [];
    for (let i = 0; i < 5; i++) vmOpens.push(await openOnce(page, '/voicemail', '.voicemail-screen'));
    const count = await page.locator('.vm-count').textContent();
    if (Number(count?.replace(/\D/g, '')) < COUNT) throw new Error(`media bench: expected ≥ ${COUNT} voicemails, the screen says "${count}"`);

    const search = page.getByRole('searchbox', { name: 'Search voicemail' });
    await page.evaluate(() => {
      (window as unknown as { __key: number }).__key = 0;
      addEventListener('keydown', (e) => void ((window as unknown as { __key: number }).__key = e.timeStamp), true);
    });
    const keystrokes: number[] = [];
    for (const q of QUERIES) {
      await search.fill('');
      await page.locator('.list-pane[data-term=""]').waitFor();
      await search.focus();
      for (let i = 1; i <= q.length; i++) {
        const term = q.slice(0, i);
        const painted = page.evaluate(waitPainted(`document.querySelector('.list-pane')?.getAttribute('data-term') === ${JSON.stringify(term)}`));
        await page.keyboard.press(q[i - 1] === ' ' ? 'Space' : q[i - 1]!);
        const t1 = (await painted) as number;
        keystrokes.push(t1 - (await page.evaluate(() => (window as unknown as { __key: number }).__key)));
      }
    }
    await page.getByRole('link', { name: /Call recordings/ }).waitFor();
    const recOpens: number[] = [];
    for (let i = 0; i < 5; i++) recOpens.push(await openOnce(page, '/recordings', '.recordings-screen'));
    return {
      voicemail_open_10k_ms: round1(percentile(vmOpens, 50)),
      voicemail_search_10k_p95_ms: round1(percentile(keystrokes, 95)),
      recordings_open_10k_ms: round1(percentile(recOpens, 50)),
    };
  } finally {
    await browser.close();
    await app.close();
    await db.close();
    rmSync(runtimeDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = join(import.meta.dirname, '..');
  const figures = await benchMedia(process.env.UC_BENCH_DIST ?? join(root, 'dist'), join(root, 'runtime'));
  for (const [k, v] of Object.entries(figures)) console.log(`${k}=${v}`);
}

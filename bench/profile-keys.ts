/**
 * Where a keystroke's time goes without a trace's overhead (issue 18): types the contacts bench's queries into the
 * contacts search or the palette, prints per key "letter:DOM/frame" (ms from the keydown to the DOM showing the new
 * term, and to the next animation frame), then a CPU profile's self and total time by function.
 * `npx tsx bench/profile-keys.ts <absolute dist dir> contacts|palette` (an unminified build names the functions).
 */
import { join } from 'node:path';
import { generateContacts } from '../server/seed-contacts';
import { withListBench, round1 } from './measure';
const root = join(import.meta.dirname, '..');
const dist = process.argv[2] ?? join(root, "dist");
const which = process.argv[3] ?? 'contacts';
const script = (ready: string) => `new Promise((resolve) => {
  const check = () => { if (${ready}) { const dom = performance.now(); requestAnimationFrame((ts) => resolve([dom, performance.now(), ts])); return true; } return false; };
  if (check()) return;
  const mo = new MutationObserver(() => { if (check()) mo.disconnect(); });
  mo.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
})`;
await withListBench(
  { distDir: dist, runtimeRoot: join(root, 'runtime'), name: 'diagk', username: 'alice', addData: (db, id) => generateContacts(db, id, 50_000) },
  async ({ page, signIn }) => {
    await signIn();
    await page.waitForFunction(() => performance.getEntriesByName('contacts:directory-loaded').length > 0, null, { timeout: 60_000 });
    await page.evaluate(() => new Promise((r) => requestIdleCallback(() => r(null), { timeout: 5000 })));
    await page.evaluate(() => {
      const w = window as any;
      addEventListener('keydown', (e) => void (w.__k = e.timeStamp), true);
    });
    const Q = which === 'contacts' ? ['smith', 'martin garcia', 'acme', '415 555', 'lee', 'johnson'] : ['smith', 'martin garcia', 'acme', '415 555', 'call lee', 'missed calls', 'johnson', 'preferences'];
    const rows: string[] = [];
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    if (which === 'contacts') {
      await page.evaluate(() => { history.pushState({}, '', '/contacts?group=all'); dispatchEvent(new PopStateEvent('popstate')); });
      await page.getByRole('grid', { name: 'Contacts' }).waitFor();
    }
    for (let round = 0; round < 2; round++)
      for (const q of Q) {
        if (which === 'contacts') {
          const s = page.getByRole('searchbox', { name: 'Search contacts' });
          await s.fill('');
          await page.locator('.list-pane[data-term=""]').waitFor();
          await s.focus();
        } else {
          await page.keyboard.press('Control+k');
          await page.locator('.palette-list[data-query=""]').waitFor();
        }
        const line: string[] = [];
        for (let i = 1; i <= q.length; i++) {
          const typed = q.slice(0, i);
          const ready = which === 'contacts' ? `document.querySelector('.list-pane')?.getAttribute('data-term') === ${JSON.stringify(typed)}` : `document.querySelector('.palette-list')?.getAttribute('data-query') === ${JSON.stringify(typed)}`;
          const p = page.evaluate(script(ready));
          await page.keyboard.press(q[i - 1] === ' ' ? 'Space' : q[i - 1]!);
          const [dom, paint] = (await p) as number[];
          const k = await page.evaluate(() => (window as any).__k);
          line.push(`${q[i - 1]}:${round1(dom! - k)}/${round1(paint! - k)}`);
        }
        rows.push(`${q}: ${line.join(' ')}`);
        if (which !== 'contacts') { await page.keyboard.press('Escape'); await page.getByRole('dialog', { name: 'Command palette' }).waitFor({ state: 'hidden' }); }
      }
    console.log(rows.join('\n'));
    const { profile } = (await cdp.send('Profiler.stop')) as any;
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const byId = new Map<number, any>(profile.nodes.map((n: any) => [n.id, n]));
    const self = new Map<string, number>();
    const total = new Map<string, number>();
    for (let i = 0; i < profile.samples.length; i++) {
      const dt = (profile.timeDeltas[i] ?? 0) / 1000;
      const leaf = byId.get(profile.samples[i])!.callFrame;
      const k = `${leaf.functionName || '(anon)'} ${leaf.url.split('/').pop()}:${leaf.lineNumber + 1}`;
      self.set(k, (self.get(k) ?? 0) + dt);
      const seen = new Set<string>();
      for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parent.get(id)) {
        const f = byId.get(id)!.callFrame;
        const kk = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
        if (seen.has(kk)) continue;
        seen.add(kk);
        total.set(kk, (total.get(kk) ?? 0) + dt);
      }
    }
    console.log('--- self'); for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 35)) console.log(round1(v), k);
    console.log('--- total'); for (const [k, v] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 60)) console.log(round1(v), k);
  },
);

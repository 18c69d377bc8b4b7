/**
 * Where a keystroke's time goes (issue 18): the contacts / voicemail search and the palette, typed
 * key by key in Chromium with a CDP trace and a CPU profile; prints per-keystroke latency and the
 * breakdown (script by function, style/layout, paint). `npx tsx bench/trace-search.ts contacts|media|palette [dist]`.
 */
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { generateContacts } from '../server/seed-contacts';
import { addBulkMedia } from '../server/seed-media';
import { openScreenOnce, paletteLatencies, percentile, round1, searchLatencies, withListBench } from './measure';

const root = join(import.meta.dirname, '..');
const which = process.argv[2] ?? 'contacts';
const dist = process.argv[3] ?? join(root, 'dist');

interface TraceEvent { name: string; ph: string; dur?: number; tdur?: number; tid: number; pid: number; ts: number; args?: Record<string, unknown> }

async function traced<T>(page: Page, run: () => Promise<T>): Promise<T> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  const events: TraceEvent[] = [];
  cdp.on("Tracing.dataCollected", (d) => void events.push(...(d.value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,blink.user_timing,toplevel', transferMode: 'ReportEvents' });
  await cdp.send('Profiler.start');
  const out = await run();
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: { startTime: number; nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>; samples: number[]; timeDeltas: number[] } };
  const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
  await cdp.send('Tracing.end');
  await done;
  // Main thread: the renderer thread that runs the most script.
  const byTid = new Map<string, number>();
  for (const e of events) if (e.name === 'FunctionCall' || e.name === 'EventDispatch') byTid.set(`${e.pid}:${e.tid}`, (byTid.get(`${e.pid}:${e.tid}`) ?? 0) + (e.dur ?? 0));
  const main = [...byTid.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const sums = new Map<string, number>();
  for (const e of events) if (`${e.pid}:${e.tid}` === main && e.ph === 'X' && e.dur) sums.set(e.name, (sums.get(e.name) ?? 0) + e.dur / 1000);
  // A timeline of a few keystrokes: top-level main-thread events from one keydown to the next.
  const top = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && (e.dur ?? 0) > 300).sort((a, b) => a.ts - b.ts);
  console.log('--- main-thread tasks over 15 ms:');
  for (const e of top) if (e.name.endsWith('RunTask') && (e.dur ?? 0) > 15_000) console.log(`@${round1(e.ts / 1000)} ${round1(e.dur! / 1000)} ms: ${top.filter((c) => c !== e && c.ts >= e.ts && c.ts < e.ts + e.dur! && (c.dur ?? 0) > 2000).map((c) => `${c.name}${(c.args?.data as { url?: string; functionName?: string } | undefined)?.functionName ? `(${(c.args!.data as { functionName: string }).functionName})` : ''} ${round1(c.dur! / 1000)}`).join(', ')}`);
  const keydowns = top.filter((e) => e.name === 'EventDispatch' && (e.args?.data as { type?: string } | undefined)?.type === 'keydown');
  for (const k of keydowns.slice(6, 12)) {
    const next = keydowns[keydowns.indexOf(k) + 1]?.ts ?? Infinity;
    const line: string[] = [];
    let end = 0;
    for (const e of top) {
      if (e.ts < k.ts || e.ts >= Math.min(next, k.ts + 80_000)) continue;
      if (e.ts < end && e.name !== 'FireAnimationFrame') continue;
      end = Math.max(end, e.ts + (e.dur ?? 0));
      const type = (e.args?.data as { type?: string } | undefined)?.type;
      line.push(`+${round1((e.ts - k.ts) / 1000)} ${e.name}${type ? `(${type})` : ''} ${round1((e.dur ?? 0) / 1000)}`);
    }
    console.log(`key @${round1(k.ts / 1000)}: ${line.join(' | ')}`);
  }
  console.log('--- trace totals on the main thread (ms, nested events overlap):');
  for (const [k, v] of [...sums.entries()].sort((a, b) => b[1] - a[1]).slice(0, 18)) console.log(`${k.padEnd(28)} ${round1(v)}`);
  // CPU profile self time by function.
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  const byFn = new Map<string, number>();
  for (const n of profile.nodes) {
    const s = self.get(n.id) ?? 0;
    if (!s) continue;
    const f = n.callFrame;
    const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    byFn.set(key, (byFn.get(key) ?? 0) + s);
  }
  // The longest task's script, by function and by its callers (the profile and the trace share a clock).
  // CPU time (tdur) as well as wall time: on a busy machine a task's wall time includes the time the
  // renderer was not running at all.
  const timerTask = (e: TraceEvent) => top.some((c) => c.name === 'TimerFire' && c.ts >= e.ts && c.ts < e.ts + e.dur!);
  const byCpu = top.filter((e) => e.name.endsWith('RunTask') && e.tdur !== undefined && timerTask(e)).sort((a, b) => b.tdur! - a.tdur!);
  console.log(`--- longest timer tasks (the directory's slices) by CPU time (ms cpu / wall): ${byCpu.slice(0, 8).map((e) => `${round1(e.tdur! / 1000)}/${round1(e.dur! / 1000)}`).join(', ')}`);
  const scripted = (e: TraceEvent) => top.some((c) => (c.name === 'TimerFire' || c.name === 'FunctionCall') && c.ts >= e.ts && c.ts < e.ts + e.dur!);
  const longest = which === 'directory' ? byCpu[0] : top.filter((e) => e.name.endsWith('RunTask') && scripted(e)).sort((a, b) => b.dur! - a.dur!)[0];
  // Typing: the script of every keystroke, from its keydown until the next one (at most 100 ms).
  const keys = which === 'directory' ? [] : top.filter((e) => e.name === 'EventDispatch' && (e.args?.data as { type?: string } | undefined)?.type === 'keydown');
  const windows: Array<[number, number]> = keys.length ? keys.map((k, i) => [k.ts, Math.min(keys[i + 1]?.ts ?? Infinity, k.ts + 100_000)]) : longest ? [[longest.ts, longest.ts + longest.dur!]] : [];
  if (windows.length) {
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const inTask = new Map<string, number>();
    let t = profile.startTime;
    for (let i = 0; i < profile.samples.length; i++) {
      t += profile.timeDeltas[i] ?? 0;
      if (!windows.some(([a, b]) => t >= a && t < b)) continue;
      const chain: string[] = [];
      for (let id: number | undefined = profile.samples[i]; id !== undefined && chain.length < 6; id = parent.get(id)) {
        const f = byId.get(id)!.callFrame;
        if (f.functionName) chain.push(`${f.functionName}:${f.lineNumber + 1}`);
      }
      const key = chain.join(' < ');
      inTask.set(key, (inTask.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    }
    console.log(keys.length ? `--- while typing (${keys.length} keys), self time by stack:` : `--- in the longest task (${round1(longest!.dur! / 1000)} ms), self time by stack:`);
    for (const [k, v] of [...inTask.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${round1(v).toString().padStart(8)}  ${k}`);
  }
  console.log('--- CPU profile self time (ms):');
  for (const [k, v] of [...byFn.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${round1(v).toString().padStart(8)}  ${k}`);
  return out;
}

function report(name: string, ks: number[]) {
  console.log(`${name}: n=${ks.length} p50=${round1(percentile(ks, 50))} p95=${round1(percentile(ks, 95))} max=${round1(Math.max(...ks))}`);
  console.log(`  each: ${ks.map(round1).join(' ')}`);
}

if (which === 'directory') {
  await withListBench(
    { distDir: dist, runtimeRoot: join(root, 'runtime'), name: 'trace', username: 'alice', addData: (db, id) => generateContacts(db, id, 50_000) },
    async ({ page, signIn }) => {
      await page.getByRole('textbox', { name: 'Username' }).waitFor();
      await traced(page, async () => {
        let index!: ReturnType<typeof page.waitForResponse>;
        await signIn(() => (index = page.waitForResponse((r) => r.url().includes('/v1/contacts/index'), { timeout: 60_000 })));
        await (await index).finished();
        await page.evaluate(() => new Promise((r) => requestIdleCallback(() => r(null), { timeout: 5000 })));
      });
    },
  );
} else if (which === 'contacts' || which === 'palette') {
  await withListBench(
    { distDir: dist, runtimeRoot: join(root, 'runtime'), name: 'trace', username: 'alice', addData: (db, id) => generateContacts(db, id, 50_000) },
    async ({ page, signIn }) => {
      let index!: ReturnType<typeof page.waitForResponse>;
      await signIn(() => (index = page.waitForResponse((r) => r.url().includes('/v1/contacts/index'), { timeout: 60_000 })));
      await (await index).finished();
      await page.evaluate(() => new Promise((r) => requestIdleCallback(() => r(null), { timeout: 5000 })));
      await page.waitForFunction(() => performance.getEntriesByName('contacts:directory-loaded').length > 0, null, { timeout: 60_000 });
      await page.evaluate(() => new Promise((r) => requestIdleCallback(() => r(null), { timeout: 5000 })));
      if (process.env.TRACE_OPEN) {
        const ms = await traced(page, () => openScreenOnce(page, '/contacts?group=all', '.contacts-screen'));
        console.log(`first open: ${round1(ms)} ms`);
        return;
      }
      if (which === 'contacts') {
        await page.evaluate(() => {
          history.pushState({}, '', '/contacts?group=all');
          dispatchEvent(new PopStateEvent('popstate'));
        });
        await page.getByRole('grid', { name: 'Contacts' }).waitFor();
        const ks = await traced(page, () => searchLatencies(page, page.getByRole('searchbox', { name: 'Search contacts' }), ['smith', 'martin garcia', 'acme', '415 555', 'lee', 'johnson']));
        report('contacts', ks);
      } else {
        const ks = await traced(page, () => paletteLatencies(page, ['smith', 'martin garcia', 'acme', '415 555', 'call lee', 'johnson']));
        report('palette', ks);
      }
    },
  );
} else {
  await withListBench(
    { distDir: dist, runtimeRoot: join(root, 'runtime'), name: 'trace', username: 'bob', addData: (db, id) => db.transaction((tx) => addBulkMedia(tx, id, 10_000)) },
    async ({ page, signIn }) => {
      let list!: ReturnType<typeof page.waitForResponse>;
      await signIn(() => (list = page.waitForResponse((r) => r.url().includes('/voicemails'), { timeout: 60_000 })));
      await (await list).finished();
      await page.getByRole('link', { name: /Voicemail/ }).waitFor();
      await page.evaluate(() => {
        history.pushState({}, '', '/voicemail');
        dispatchEvent(new PopStateEvent('popstate'));
      });
      await page.locator('.vm-count').waitFor();
      const ks = await traced(page, () => searchLatencies(page, page.getByRole('searchbox', { name: 'Search voicemail' }), ['grace', 'invoice', '212 555', 'contoso']));
      report('voicemail', ks);
    },
  );
}

/**
 * Calls through the real product: the built client (vite build into runtime/bench-calls/dist)
 * served by the real API server, the real Kamailio and rtpengine, Debian's chromium with two
 * browser contexts: alice (1001) calls bob (1002) from the Calls screen's dialpad.
 *
 * - call_click_to_invite_p50_ms: the Call button's click (the `pointerup` that completes it, the
 *   event the button acts on; its event timestamp) → the first SIP `INVITE` handed to the page's
 *   WebSocket (`WebSocket.prototype.send`). Both read in alice's page on the same clock
 *   (performance.now / Event.timeStamp). Includes our click handling, JsSIP's call start, the
 *   microphone (getUserMedia), the peer connection, the offer and ICE gathering.
 * - call_setup_p50_ms: the same click → the `ACK` that confirms the call (sent after the 200 OK
 *   for the INVITE arrived and was applied). Includes Kamailio and rtpengine both ways, bob's
 *   page ringing and answering (an observer in bob's page presses Accept as soon as it appears:
 *   no human reaction time), bob's microphone, answer and ICE gathering, and alice applying it.
 * - the same at p95 (call_click_to_invite_p95_ms, call_setup_p95_ms).
 *
 * Where the time goes, step by step (UC_BENCH_TRACE=1, bench/callTrace.ts), and what was done about
 * it: docs/PERFORMANCE.md, "Calls". The dialpad opens the microphone when the first digit is typed
 * and a ringing call opens the callee's (PhoneEngine.warmMicrophone, Microphone.ring), so the
 * number is typed key by key as a person would; the callee here answers far sooner than a person,
 * before its microphone is ready.
 *
 * 3 warm-up calls, then ROUNDS measured ones; between calls alice hangs up and both docks must be
 * empty again. Starts its own rtpengine + Kamailio (port base 31000) and API server (31080) with
 * a fresh runtime folder under runtime/bench-calls, and stops them by PID when done.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { percentile, round1 } from './measure';
import { withBenchStack } from './stack';
import { callTimeline, printMedians, printTimeline, TRACE_PROBE, type TraceEvent } from './callTrace';

const TRACE = !!process.env.UC_BENCH_TRACE;
/** UC_BENCH_PROFILE=1: CPU profiles (100 µs sampling) of both pages during the first measured call. */
const PROFILE = !!process.env.UC_BENCH_PROFILE;

async function startProfile(page: Page): Promise<() => Promise<unknown>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  return async () => (await cdp.send('Profiler.stop')).profile;
}

const ROUNDS = 20;
const WARMUP = 3;
const PORT_BASE = 31000;
const API_PORT = 31080;
const ORIGIN = `http://127.0.0.1:${API_PORT}`;
const SERVICES = ['rtpengine', 'kamailio'] as const;
const PASSWORD = 'Demo-pass-1';
/** Between keystrokes: about 8 digits a second. */
const TYPING_DELAY_MS = 120;

interface CallMarks {
  /** Event.timeStamp of the pointerup on the Call button. */
  click: number | null;
  invite: number | null;
  /** A 200 OK for an INVITE arrived (the next ACK is the one that confirms the call). */
  ok: boolean;
  ack: number | null;
  onAck?: () => void;
}

declare global {
  interface Window {
    __call?: CallMarks;
    __callDone?: Promise<void>;
  }
}

/**
 * Caller's page: the click on Call, the INVITE and the confirming ACK, on the page's own clock.
 * Plain JavaScript (tsx would add helpers to a function that the page does not have).
 */
const CALLER_PROBE = `(() => {
  window.__call = { click: null, invite: null, ok: false, ack: null };
  addEventListener('pointerup', (e) => {
    const button = e.target && e.target.closest ? e.target.closest('button') : null;
    if (button && button.textContent.trim() === 'Call' && window.__call.click === null) window.__call.click = e.timeStamp;
  }, true);
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      // Registered before JsSIP's onmessage: sees each response first.
      this.addEventListener('message', (e) => {
        const c = window.__call;
        if (typeof e.data === 'string' && c.invite !== null && /^SIP\\/2\\.0 2\\d\\d /.test(e.data) && /^CSeq: *\\d+ INVITE\\r?$/im.test(e.data)) c.ok = true;
      });
    }
  };
  const send = Native.prototype.send;
  Native.prototype.send = function (data) {
    const c = window.__call;
    if (typeof data === 'string' && c.click !== null) {
      if (data.startsWith('INVITE ')) {
        if (c.invite === null) c.invite = performance.now();
      } else if (data.startsWith('ACK ') && c.ok && c.ack === null) {
        c.ack = performance.now();
        if (c.onAck) c.onAck();
      }
    }
    return send.call(this, data);
  };
})()`;

/** Callee's page: presses Accept the moment it appears in the dock (no reaction time). */
const AUTO_ANSWER = `(() => {
  const check = () => {
    for (const b of document.querySelectorAll('section.call-dock button')) {
      if (b.textContent.trim() === 'Accept' && !b.dataset.benchPressed) {
        b.dataset.benchPressed = '1';
        if (window.__traceMark) window.__traceMark('Accept pressed');
        b.click();
      }
    }
  };
  const start = () => new MutationObserver(check).observe(document.body, { subtree: true, childList: true });
  if (document.body) start();
  else addEventListener('DOMContentLoaded', start);
})()`;

export async function login(page: Page, user: string): Promise<void> {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Username' }).fill(user);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.keyboard.press('Enter');
  await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
  await page.goto('/calls');
  await page.getByRole('heading', { level: 1, name: 'Calls' }).waitFor();
  await expect(page.getByRole('button', { name: 'Call', exact: true })).toBeEnabled({ timeout: 30_000 });
}

const dock = (page: Page) => page.getByRole('region', { name: 'Current calls' });

/** Around the click (CPU profiles): started once the number is typed, ended at the ACK. */
interface Around {
  beforeClick(): Promise<void>;
  afterAck(): Promise<void>;
}

async function oneCall(alice: Page, bob: Page, around?: Around): Promise<{ invite: number; setup: number }> {
  // Waited for without polling the page (Playwright's waitForFunction would run every frame meanwhile).
  await alice.evaluate(() => {
    const c = Object.assign(window.__call!, { click: null, invite: null, ok: false, ack: null });
    window.__callDone = new Promise<void>((resolve) => (c.onAck = resolve));
  });
  const number = alice.getByRole('textbox', { name: 'Number to call' });
  await number.clear();
  // Typed key by key at a brisk human pace (the dialpad opens the microphone at the first digit).
  await number.pressSequentially('1002', { delay: TYPING_DELAY_MS });
  const call = alice.getByRole('button', { name: 'Call', exact: true });
  await call.waitFor();
  await around?.beforeClick();
  await call.click();
  await alice.evaluate(() => window.__callDone);
  await around?.afterAck();
  const marks = await alice.evaluate(() => window.__call!);
  // Both sides show the connected call's timer before it is ended.
  await expect(dock(alice)).toContainText(/00:00:\d\d/);
  await expect(dock(bob)).toContainText(/00:00:\d\d/);
  await dock(alice).getByRole('button', { name: 'Hang up' }).first().click();
  await expect(dock(alice)).toBeHidden({ timeout: 15_000 });
  await expect(dock(bob)).toBeHidden({ timeout: 15_000 });
  return { invite: marks.invite! - marks.click!, setup: marks.ack! - marks.click! };
}

export async function benchCalls(): Promise<Record<string, number>> {
  return withBenchStack({ name: 'calls', portBase: PORT_BASE, apiPort: API_PORT, services: SERVICES }, async (stack) => {
    const alice = await (await stack.newContext(TRACE ? `${TRACE_PROBE};${CALLER_PROBE}` : CALLER_PROBE)).newPage();
    const bob = await (await stack.newContext(TRACE ? `${TRACE_PROBE};${AUTO_ANSWER}` : AUTO_ANSWER)).newPage();
    await login(alice, 'alice');
    await login(bob, 'bob');

    const loadStart = loadavg()[0]!;
    const invites: number[] = [];
    const setups: number[] = [];
    const timelines: TraceEvent[][] = [];
    const drain = async (page: Page, who: string) => (await page.evaluate(() => window.__trace!.splice(0))).map((e) => ({ ...e, who }));
    for (let i = 0; i < WARMUP + ROUNDS; i++) {
      if (TRACE) await Promise.all([drain(alice, 'alice'), drain(bob, 'bob')]);
      let around: Around | undefined;
      if (PROFILE && i === WARMUP) {
        let stops: Array<() => Promise<unknown>> = [];
        around = {
          beforeClick: async () => void (stops = await Promise.all([startProfile(alice), startProfile(bob)])),
          afterAck: async () => {
            const dir = join(import.meta.dirname, '..', 'runtime', 'bench-calls');
            const [a, b] = await Promise.all(stops.map((stop) => stop()));
            writeFileSync(join(dir, 'alice.cpuprofile'), JSON.stringify(a));
            writeFileSync(join(dir, 'bob.cpuprofile'), JSON.stringify(b));
            console.log(`CPU profiles of call ${i}: ${dir}/{alice,bob}.cpuprofile`);
          },
        };
      }
      const r = await oneCall(alice, bob, around);
      if (TRACE) {
        const tl = callTimeline([...(await drain(alice, 'alice')), ...(await drain(bob, 'bob'))]);
        if (i >= WARMUP) timelines.push(tl);
        if (i === WARMUP) printTimeline(`call ${i}`, tl);
      }
      if (process.env.UC_BENCH_VERBOSE) console.log(`call ${i}${i < WARMUP ? ' (warm-up)' : ''}: click→INVITE ${round1(r.invite)} ms, click→ACK ${round1(r.setup)} ms`);
      if (i < WARMUP) continue;
      invites.push(r.invite);
      setups.push(r.setup);
    }
    if (TRACE) {
      // The slowest setups too: what the median hides.
      const setupOf = (tl: TraceEvent[]) => (tl.findLast((e) => e.who === 'alice' && e.name.startsWith('send ACK'))?.t ?? 0) - tl[0]!.t;
      for (const tl of [...timelines].sort((a, b) => setupOf(b) - setupOf(a)).slice(0, 2)) printTimeline(`a slow one (${round1(setupOf(tl))} ms)`, tl);
      printMedians(timelines);
    }
    return {
      call_click_to_invite_p50_ms: round1(percentile(invites, 50)),
      call_click_to_invite_p95_ms: round1(percentile(invites, 95)),
      call_setup_p50_ms: round1(percentile(setups, 50)),
      call_setup_p95_ms: round1(percentile(setups, 95)),
      // What else the machine was doing: the 1-minute load average at the start and at the end of the calls.
      calls_loadavg_start: round1(loadStart),
      calls_loadavg_end: round1(loadavg()[0]!),
    };
  });
}

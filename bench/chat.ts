/**
 * Chat through the real product: the built client (vite build into runtime/bench-chat/dist) served
 * by the real API server, the real ejabberd (MAM archive in SQLite), Debian's chromium with two
 * browser contexts, alice and bob.
 *
 * - chat_open_session_2000_msgs_ms: bob has sent alice 2000 messages, seeded through ejabberd before
 *   any page loads (a Strophe client per user, alice's online so nothing waits in offline storage:
 *   every message is in both archives, as chat always is). Alice's page, freshly loaded and
 *   connected, is on the chat screen; the click on bob's conversation (its `pointerup` timestamp) →
 *   the newest message in the conversation's log, painted (the next animation frame), and the page
 *   free again (a task queued from that frame has run: the screen responds to input). Median of
 *   OPEN_ROUNDS, each after a reload. The client shows the newest messages from the archive (the
 *   catch-up page at connect, then pages of 25 as the user scrolls up), never the 2000 at once.
 * - chat_send_to_peer_render_p50_ms: both have the conversation open; alice types a message and
 *   presses Enter (the `keydown` timestamp) → the message in bob's log (DOM), and the animation
 *   frame that paints it: that frame is the figure. Alice's and bob's pages are separate
 *   renderer processes, so times are read as `performance.timeOrigin + <page clock>`, the same
 *   machine clock for both. Also p95. With UC_BENCH_VERBOSE each message's path is printed: Enter →
 *   alice's WebSocket send → bob's WebSocket receive → bob's DOM → bob's frame.
 *
 * - chat_loadavg: the machine's 1-minute load average when the sends ended (the figures' context).
 *
 * Starts its own ejabberd (port base 34000) and API server (18880) with a fresh runtime folder under
 * runtime/bench-chat, and stops them by PID when done.
 */
import { loadavg } from 'node:os';
import { expect, type Page } from '@playwright/test';
import { StropheClient } from '../tests/services/peers/xmpp_strophe';
import { percentile, round1 } from './measure';
import { withBenchStack } from './stack';

const PORT_BASE = 34000;
const API_PORT = 18880;
const ORIGIN = `http://127.0.0.1:${API_PORT}`;
const SERVICES = ['ejabberd'] as const;
const PASSWORD = 'Demo-pass-1';
const SEEDED = 2000;
const OPEN_ROUNDS = 5;
const SEND_WARMUP = 3;
const SEND_ROUNDS = 30;
const BOB = 'Bob Martinez';
const ALICE = 'Alice Nguyen';

interface SendMarks {
  enter?: number;
  sent?: number;
  received?: number;
  dom?: number;
  frame?: number;
}
interface OpenMarks {
  click: number | null;
  rendered: number | null;
  painted: number | null;
  responsive: number | null;
  longestTask: number;
}

declare global {
  interface Window {
    __chat?: { token: string | null; marks: SendMarks; done?: () => void };
    __chatDone?: Promise<void>;
    __open?: OpenMarks & { newest: string; done?: () => void };
    __openDone?: Promise<void>;
  }
}

/**
 * Both pages: Enter in a message box and the WebSocket (alice), the WebSocket, the log and the
 * next frame (bob), and the conversation-opening marks. Plain JavaScript (tsx would add helpers
 * the page does not have). Epoch milliseconds: `performance.timeOrigin` + the page's clock.
 */
const PROBE = `(() => {
  const now = () => performance.timeOrigin + performance.now();
  window.__chat = { token: null, marks: {} };
  const mark = (k, v) => { const c = window.__chat; if (c.token && c.marks[k] === undefined) c.marks[k] = v; };
  addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && e.target && e.target.tagName === 'TEXTAREA') mark('enter', performance.timeOrigin + e.timeStamp);
  }, true);
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      // Registered before Strophe's onmessage: sees each stanza first.
      this.addEventListener('message', (e) => {
        const c = window.__chat;
        if (c.token && typeof e.data === 'string' && e.data.includes(c.token)) mark('received', now());
      });
    }
  };
  const send = Native.prototype.send;
  Native.prototype.send = function (data) {
    const c = window.__chat;
    if (c.token && typeof data === 'string' && data.startsWith('<message') && data.includes(c.token)) mark('sent', now());
    return send.call(this, data);
  };
  const afterFrame = (cb) => requestAnimationFrame(() => { const f = now(); const ch = new MessageChannel(); ch.port1.onmessage = () => cb(f, now()); ch.port2.postMessage(0); });
  const start = () => {
    new MutationObserver(() => {
      const c = window.__chat;
      if (c.token && c.marks.dom === undefined) {
        for (const b of document.querySelectorAll('.chat-log .chat-body')) {
          if (b.textContent === c.token) {
            mark('dom', now());
            requestAnimationFrame(() => { mark('frame', now()); if (c.done) c.done(); });
            break;
          }
        }
      }
      const o = window.__open;
      if (o && o.click !== null && o.rendered === null) {
        const last = document.querySelector('.chat-log > li:last-child .chat-body');
        if (last && last.textContent === o.newest) {
          o.rendered = now();
          afterFrame((painted, free) => { o.painted = painted; o.responsive = free; if (o.done) o.done(); });
        }
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
    new PerformanceObserver((list) => {
      const o = window.__open;
      if (!o || o.click === null || o.responsive !== null) return;
      for (const e of list.getEntries()) if (e.startTime + performance.timeOrigin >= o.click) o.longestTask = Math.max(o.longestTask, e.duration);
    }).observe({ type: 'longtask', buffered: false });
  };
  if (document.body) start();
  else addEventListener('DOMContentLoaded', start);
  addEventListener('pointerup', (e) => {
    const o = window.__open;
    if (o && o.click === null) o.click = performance.timeOrigin + e.timeStamp;
  }, true);
})()`;

async function apiLogin(username: string): Promise<{ jid: string; token: string; wsUrl: string }> {
  const login = await fetch(`${ORIGIN}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: PASSWORD }) });
  if (!login.ok) throw new Error(`login ${username}: ${login.status}`);
  const { access_token } = (await login.json()) as { access_token: string };
  const res = await fetch(`${ORIGIN}/v1/xmpp-token`, { headers: { authorization: `Bearer ${access_token}` } });
  if (!res.ok) throw new Error(`xmpp token ${username}: ${res.status}`);
  const t = (await res.json()) as { jid: string; token: string; ws_url: string };
  return { jid: t.jid, token: t.token, wsUrl: t.ws_url };
}

/** Bob → alice, SEEDED messages through ejabberd (archived by MAM for both); resolves with the newest body. */
async function seed(): Promise<string> {
  const a = await apiLogin('alice');
  const b = await apiLogin('bob');
  const alice = await StropheClient.connect(a.wsUrl, `${a.jid}/seed`, a.token);
  const bob = await StropheClient.connect(b.wsUrl, `${b.jid}/seed`, b.token);
  try {
    let newest = '';
    for (let i = 1; i <= SEEDED; i++) {
      newest = `Seeded message ${i} of ${SEEDED}: the quarterly numbers, the agenda and where we meet.`;
      bob.sendChat(a.jid, newest);
      // Keep within ejabberd's c2s shaper: a round trip every 100 messages.
      if (i % 100 === 0) await bob.ping();
    }
    const last = newest;
    await alice.waitForMessage((m) => m.body === last, 60_000, 'the last seeded message');
    const page = await alice.mam({ with: b.jid, max: 1 });
    if ((page.count ?? 0) < SEEDED) throw new Error(`alice's archive has ${page.count} messages with bob, expected ${SEEDED}`);
    return newest;
  } finally {
    await Promise.all([alice.close(), bob.close()]);
  }
}

async function signIn(page: Page, user: string): Promise<void> {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Username' }).fill(user);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.keyboard.press('Enter');
  await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
}

const row = (page: Page, name: string) => page.getByRole('grid', { name: 'Conversations' }).getByRole('row', { name: new RegExp(`^${name}`) });

/** A freshly loaded chat screen, connected, bob's conversation listed; the click on it → newest painted and the page free. */
async function openOnce(page: Page, newest: string): Promise<OpenMarks> {
  await page.goto('/chat');
  await expect(row(page, BOB)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('grid', { name: 'Conversations' })).toContainText(newest.slice(0, 40));
  await page.evaluate((n) => {
    const o = { click: null, rendered: null, painted: null, responsive: null, longestTask: 0, newest: n } as NonNullable<Window['__open']>;
    window.__open = o;
    window.__openDone = new Promise<void>((r) => (o.done = r));
  }, newest);
  await row(page, BOB).click();
  await page.evaluate(() => window.__openDone);
  const marks = await page.evaluate(() => window.__open!);
  await expect(page.getByRole('heading', { level: 2, name: BOB })).toBeVisible();
  return marks;
}

async function sendOnce(alice: Page, bob: Page, i: number): Promise<SendMarks> {
  const token = `Bench message ${i} ${Math.random().toString(36).slice(2, 8)}`;
  for (const p of [alice, bob]) {
    await p.evaluate((t) => {
      const c = window.__chat!;
      c.token = t;
      c.marks = {};
      window.__chatDone = new Promise<void>((r) => (c.done = r));
    }, token);
  }
  const box = alice.getByRole('textbox', { name: `Message to ${BOB}` });
  await box.focus();
  await alice.keyboard.type(token);
  // Bob's page saw alice typing (chat states) before the measured Enter, as in a conversation.
  await alice.keyboard.press('Enter');
  await bob.evaluate(() => window.__chatDone);
  const a = await alice.evaluate(() => window.__chat!.marks);
  const b = await bob.evaluate(() => window.__chat!.marks);
  await expect(box).toHaveValue('');
  return { enter: a.enter, sent: a.sent, received: b.received, dom: b.dom, frame: b.frame };
}

export async function benchChat(): Promise<Record<string, number>> {
  const verbose = !!process.env.UC_BENCH_VERBOSE;
  return withBenchStack({ name: 'chat', portBase: PORT_BASE, apiPort: API_PORT, services: SERVICES }, async (stack) => {
    const t0 = performance.now();
    const newest = await seed();
    if (verbose) console.log(`seeded ${SEEDED} messages in ${Math.round(performance.now() - t0)} ms`);

    const alice = await (await stack.newContext(PROBE)).newPage();
    const bob = await (await stack.newContext(PROBE)).newPage();
    await signIn(alice, 'alice');

    const opens: number[] = [];
    for (let i = 0; i < OPEN_ROUNDS; i++) {
      const m = await openOnce(alice, newest);
      const total = m.responsive! - m.click!;
      opens.push(total);
      if (verbose)
        console.log(
          `open ${i}: click→newest in DOM ${round1(m.rendered! - m.click!)} ms, →painted ${round1(m.painted! - m.click!)} ms, →responsive ${round1(total)} ms, longest task ${round1(m.longestTask)} ms, messages in the log ${await alice.locator('.chat-log > li').count()}`,
        );
    }

    await signIn(bob, 'bob');
    await bob.goto('/chat');
    await row(bob, ALICE).click();
    await expect(bob.getByRole('textbox', { name: `Message to ${ALICE}` })).toBeEnabled({ timeout: 30_000 });
    await expect(alice.getByRole('textbox', { name: `Message to ${BOB}` })).toBeEnabled({ timeout: 30_000 });

    const renders: number[] = [];
    for (let i = 0; i < SEND_WARMUP + SEND_ROUNDS; i++) {
      const m = await sendOnce(alice, bob, i);
      if (verbose)
        console.log(
          `send ${i}${i < SEND_WARMUP ? ' (warm-up)' : ''}: Enter→ws send ${round1(m.sent! - m.enter!)}, →bob ws ${round1(m.received! - m.enter!)}, →bob DOM ${round1(m.dom! - m.enter!)}, →bob frame ${round1(m.frame! - m.enter!)} ms`,
        );
      if (i >= SEND_WARMUP) renders.push(m.frame! - m.enter!);
    }
    return {
      chat_send_to_peer_render_p50_ms: round1(percentile(renders, 50)),
      chat_send_to_peer_render_p95_ms: round1(percentile(renders, 95)),
      chat_open_session_2000_msgs_ms: round1(percentile(opens, 50)),
      chat_loadavg: Math.round(loadavg()[0]! * 100) / 100,
    };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await benchChat();
  for (const [k, v] of Object.entries(figures)) console.log(`${k}=${v}`);
}

/**
 * The meeting page through Janus, for real: the built client served by the real API server, Janus
 * and coturn of the project, Debian's chromium with its fake 640x480 camera and beeping microphone.
 *
 * - meeting_join_to_first_frame_p50_ms (budget ≤ 1000 with 3 participants): two people are in the
 *   meeting with their cameras on; the third presses "Join now" in the lobby → the first frame of a
 *   colleague's video shown in their tile (the page's own clock: the press, then the first
 *   requestVideoFrameCallback of a remote tile). Median of ROUNDS joins (the third leaves between).
 * - meeting_max_participants_2cores: people join one by one with their cameras on until one of
 *   them stops receiving frames from someone (each remote tile's frame count must grow within
 *   STALL_MS), or MAX_PEOPLE is reached; the figure is the largest meeting where everyone still
 *   received every other camera. Every participant is a tab of one chromium (each a context of its
 *   own): the browsers, not Janus, are what saturates this machine (docs/PERFORMANCE.md).
 * Ports: base 48000, API 48080 (UC_BENCH_MEETING_PORT_BASE moves both).
 */
import { expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../server/seed';
import { percentile, round1 } from './measure';
import { withBenchStack, type BenchStack } from './stack';

export const MEETING_JOIN_BUDGET_MS = 1000;
const ROUNDS = 5;
const MAX_PEOPLE = Number(process.env.UC_BENCH_MEETING_MAX || 10);
const STALL_MS = 4000;
const PORT_BASE = Number(process.env.UC_BENCH_MEETING_PORT_BASE || 48000);
const API_PORT = PORT_BASE + 80;
const SERVICES = ['janus', 'coturn'] as const;
/** Demo users of one organisation (Acme), as many as the largest meeting tried. */
const PEOPLE = ['aiko.tanaka', 'priya.raman', 'lars.johansson', 'chiara.rossi', 'wei.zhang', 'ana.sousa', 'dmitri.volkov', 'noa.levi', 'kwame.mensah', 'rahul.mehta', 'jonas.becker', 'thabo.nkosi'];

async function apiLogin(origin: string, username: string): Promise<{ token: string; userId: number }> {
  const r = await fetch(`${origin}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: DEMO_PASSWORD }) });
  if (!r.ok) throw new Error(`login ${username}: ${r.status}`);
  const body = (await r.json()) as { access_token: string; user_id: number };
  return { token: body.access_token, userId: body.user_id };
}

async function api(origin: string, token: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const r = await fetch(`${origin}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return r.status === 204 ? null : r.json();
}

/** Signed in, cameras on from the start (the "start with video" setting), and on the meeting's lobby. */
async function person(stack: BenchStack, username: string, path: string): Promise<Page> {
  const { token, userId } = await apiLogin(stack.origin, username);
  await api(stack.origin, token, 'PUT', `/v1/users/${userId}/settings/uc`, { start_with_video: true });
  const page = await (await stack.newContext()).newPage();
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
  await page.goto(path);
  await page.getByRole('button', { name: 'Join now' }).waitFor({ timeout: 30_000 });
  return page;
}

const controls = (page: Page) => page.getByRole('toolbar', { name: 'Meeting controls' });

// Page scripts as text: tsx's helpers (__name) do not exist in the page.
/** Presses "Join now" and resolves with the page's milliseconds until a colleague's first video frame. */
const JOIN_TO_FIRST_FRAME = `new Promise((resolve, reject) => {
  const button = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Join now');
  if (!button) return reject(new Error('no Join now'));
  const t0 = performance.now();
  const seen = new WeakSet();
  new MutationObserver(() => {
    for (const v of document.querySelectorAll('.mt-tile:not([data-self]) video')) {
      if (seen.has(v)) continue;
      seen.add(v);
      v.requestVideoFrameCallback(() => resolve(performance.now() - t0));
    }
  }).observe(document.body, { subtree: true, childList: true });
  button.click();
})`;

const joinToFirstFrame = (page: Page): Promise<number> => page.evaluate(JOIN_TO_FIRST_FRAME) as Promise<number>;

/** Whether every remote camera tile of the page shows new frames within STALL_MS. */
const receivesAll = (page: Page, others: number): Promise<boolean> =>
  page.evaluate(`new Promise((resolve) => {
    const videos = [...document.querySelectorAll('.mt-tile:not([data-self]) video')];
    if (videos.length < ${others}) return resolve(false);
    const before = videos.map((v) => v.getVideoPlaybackQuality().totalVideoFrames);
    setTimeout(() => resolve(videos.every((v, i) => v.getVideoPlaybackQuality().totalVideoFrames > before[i])), ${STALL_MS});
  })`) as Promise<boolean>;

export async function benchMeetingRoom(): Promise<Record<string, number>> {
  return withBenchStack({ name: 'meeting-room', portBase: PORT_BASE, apiPort: API_PORT, services: SERVICES }, async (stack) => {
    const host = await apiLogin(stack.origin, PEOPLE[0]!);
    const meeting = (await api(stack.origin, host.token, 'POST', '/v1/meetings', { meeting_name: 'Bench meeting', instant: true })) as { url: string };
    const path = new URL(meeting.url).pathname;

    // Two in, cameras on; the third joins ROUNDS times.
    const first = await person(stack, PEOPLE[0]!, path);
    const second = await person(stack, PEOPLE[1]!, path);
    for (const p of [first, second]) {
      await p.getByRole('button', { name: 'Join now' }).click();
      await expect(controls(p).getByRole('button', { name: 'Camera' })).toHaveAttribute('aria-pressed', 'true', { timeout: 30_000 });
    }
    const third = await person(stack, PEOPLE[2]!, path);
    const joins: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      joins.push(await joinToFirstFrame(third));
      await expect(controls(third).getByRole('button', { name: 'Mute' })).toBeEnabled();
      await third.keyboard.press('Control+k');
      await third.keyboard.type('leave meeting');
      await third.getByRole('option', { name: /^Leave meeting/ }).first().click();
      await third.getByRole('button', { name: 'Enter again' }).click();
      await third.getByRole('button', { name: 'Join now' }).waitFor();
    }
    if (process.env.UC_BENCH_VERBOSE) console.log(`meeting joins → first frame: ${joins.map(round1).join(' ')}`);

    // One more at a time, until someone stops receiving someone.
    const pages = [first, second];
    await third.getByRole('button', { name: 'Join now' }).click();
    pages.push(third);
    let held = 0;
    for (let n = 3; n <= MAX_PEOPLE; n++) {
      if (n > pages.length) {
        // With the meeting already loading both cores, the next person may not even reach the
        // lobby in time: that is the limit being measured, not a failure of the bench.
        const p = await person(stack, PEOPLE[n - 1]!, path).then(
          (page) => page,
          (err: unknown) => (console.error(`meeting of ${n}: ${PEOPLE[n - 1]} did not reach the lobby (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`), null),
        );
        if (!p) break;
        await p.getByRole('button', { name: 'Join now' }).click();
        pages.push(p);
      }
      // Give the newest participant's media time to arrive everywhere before judging.
      const ok = await expect
        .poll(async () => (await Promise.all(pages.map((p) => receivesAll(p, n - 1)))).every(Boolean), { timeout: 30_000, intervals: [0] })
        .toBe(true)
        .then(
          () => true,
          () => false,
        );
      if (process.env.UC_BENCH_VERBOSE) console.log(`meeting of ${n}: ${ok ? 'everyone receives everyone' : 'someone stalled'}`);
      if (!ok) break;
      held = n;
    }
    return { meeting_join_to_first_frame_p50_ms: round1(percentile(joins, 50)), meeting_max_participants_2cores: held };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await benchMeetingRoom();
  for (const [k, v] of Object.entries(figures)) console.log(`${k}=${v}`);
}

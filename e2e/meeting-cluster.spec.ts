import { janusInstances, placeMeeting } from '../server/services/janus-instances';
import { Meeting } from '../src/wire/meetings';
import { expect, test, type Page } from './csp-guard';
import { DEMO_PASSWORD, signedInPerson } from './fixtures';
import { controls, framesOf, joinNow, tile } from './meeting-helpers';
import { killService, startService, suiteServicesConfig } from './services-control';

// The meeting journeys' users (meeting-room.spec.ts): Nikolai hosts, Zainab comes in.
const HOST = 'nikolai.petrov';
const SECOND = 'zainab.bello';

/** Every WebSocket the page opens, by URL. */
const socketsOf = (page: Page) => {
  const urls: string[] = [];
  page.on('websocket', (ws) => urls.push(ws.url().replace(/\/$/, '')));
  return urls;
};

/*
 * Issue 25 with UC_CLUSTER=1 (the suite then starts janus2 too): a meeting placed on the second
 * Janus is joined there by the real meeting page (the CSP guard fails the test on any refused
 * connection), and when that Janus dies and comes back, both pages join again by themselves.
 */
test('a meeting on the second Janus: both pages connect to that instance, see each other, and come back by themselves after it is killed and restarted', async ({ browser, baseURL, request }) => {
  const cfg = suiteServicesConfig();
  test.skip(!cfg.cluster, 'needs the suite run with UC_CLUSTER=1 (two Janus)');
  test.slow();
  const instances = janusInstances(cfg);
  const urls = instances.map((i) => `ws://127.0.0.1:${i.ws}`);
  const token = ((await (await request.post('/login', { data: { username: HOST, password: DEMO_PASSWORD } })).json()) as { access_token: string }).access_token;
  let meeting: Meeting | null = null;
  for (let i = 0; i < 40 && !meeting; i++) {
    const res = await request.post('/v1/meetings', { headers: { authorization: `Bearer ${token}` }, data: { meeting_name: `Second node ${Date.now().toString(36)}`, instant: true, time_zone: 'UTC' } });
    expect(res.status()).toBe(201);
    const m = Meeting.parse(await res.json());
    if (placeMeeting(m.id, instances.map((x) => x.name)) === 1) meeting = m;
  }
  const path = new URL(meeting!.url!).pathname;

  const host = await signedInPerson(browser, baseURL!, HOST);
  const zainab = await signedInPerson(browser, baseURL!, SECOND);
  const seen = [socketsOf(host), socketsOf(zainab)];
  for (const p of [host, zainab]) {
    await p.goto(path);
    await joinNow(p);
    await p.keyboard.press('Control+e');
  }
  for (const s of seen) {
    expect(s).toContain(urls[1]);
    expect(s).not.toContain(urls[0]);
  }
  const pairs = [
    [host, 'Zainab Bello'],
    [zainab, 'Nikolai Petrov'],
  ] as const;
  for (const [p, other] of pairs) await expect.poll(() => framesOf(tile(p, other)), { timeout: 20_000 }).toBeGreaterThan(0);

  await killService('janus2');
  for (const p of [host, zainab]) await expect(p.getByRole('alert').filter({ hasText: "The connection to the meeting's media server was lost." })).toBeVisible({ timeout: 20_000 });
  await startService('janus2');
  for (const [p, other] of pairs) {
    await expect(controls(p).getByRole('button', { name: 'Camera' })).toHaveAttribute('aria-pressed', 'true', { timeout: 60_000 });
    await expect.poll(() => framesOf(tile(p, other)), { timeout: 30_000 }).toBeGreaterThan(0);
  }
  // Back on the same instance: the node-1 Janus was never asked.
  for (const s of seen) expect(s.filter((u) => urls.includes(u))).toEqual(expect.arrayContaining([urls[1]]));
  for (const s of seen) expect(s).not.toContain(urls[0]);
  await host.context().close();
  await zainab.context().close();
});

import { expect, test, type Page } from './csp-guard';
import { input, log, OFFLINE, messageByPalette, send } from './chat-helpers';
import { expectNoAxeViolations, signedInPerson } from './fixtures';
import { killService, startService } from './services-control';

// The chat server dies mid-conversation (SIGKILL by its PID: no clean shutdown) and is started
// again by the project's own manager. Two real browser users; only ejabberd is touched.

/** Every text the connection banner shows, with when (ms, page clock): the retry schedule as the user saw it. */
async function recordBanner(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: Array<{ at: number; text: string }> = [];
    (window as unknown as { bannerLog: typeof seen }).bannerLog = seen;
    let last = '';
    const look = () => {
      const text = document.querySelector('.banner [role="status"]')?.textContent ?? '';
      if (text !== last) seen.push({ at: performance.now(), text: (last = text) });
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}
const bannerLog = (page: Page) => page.evaluate(() => (window as unknown as { bannerLog: Array<{ at: number; text: string }> }).bannerLog);

const RETRYING = /^Chat is disconnected\. Retrying in (\d+) seconds?…$/;
const CONNECTED = 'Chat is connected again.';

test.describe('chat across a chat-server restart', () => {
  test.setTimeout(240_000);

  test('ejabberd killed and restarted mid-conversation: the banner retries on the 0, 15, 30… s schedule, nothing sent before or during the outage is lost or doubled', async ({ browser, baseURL }) => {
    const alice = await signedInPerson(browser, baseURL!, 'alice');
    const bob = await signedInPerson(browser, baseURL!, 'bob');
    const run = Date.now().toString(36);
    const all = (page: Page, peer: string, text: string) => log(page, peer).getByRole('listitem').filter({ hasText: text });
    try {
      // A conversation open on both sides.
      await messageByPalette(alice, 'Bob Martinez');
      await send(alice, 'Bob Martinez', `hello ${run}`);
      // Bob opens the chat list (g t; Alt+N first so no list takes the letters) and the conversation.
      await bob.keyboard.press('Alt+n');
      await bob.keyboard.press('g');
      await bob.keyboard.press('t');
      await expect(bob.getByRole('heading', { level: 1, name: 'Chat' })).toBeVisible();
      const session = bob.getByRole('row', { name: /Alice Nguyen/ });
      await session.focus();
      await bob.keyboard.press('Enter');
      await expect(log(bob, 'Alice Nguyen')).toContainText(`hello ${run}`);
      await send(bob, 'Alice Nguyen', `hi ${run}`);
      await expect(log(alice, 'Bob Martinez')).toContainText(`hi ${run}`);

      // Bob's laptop loses the network; alice writes twice, and the server has both (Delivered)…
      await bob.context().setOffline(true);
      await expect(input(bob, 'Alice Nguyen')).toHaveAccessibleDescription(OFFLINE);
      for (const n of [1, 2]) {
        await send(alice, 'Bob Martinez', `before the crash ${n} ${run}`);
        await expect(all(alice, 'Bob Martinez', `before the crash ${n} ${run}`)).toContainText('Delivered');
      }

      // …when the chat server crashes.
      await recordBanner(alice);
      const t0 = await alice.evaluate(() => performance.now());
      await killService('ejabberd');
      const banner = alice.getByRole('status').filter({ hasText: /^Chat is/ });
      // The immediate retry (0 s) fails on a dead port; the next one is 15 s away, counted down.
      await expect(banner).toHaveText(/^Chat is disconnected\. Retrying in 1[0-5] seconds…$/, { timeout: 15_000 });
      await expect(input(alice, 'Bob Martinez')).toHaveAccessibleDescription(OFFLINE);

      await startService('ejabberd');
      // The schedule, not the restart, brings alice back: at the 15 s retry (or 30 s after that if the
      // server was still starting then).
      await expect(banner).toHaveText(CONNECTED, { timeout: 15_000 + 30_000 + 10_000 });
      await expect(input(alice, 'Bob Martinez')).toHaveAccessibleDescription('');
      // The success banner closes after 2 s.
      await expect(banner).toHaveCount(0, { timeout: 5_000 });

      const seen = (await bannerLog(alice)).filter((e) => e.at >= t0);
      const starts: Array<{ at: number; seconds: number }> = [];
      for (const e of seen) {
        const m = RETRYING.exec(e.text);
        const seconds = m ? Number(m[1]) : null;
        if (seconds !== null && (starts.length === 0 || seconds > starts.at(-1)!.seconds)) starts.push({ at: e.at, seconds });
      }
      const back = seen.find((e) => e.text === CONNECTED)!;
      const waits = starts.filter((s) => s.seconds > 0);
      expect(waits.map((s) => s.seconds), 'countdowns after the immediate retry').toEqual([15, 30, 60, 300].slice(0, waits.length));
      expect(waits.length).toBeGreaterThan(0);
      test.info().annotations.push({ type: 'banner after the kill', description: [...waits.map((w) => `${Math.round(w.at - t0)} ms: retrying in ${w.seconds} s`), `${Math.round(back.at - t0)} ms: connected again`].join('; ') });
      // Each countdown runs out before the next try: the reconnect happened no earlier than scheduled.
      const ends = [...waits.slice(1).map((s) => s.at), back.at];
      for (const [i, w] of waits.entries()) expect(ends[i]! - w.at, `retry after ${w.seconds} s`).toBeGreaterThanOrEqual(w.seconds * 1000 - 1000);
      expect(back.at - waits.at(-1)!.at, 'reconnected at the scheduled retry, not long after').toBeLessThan(waits.at(-1)!.seconds * 1000 + 10_000);

      // Back up: alice writes once more while bob is still away.
      await send(alice, 'Bob Martinez', `after the restart ${run}`);
      await expect(all(alice, 'Bob Martinez', `after the restart ${run}`)).toContainText('Delivered');

      // Bob's network returns: everything arrives, once, in order (archive catch-up after the restart).
      await bob.context().setOffline(false);
      await expect(input(bob, 'Alice Nguyen')).toHaveAccessibleDescription('', { timeout: 30_000 });
      const expected = [`hello ${run}`, `hi ${run}`, `before the crash 1 ${run}`, `before the crash 2 ${run}`, `after the restart ${run}`];
      for (const text of expected) await expect(all(bob, 'Alice Nguyen', text)).toHaveCount(1);
      for (const text of expected) await expect(all(alice, 'Bob Martinez', text)).toHaveCount(1);
      const order = await log(bob, 'Alice Nguyen').getByRole('listitem').allInnerTexts();
      const at = expected.map((text) => order.findIndex((line) => line.includes(text)));
      expect(at).toEqual([...at].sort((a, b) => a - b));

      // And the conversation goes on both ways.
      await send(bob, 'Alice Nguyen', `got them all ${run}`);
      await expect(all(alice, 'Bob Martinez', `got them all ${run}`)).toHaveCount(1);
      await expectNoAxeViolations(alice, 'conversation after the chat server restarted');
    } finally {
      await alice.context().close();
      await bob.context().close();
    }
  });
});

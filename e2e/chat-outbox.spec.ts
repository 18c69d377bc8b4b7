import { expect, test, type Browser, type Page } from './csp-guard';
import { input, log, messageByPalette, OFFLINE, send } from './chat-helpers';
import { expectNoAxeViolations, signedInPerson } from './fixtures';
import { killService, startService } from './services-control';

// Writing through a chat outage: the real ejabberd is killed (SIGKILL, no clean shutdown) while the
// cursor is in the message box, and started again by the project's own manager. Two real users.

const row = (page: Page, peer: string, text: string) => log(page, peer).getByRole('listitem').filter({ hasText: text });

/** Bob opens his chat list (g t; Alt+N first so no list takes the letters) and alice's conversation. */
async function bobOpensAlice(bob: Page, run: string): Promise<void> {
  await bob.keyboard.press('Alt+n');
  await bob.keyboard.press('g');
  await bob.keyboard.press('t');
  await expect(bob.getByRole('heading', { level: 1, name: 'Chat' })).toBeVisible();
  await bob.getByRole('row', { name: /Alice Nguyen/ }).focus();
  await bob.keyboard.press('Enter');
  await expect(log(bob, 'Alice Nguyen')).toContainText(`hello ${run}`);
}

/** Alice and bob signed in, their conversation open on both sides (alice said hello), then `body`; both closed after. */
async function inConversation(browser: Browser, baseURL: string, body: (alice: Page, bob: Page, run: string) => Promise<void>): Promise<void> {
  const alice = await signedInPerson(browser, baseURL, 'alice');
  const bob = await signedInPerson(browser, baseURL, 'bob');
  const run = Date.now().toString(36);
  try {
    await messageByPalette(alice, 'Bob Martinez');
    await send(alice, 'Bob Martinez', `hello ${run}`);
    await bobOpensAlice(bob, run);
    await body(alice, bob, run);
  } finally {
    await alice.context().close();
    await bob.context().close();
  }
}

test.describe('writing while the chat server is down', () => {
  test.setTimeout(240_000);

  test('the box keeps the focus and the words; Enter queues as Sending…; after the restart the peer gets each message once, in order, and the sender sees Delivered', async ({ browser, baseURL }) => {
    await inConversation(browser, baseURL!, async (alice, bob, run) => {
      // Alice is mid-sentence when the chat server dies.
      const box = input(alice, 'Bob Martinez');
      await box.focus();
      await alice.keyboard.type(`first, typed before the crash ${run}`);
      const url = alice.url();
      await killService('ejabberd');
      await expect(alice.getByRole('status').filter({ hasText: /^Chat is disconnected/ })).toBeVisible({ timeout: 15_000 });
      // The box still has the caret and the words, says why nothing goes out now, and takes more.
      await expect(box).toBeFocused();
      await expect(box).toBeEditable();
      await expect(box).toHaveValue(`first, typed before the crash ${run}`);
      await expect(box).toHaveAccessibleDescription(OFFLINE);
      await alice.keyboard.press('Enter');
      await expect(box).toHaveValue('');
      await expect(row(alice, 'Bob Martinez', `first, typed before the crash ${run}`)).toContainText('Sending…');
      // Letters that are single-key shortcuts elsewhere ("g t", "c", "?") stay in the box.
      await alice.keyboard.type(`second: g t c ? typed during the outage ${run}`);
      await expect(box).toHaveValue(`second: g t c ? typed during the outage ${run}`);
      await alice.keyboard.press('Enter');
      await expect(row(alice, 'Bob Martinez', `second: g t c ? typed during the outage ${run}`)).toContainText('Sending…');
      await expect(box).toBeFocused();
      expect(alice.url()).toBe(url);
      await expectNoAxeViolations(alice, 'conversation with messages waiting while chat is disconnected');

      await startService('ejabberd');
      // The banner's schedule brings both back (the 15 s retry, or the 30 s one after it).
      const first = row(alice, 'Bob Martinez', `first, typed before the crash ${run}`);
      const second = row(alice, 'Bob Martinez', `second: g t c ? typed during the outage ${run}`);
      await expect(first).toContainText(/Delivered|Received/, { timeout: 90_000 });
      await expect(second).toContainText(/Delivered|Received/);
      // The banner came and went; the caret never left the box, and the next message goes at once.
      await expect(box).toBeFocused();
      await alice.keyboard.type(`third, after the restart ${run}`);
      await alice.keyboard.press('Enter');
      await expect(row(alice, 'Bob Martinez', `third, after the restart ${run}`)).toContainText(/Delivered|Received/);

      // Bob has each once, in order, and so does alice: nothing typed was lost or doubled.
      const expected = [`hello ${run}`, `first, typed before the crash ${run}`, `second: g t c ? typed during the outage ${run}`, `third, after the restart ${run}`];
      for (const text of expected) await expect(row(bob, 'Alice Nguyen', text)).toHaveCount(1, { timeout: 90_000 });
      for (const text of expected) await expect(row(alice, 'Bob Martinez', text)).toHaveCount(1);
      const order = await log(bob, 'Alice Nguyen').getByRole('listitem').allInnerTexts();
      const at = expected.map((text) => order.findIndex((line) => line.includes(text)));
      expect(at).toEqual([...at].sort((a, b) => a - b));
    });
  });

  test('a reload of the tab during the outage keeps the waiting message and the unfinished draft; after the restart the message reaches bob once, the draft stays a draft', async ({ browser, baseURL }) => {
    await inConversation(browser, baseURL!, async (alice, bob, run) => {
      const box = input(alice, 'Bob Martinez');
      await killService('ejabberd');
      await expect(box).toHaveAccessibleDescription(OFFLINE, { timeout: 15_000 });
      await expect(box).toBeFocused();
      await alice.keyboard.type(`waiting across a reload ${run}`);
      await alice.keyboard.press('Enter');
      await expect(row(alice, 'Bob Martinez', `waiting across a reload ${run}`)).toContainText('Sending…');
      await alice.keyboard.type(`unfinished draft ${run}`);

      await alice.reload();
      await expect(row(alice, 'Bob Martinez', `waiting across a reload ${run}`)).toContainText('Sending…', { timeout: 20_000 });
      await expect(input(alice, 'Bob Martinez')).toHaveValue(`unfinished draft ${run}`);

      await startService('ejabberd');
      await expect(row(alice, 'Bob Martinez', `waiting across a reload ${run}`)).toContainText(/Delivered|Received/, { timeout: 90_000 });
      await expect(row(bob, 'Alice Nguyen', `waiting across a reload ${run}`)).toHaveCount(1, { timeout: 90_000 });
      await expect(row(alice, 'Bob Martinez', `waiting across a reload ${run}`)).toHaveCount(1);
      await expect(input(alice, 'Bob Martinez')).toHaveValue(`unfinished draft ${run}`);
      await expect(row(bob, 'Alice Nguyen', `unfinished draft ${run}`)).toHaveCount(0);
    });
  });
});

import { expect, test, type Page } from './csp-guard';
import { expectNoAxeViolations, loginByKeyboard, openPalette, signedInPerson } from './fixtures';
import { input, log, OFFLINE, messageByPalette, send } from './chat-helpers';

// Real ejabberd (XMPP over WebSocket, MAM, offline storage), started by the global setup; two
// browser contexts are two people: alice and bob. Everything by keyboard.

const person = signedInPerson;

test.describe('messaging', () => {
  test.setTimeout(120_000);

  test('alice and bob chat through ejabberd by keyboard: delivery, composing, unread, presence, a reconnect loses nothing; axe on every chat screen', async ({ browser, baseURL }) => {
    const alice = await person(browser, baseURL!, 'alice');
    const bob = await person(browser, baseURL!, 'bob');
    const run = Date.now().toString(36);
    try {
      // Bob waits on the chat list (g t); alice starts the conversation from the palette.
      // (Alt+N first: a focused list would take the letters as type-ahead.)
      await bob.keyboard.press('Alt+n');
      await bob.keyboard.press('g');
      await bob.keyboard.press('t');
      await expect(bob.getByRole('heading', { level: 1, name: 'Chat' })).toBeVisible();
      await expectNoAxeViolations(bob, 'chat list');
      // Other areas (voicemail…) may count unread items too: the title's number is their sum.
      const titleCount = async () => Number(/^\((\d+)\) /.exec(await bob.title())?.[1] ?? 0);
      const before = await titleCount();

      // New chat (Shift+C) lists colleagues only, never oneself.
      await alice.keyboard.press('Shift+C');
      await expect(alice.getByRole('heading', { level: 2, name: 'Start a chat with a colleague' })).toBeVisible();
      const colleagues = alice.getByRole('grid', { name: 'Colleagues' });
      await expect(colleagues.getByRole('row', { name: /Bob Martinez/ })).toBeVisible();
      await expect(colleagues.getByRole('row', { name: /Alice Nguyen/ })).toHaveCount(0);
      await expectNoAxeViolations(alice, 'new chat');

      await messageByPalette(alice, 'Bob Martinez');
      await send(alice, 'Bob Martinez', `hello bob ${run}`);
      const first = log(alice, 'Bob Martinez').getByRole('listitem').filter({ hasText: `hello bob ${run}` });
      // Delivered (the server has it), then received (bob's client confirmed it).
      await expect(first).toContainText(/Delivered|Received/);
      await expect(first).toContainText('Received');

      // Bob: the session appears with an unread badge; the navigation badge and the title count it.
      const session = bob.getByRole('row', { name: /Alice Nguyen/ });
      await expect(session).toBeVisible();
      await expect(bob.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: /^Chat Unread messages: 1$/ })).toBeVisible();
      await expect.poll(titleCount).toBe(before + 1);
      await session.focus();
      await bob.keyboard.press('Enter');
      await expect(log(bob, 'Alice Nguyen')).toContainText(`hello bob ${run}`);
      // Opened: read, the badge goes.
      await expect.poll(titleCount).toBe(before);
      await expectNoAxeViolations(bob, 'conversation');

      // Composing both ways: bob types, alice sees it; Shift+Enter adds a line, Enter sends.
      await input(bob, 'Alice Nguyen').focus();
      await bob.keyboard.type('line one');
      await expect(alice.getByRole('status').filter({ hasText: 'Bob Martinez is typing…' })).toBeVisible();
      await bob.keyboard.press('Shift+Enter');
      await bob.keyboard.type(`line two ${run}`);
      await expect(input(bob, 'Alice Nguyen')).toHaveValue(`line one\nline two ${run}`);
      await bob.keyboard.press('Enter');
      const reply = log(alice, 'Bob Martinez').getByRole('listitem').filter({ hasText: `line two ${run}` });
      await expect(reply).toContainText(`line one`);
      expect(await reply.locator('.chat-body').evaluate((el) => (el as HTMLElement).innerText)).toBe(`line one\nline two ${run}`);
      await expect(alice.getByRole('status').filter({ hasText: 'is typing' })).toHaveCount(0);

      // Bodies are text, never HTML.
      await send(alice, 'Bob Martinez', `<img src=x onerror=alert(1)> ${run}`);
      await expect(log(bob, 'Alice Nguyen')).toContainText(`<img src=x onerror=alert(1)> ${run}`);
      // (The conversation may hold pictures other journeys sent: only this message is looked at.)
      const markup = log(bob, 'Alice Nguyen').getByRole('listitem').filter({ hasText: `<img src=x onerror=alert(1)> ${run}` });
      await expect(markup).toHaveCount(1);
      expect(await markup.locator('img').count()).toBe(0);

      // Presence: alice sets Busy from the palette; bob sees it (debounced 400 ms) within a second or so.
      await expect(bob.locator('.chat-head')).toContainText('Available');
      await openPalette(alice);
      await alice.keyboard.type('Set status');
      await alice.keyboard.press('Enter');
      await alice.keyboard.type('Busy');
      await expect(alice.getByRole('option', { name: /^Busy/ })).toHaveAttribute('aria-selected', 'true');
      await alice.keyboard.press('Enter');
      await expect(bob.locator('.chat-head')).toContainText('Busy', { timeout: 3000 });
      // A custom status (the profile menu's "Set custom status" asks the same question): too long is
      // refused with the reason, what was typed stays to be shortened; bob then sees alice's words.
      await openPalette(alice);
      await alice.keyboard.type('Set custom status');
      await alice.keyboard.press('Enter');
      await alice.keyboard.type('x'.repeat(101));
      await alice.keyboard.press('Enter');
      await expect(alice.getByRole('dialog')).toContainText('Keep it to 100 characters.');
      await alice.keyboard.press('ControlOrMeta+A');
      await alice.keyboard.type('Workshop until 3');
      await alice.keyboard.press('Enter');
      await expect(bob.locator('.chat-head')).toContainText('Workshop until 3', { timeout: 3000 });

      // Bob's network goes away; alice writes twice; nothing is lost when bob is back.
      await bob.context().setOffline(true);
      await expect(input(bob, 'Alice Nguyen')).toHaveAccessibleDescription(OFFLINE);
      await send(alice, 'Bob Martinez', `while away one ${run}`);
      await send(alice, 'Bob Martinez', `while away two ${run}`);
      await bob.context().setOffline(false);
      await expect(input(bob, 'Alice Nguyen')).toHaveAccessibleDescription('', { timeout: 30_000 });
      await expect(log(bob, 'Alice Nguyen').getByRole('listitem').filter({ hasText: `while away one ${run}` })).toHaveCount(1);
      await expect(log(bob, 'Alice Nguyen').getByRole('listitem').filter({ hasText: `while away two ${run}` })).toHaveCount(1);
      await expect(log(bob, 'Alice Nguyen').getByRole('listitem').filter({ hasText: `hello bob ${run}` })).toHaveCount(1);
      // And bob can answer at once.
      await send(bob, 'Alice Nguyen', `back ${run}`);
      await expect(log(alice, 'Bob Martinez')).toContainText(`back ${run}`);
      await expectNoAxeViolations(alice, 'conversation after a reconnect');
    } finally {
      await alice.context().close();
      await bob.context().close();
    }
  });

  test('the limited-access role has no chat', async ({ page }) => {
    await loginByKeyboard(page, 'dave');
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: /^Chat/ })).toHaveCount(0);
    await openPalette(page);
    await page.keyboard.type('Go to chat');
    await expect(page.getByRole('option', { name: /^Go to chat/ })).toHaveCount(0);
  });
});

import { expect, test, type Locator, type Page } from './csp-guard';
import { expectNoAxeViolations, openPalette, signedInPerson, tabUntilFocused } from './fixtures';
import { input, log, messageByPalette } from './chat-helpers';

// Ad-hoc invites over chat (issue 22), between two real browsers through ejabberd and the API: one
// accepted (both open the meeting's window), one declined (the rejection in the chat). Keyboard only.
// pedro.alves and leila.haddad: no other spec signs in as them.
const INVITER = { user: 'pedro.alves', name: 'Pedro Alves' };
const INVITEE = { user: 'leila.haddad', name: 'Leila Haddad' };

/** Shift+Tab, as a keyboard user goes back from the message box into the log, until `target` has the focus. */
async function shiftTabUntilFocused(page: Page, target: Locator, max = 20): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Shift+Tab');
  }
  await expect(target).toBeFocused();
}

/** Chat is connected once the palette's "Message" is enabled (until then it says why). */
async function chatConnected(page: Page): Promise<void> {
  await openPalette(page);
  await page.keyboard.type('Message');
  await expect(page.getByRole('option', { name: /^Message\b/ }).first()).toHaveAttribute('aria-disabled', 'false', { timeout: 30_000 });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Command palette' })).toHaveCount(0);
}

/** The newest invite card in a conversation (earlier runs' invites stay in the history, expired). */
const lastInvite = (page: Page, name: string, from: string) => log(page, name).getByRole('group', { name: from }).last();

test.describe('ad-hoc invites', () => {
  test.setTimeout(150_000);

  test('Meet now ▸ Leila: the invite modal waits, Leila accepts in the chat and both open the meeting window; a second invite is declined and the rejection shows in the chat; axe on the modal', async ({ browser, baseURL }) => {
    const pedro = await signedInPerson(browser, baseURL!, INVITER.user);
    const leila = await signedInPerson(browser, baseURL!, INVITEE.user);
    try {
      // Both in their conversation with the other (chat connected, presence known).
      await chatConnected(leila);
      await chatConnected(pedro);
      await messageByPalette(leila, INVITER.name);
      await messageByPalette(pedro, INVITEE.name);
      await expect(pedro.locator('.chat-head')).toContainText('Available', { timeout: 20_000 });

      // 1. Pedro: Ctrl+K, "Meet now", Leila, Enter: the modal waits for her.
      await openPalette(pedro);
      await pedro.keyboard.type('Meet now');
      await expect(pedro.getByRole('option', { name: /^Meet now\b/ }).first()).toHaveAttribute('aria-selected', 'true');
      await pedro.keyboard.press('Enter');
      await pedro.keyboard.type(INVITEE.name);
      await expect(pedro.getByRole('option', { name: new RegExp(`^${INVITEE.name}`) }).first()).toHaveAttribute('aria-selected', 'true');
      await pedro.keyboard.press('Enter');
      const modal = pedro.getByRole('dialog', { name: `Meet now with ${INVITEE.name}` });
      await expect(modal.getByRole('status')).toHaveText(`Waiting for ${INVITEE.name}…`);
      await expect(modal.getByRole('button', { name: 'Cancel invitation' })).toBeFocused();
      await expectNoAxeViolations(pedro, 'ad-hoc invite modal');

      // Leila: the invite in the chat (and a notification), with Accept and Decline.
      await expect(leila.getByText(`${INVITER.name} invites you to meet now.`).first()).toBeVisible();
      const card = lastInvite(leila, INVITER.name, `${INVITER.name} invites you to meet now.`);
      await expect(card).toContainText('Waiting for your answer.');
      const accept = card.getByRole('button', { name: 'Accept' });
      await input(leila, INVITER.name).focus();
      await shiftTabUntilFocused(leila, accept);
      const pedroWindow = pedro.waitForEvent('popup');
      const leilaWindow = leila.waitForEvent('popup');
      await leila.keyboard.press('Enter');
      // Accepted once: the buttons are gone (accepting or declining twice is blocked).
      await expect(card.getByRole('button', { name: 'Accept' })).toHaveCount(0);
      await expect(card.getByRole('button', { name: 'Decline' })).toHaveCount(0);
      // Pedro made the meeting and said it is available: both windows open at the same meeting's lobby.
      const [pw, lw] = await Promise.all([pedroWindow, leilaWindow]);
      const lobby = /\/uc\/[^/?]+\/([a-z0-9]{5,})\?ssid=\d+/;
      await expect.poll(() => pw.url(), { timeout: 20_000 }).toMatch(lobby);
      await expect.poll(() => lw.url(), { timeout: 20_000 }).toMatch(lobby);
      expect(new URL(pw.url()).pathname).toBe(new URL(lw.url()).pathname);
      await pw.close();
      await lw.close();
      // The modal has done its work; the chat keeps the readable trail (the link for other clients).
      await expect(modal).toHaveCount(0);
      await expect(log(leila, INVITER.name)).toContainText(`The meeting is ready: ${new URL(pw.url()).origin}`);
      await expect(card).toContainText('The meeting is open.');

      // 2. Pedro again, from the conversation header's button this time; Leila declines.
      const meetNow = pedro.locator('.chat-head').getByRole('button', { name: 'Meet now' });
      await input(pedro, INVITEE.name).focus();
      await shiftTabUntilFocused(pedro, meetNow, 60);
      await pedro.keyboard.press('Enter');
      await expect(modal.getByRole('status')).toHaveText(`Waiting for ${INVITEE.name}…`);
      const second = lastInvite(leila, INVITER.name, `${INVITER.name} invites you to meet now.`);
      await expect(second).toContainText('Waiting for your answer.');
      const decline = second.getByRole('button', { name: 'Decline' });
      await input(leila, INVITER.name).focus();
      await shiftTabUntilFocused(leila, decline);
      await leila.keyboard.press('Enter');
      // The rejection is a message in the chat, on both sides; the invite can no longer be answered.
      const rejection = `${INVITEE.name} declined the meeting invitation.`;
      await expect(log(leila, INVITER.name).getByRole('listitem').filter({ hasText: rejection }).last()).toBeVisible();
      await expect(log(pedro, INVITEE.name).getByRole('listitem').filter({ hasText: rejection }).last()).toBeVisible();
      await expect(second.getByRole('button')).toHaveCount(0);
      await expect(second).toContainText('You declined.');
      await expect(modal.getByRole('status')).toHaveText(`${INVITEE.name} declined.`);
      await expect(modal.getByRole('button', { name: 'Close' })).toBeFocused();
      await pedro.keyboard.press('Enter');
      await expect(modal).toHaveCount(0);
    } finally {
      await pedro.context().close();
      await leila.context().close();
    }
  });
});

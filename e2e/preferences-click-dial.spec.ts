import { expect, test, type Page } from './csp-guard';
import { expectNoAxeViolations, loginByKeyboard, tabUntilFocused } from './fixtures';
import { deskPhone, expectPhoneReady, paletteCommandWithArg, phoneContext } from './telephony-helpers';

// Users no other spec signs in as: Sofia turns the option on; Rahul (1019) is who she calls, and his
// voicemail answers for him (he is not signed in).
const USER = 'sofia.lindqvist';
const CALLEE = '1019';

const notice = (page: Page) => page.getByRole('region', { name: 'Call through your desk phone' });

async function axeLightAndDark(page: Page, where: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    await expectNoAxeViolations(page, `${where}, ${scheme}`);
  }
}

test.describe('preferences ▸ calling ▸ click to dial', () => {
  test('keyboard only: "call my phone first" turned on; Call then rings the desk phone first, which calls the number once picked up, or says why not', async ({ browser, baseURL }) => {
    test.setTimeout(120_000);
    const ctx = await phoneContext(browser, baseURL!);
    const page = await ctx.newPage();
    let desk: Awaited<ReturnType<typeof deskPhone>> | null = null;
    try {
      await loginByKeyboard(page, USER);
      await page.goto('/preferences?panel=calling&tab=click-dial');
      const panel = page.getByRole('tabpanel', { name: 'Click to dial' });
      const option = panel.getByRole('switch', { name: 'Ring my desk phone first when I call a number' });
      await expect(option).not.toBeChecked();
      await expect(option).toBeEnabled();
      // Only the desk phone can be rung first; the mobile is shown with the reason it cannot.
      const device = panel.getByRole('radiogroup', { name: 'Phone to ring first' });
      await expect(device.getByRole('radio', { name: 'Mobile number' })).toBeDisabled();
      await expect(device).toHaveAccessibleDescription(/gateway cannot pass the call on/);

      await tabUntilFocused(page, option);
      await page.keyboard.press('Space');
      await expect(option).toBeChecked();
      await expect(panel.getByRole('status')).toHaveText('Saved');
      await expect(device.getByRole('radio', { name: 'Desk phone' })).toBeChecked();
      // No desk phone yet: the tab says so.
      await expect(panel.getByText('No desk phone is connected to your extension right now')).toBeVisible();
      await axeLightAndDark(page, 'calling ▸ click to dial');

      await page.reload();
      await expect(panel.getByRole('switch', { name: 'Ring my desk phone first when I call a number' })).toBeChecked();

      // Call with no desk phone connected: a clear error, and this browser placed no call.
      await page.goto('/calls');
      await expectPhoneReady(page);
      await paletteCommandWithArg(page, 'call', /^Call( Recent)?$/, CALLEE);
      await expect(notice(page)).toContainText('Your desk phone is not connected.');
      await expect(page.getByRole('region', { name: 'Current calls' })).toHaveCount(0);
      await tabUntilFocused(page, notice(page).getByRole('button', { name: 'Dismiss' }), 60);
      await page.keyboard.press('Enter');
      await expect(notice(page)).toHaveCount(0);

      // With her desk phone: it rings first; picked up, it calls the number itself.
      desk = await deskPhone(baseURL!, USER, 'manual');
      let since = desk.events.length;
      await paletteCommandWithArg(page, 'call', /^Call( Recent)?$/, CALLEE);
      await expect(notice(page)).toContainText('Ringing your desk phone…');
      await desk.waitEvent((e) => e.type === 'CALL_INCOMING', 10_000, since);
      await axeLightAndDark(page, 'calls, click-dial ringing');
      await desk.command('accept');
      await expect(notice(page)).toContainText('Your desk phone is calling');
      const placed = await desk.waitEvent((e) => e.type === 'CALL_ESTABLISHED' && e.direction === 'outgoing', 15_000, since);
      expect(placed.peeruri).toMatch(new RegExp(`^sip:${CALLEE}@`));
      await expect(page.getByRole('region', { name: 'Current calls' })).toHaveCount(0);
      await desk.command('hangup');
      await desk.waitEvent((e) => e.type === 'CALL_CLOSED' && e.id === placed.id, 10_000, since);

      // Declined on the desk phone: said so, until dismissed.
      since = desk.events.length;
      await paletteCommandWithArg(page, 'call', /^Call( Recent)?$/, CALLEE);
      await desk.waitEvent((e) => e.type === 'CALL_INCOMING', 10_000, since);
      await desk.command('hangup');
      await expect(notice(page)).toContainText('Your desk phone declined the call.');
      await tabUntilFocused(page, notice(page).getByRole('button', { name: 'Dismiss' }), 60);
      await page.keyboard.press('Enter');
      await expect(notice(page)).toHaveCount(0);
    } finally {
      await desk?.stop().catch(() => desk?.kill());
      await ctx.close();
    }
  });
});

import { expect, test } from './csp-guard';
import { expectNoAxeViolations, loginByKeyboard, openPalette, signedInPerson } from './fixtures';

// A colleague no other spec signs in as: his chat coming online is what alice waits for.
const COLLEAGUE = 'arjun.nair';
const NAME = 'Arjun Nair';

test.describe('contacts: notify me when available', () => {
  test('keyboard only: alice asks to be told when an offline colleague is available (palette ▸ contact ▸ Tab); he signs in; the notice opens his contact; axe', async ({ page, browser, baseURL }) => {
    await loginByKeyboard(page, 'alice');
    await openPalette(page);
    await page.keyboard.type(NAME);
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await expect(palette.getByRole('option', { name: new RegExp(`^${NAME}`) }).first()).toHaveAttribute('aria-selected', 'true');
    // Tab: the contact's actions; the arrows walk them.
    await page.keyboard.press('Tab');
    const notify = palette.getByRole('option', { name: /^Notify me when available/ });
    await expect(notify).toBeVisible();
    for (let i = 0; i < 10 && (await notify.getAttribute('aria-selected')) !== 'true'; i++) await page.keyboard.press('ArrowDown');
    await expect(notify).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(page.getByText(`You will be told when ${NAME} is available.`)).toBeVisible();

    // He signs in: his chat comes online, and alice is told.
    const arjun = await signedInPerson(browser, baseURL!, COLLEAGUE);
    const notice = page.getByRole('alertdialog', { name: `${NAME} is available` }).or(page.locator('.toast').filter({ hasText: `${NAME} is available` }));
    await expect(notice).toBeVisible({ timeout: 20_000 });
    await expectNoAxeViolations(page, 'availability notice');
    const open = notice.getByRole('button', { name: 'Open contact' });
    await open.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/contacts\?.*contact=u\d+/);
    await expect(page.getByRole('heading', { name: NAME })).toBeVisible();
    await arjun.context().close();
  });
});

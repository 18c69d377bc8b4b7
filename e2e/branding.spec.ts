import { pngOf } from '../tests/png';
import { expect, test } from './csp-guard';
import { expectNoAxeViolations, loginByKeyboard, openPalette, signedInPerson, tabUntilFocused } from './fixtures';

// Acme's account owner (a logo admin) and a standard user of the same organisation.
const OWNER = 'olivia';
const MEMBER = 'carol';

test.describe('branding', () => {
  test('keyboard only: the owner uploads the company logo, a refused file says why and keeps the dialog, every member sees the logo, the owner removes it; a standard user has no upload; axe', async ({ page, browser, baseURL }) => {
    await loginByKeyboard(page, OWNER);
    const member = await signedInPerson(browser, baseURL!, MEMBER);
    const banner = (p: typeof page) => p.getByRole('banner').getByRole('img', { name: 'Company logo' });

    // A standard user: no upload command at all.
    await openPalette(member);
    await member.keyboard.type('upload company logo');
    await expect(member.getByRole('option', { name: /^Upload company logo/ })).toHaveCount(0);
    await member.keyboard.press('Escape');

    await openPalette(page);
    await page.keyboard.type('upload company logo');
    await expect(page.getByRole('option', { name: /^Upload company logo/ })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Company logo' });
    await expect(dialog).toBeVisible();
    const choose = dialog.getByRole('button', { name: /^Choose (an|another) image/ });
    await expect(choose).toBeFocused();
    await expectNoAxeViolations(page, 'logo dialog');

    // A file too small for a logo: the server's reason, the dialog stays.
    let chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Enter');
    await (await chooser).setFiles({ name: 'dot.png', mimeType: 'image/png', buffer: pngOf(4, 4) });
    await expect(dialog.getByRole('img', { name: 'Preview of dot.png' })).toBeVisible();
    const upload = dialog.getByRole('button', { name: 'Upload' });
    await tabUntilFocused(page, upload);
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('alert')).toHaveText('The image is 4×4 pixels; a logo must be between 16 and 2048 pixels on each side');

    // A real logo.
    await tabUntilFocused(page, choose);
    chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Enter');
    await (await chooser).setFiles({ name: 'acme.png', mimeType: 'image/png', buffer: pngOf(160, 40) });
    await expect(dialog.getByRole('img', { name: 'Preview of acme.png' })).toBeVisible();
    await expect(dialog.getByText(/a logo must be between/)).toHaveCount(0);
    await tabUntilFocused(page, upload);
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(banner(page)).toBeVisible();
    await expect.poll(() => banner(page).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(160);
    await expectNoAxeViolations(page, 'frame with the logo');

    // A member sees it after signing in again (the configuration names it).
    await member.reload();
    await expect(banner(member)).toBeVisible();

    await openPalette(page);
    await page.keyboard.type('remove company logo');
    await expect(page.getByRole('option', { name: /^Remove company logo/ })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog', { name: 'Remove the company logo?' }).or(page.getByRole('dialog', { name: 'Remove the company logo?' }));
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Remove' }).focus();
    await page.keyboard.press('Enter');
    await expect(banner(page)).toHaveCount(0);
    await member.reload();
    await expect(member.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    await expect(banner(member)).toHaveCount(0);
    await member.context().close();
  });
});

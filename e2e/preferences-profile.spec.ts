import { expect, test, type Page } from './csp-guard';
import { expectNoAxeViolations, loginByKeyboard, openPalette, tabUntilFocused } from './fixtures';

// A user no other spec signs in as: this spec changes their company. The seed gives them an E911 address.
const USER = 'greta.schmidt';

const heading = (page: Page) => page.getByRole('heading', { level: 2, name: 'Profile' });
const e911 = (page: Page) => page.getByRole('region', { name: 'Emergency address (E911)' });
const region = (page: Page) => page.getByRole('region', { name: 'Availability region' });

async function openProfileFromPalette(page: Page): Promise<void> {
  // The home screen (call history) settled first: selecting its first call, once loaded, changes the address, which closes a palette opened meanwhile.
  await expect(page.getByRole('grid', { name: 'Calls' }).getByRole('row').first()).toHaveAttribute('aria-selected', 'true');
  await openPalette(page);
  // The panel's entity ("Preferences ▸ Profile") alone: with "Profile", the contacts' "Edit profile" (which opens the
  // edit dialog) is listed first, and the list drawn again as the directory arrives puts the choice back on it.
  await page.keyboard.type('Preferences Profile');
  const entity = page.getByRole('option', { name: /Preferences ▸ Profile/ });
  await expect(entity).toBeVisible();
  for (let i = 0; i < 10 && (await entity.getAttribute('aria-selected')) !== 'true'; i++) await page.keyboard.press('ArrowDown');
  await expect(entity).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/preferences\?panel=profile/);
  await expect(heading(page)).toBeFocused();
}

test.describe('preferences: profile', () => {
  test('keyboard only: open Profile from the palette, edit and save, the photo modal opens and closes; axe light and dark', async ({ page }) => {
    await loginByKeyboard(page, USER);
    await openProfileFromPalette(page);
    await expect(page.getByText('greta.schmidt', { exact: true })).toBeVisible();
    await expect(e911(page)).toContainText('500 Market Street');
    await expect(e911(page)).toContainText('Floor 3');
    await expect(region(page)).toContainText('US East');
    await expect(region(page)).toContainText('nts-use.example.net');
    await expectNoAxeViolations(page, 'profile panel, light');

    // Edit profile: the modal (the profile form, with the e-mail addresses, phone numbers and address) opens on its heading; a required field emptied is caught before sending.
    await tabUntilFocused(page, page.getByRole('button', { name: 'Edit profile' }));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Edit profile' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('heading', { level: 2, name: 'Edit profile' })).toBeFocused();
    await expect(dialog.getByRole('textbox', { name: 'Alias' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Add phone number' })).toBeVisible();
    await expectNoAxeViolations(page, 'edit-profile modal');
    const email = dialog.getByRole('textbox', { name: 'E-mail' }).first();
    await tabUntilFocused(page, email, 30);
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Control+Enter');
    await expect(dialog.getByText('This field is required.')).toBeVisible();
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    // Escape leaves without saving; the e-mail is as it was.
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText('greta.schmidt@acme.example')).toBeVisible();

    await tabUntilFocused(page, page.getByRole('button', { name: 'Edit profile' }));
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    const company = dialog.getByRole('textbox', { name: 'Company' });
    await tabUntilFocused(page, company, 10);
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Acme Research');
    await tabUntilFocused(page, dialog.getByRole('button', { name: 'Save' }), 40);
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText('Acme Research', { exact: true })).toBeVisible();
    // Stored, not just shown.
    await page.reload();
    await expect(page.getByText('Acme Research', { exact: true })).toBeVisible();

    // The upload-photo modal opens and closes by keyboard, and the focus comes back to its button.
    const upload = page.getByRole('button', { name: 'Upload photo' });
    await tabUntilFocused(page, upload);
    await page.keyboard.press('Enter');
    const photo = page.getByRole('dialog', { name: 'Upload photo' });
    await expect(photo).toBeVisible();
    await expect(photo.getByRole('button', { name: 'Choose an image…' })).toBeFocused();
    await expect(photo.getByRole('button', { name: 'Upload', exact: true })).toBeDisabled();
    await expectNoAxeViolations(page, 'upload-photo modal');
    await page.keyboard.press('Escape');
    await expect(photo).toHaveCount(0);
    await expect(upload).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(photo).toBeVisible();
    await tabUntilFocused(page, photo.getByRole('button', { name: 'Cancel' }), 5);
    await page.keyboard.press('Enter');
    await expect(photo).toHaveCount(0);

    // Dark: the system's scheme, which the theme follows by default.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(region(page)).toContainText('US East');
    await expectNoAxeViolations(page, 'profile panel, dark');
    await tabUntilFocused(page, page.getByRole('button', { name: 'Edit profile' }));
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await expectNoAxeViolations(page, 'edit-profile modal, dark');
    await page.keyboard.press('Escape');
    await tabUntilFocused(page, upload);
    await page.keyboard.press('Enter');
    await expect(photo).toBeVisible();
    await expectNoAxeViolations(page, 'upload-photo modal, dark');
    await page.keyboard.press('Escape');
  });

  test('/profile leads to the panel; a user without an emergency address is told there is none', async ({ page }) => {
    // bob has no E911 address in the seed; this spec only reads his profile.
    await loginByKeyboard(page, 'bob');
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/preferences\?panel=profile/);
    await expect(heading(page)).toBeVisible();
    await expect(e911(page)).toContainText('No emergency address on file');
    await expect(region(page)).toContainText('US East');
  });
});

import { expect, test, type Page } from './csp-guard';
import { DEMO_PASSWORD, expectNoAxeViolations, loginByKeyboard, openPalette, tabUntilFocused } from './fixtures';

// A 1×1 PNG.
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

const detail = (page: Page) => page.locator('.detail-pane');

async function createByKeyboard(page: Page, first: string, last: string, phone?: string): Promise<void> {
  await expect(page.getByRole('grid', { name: 'Contacts' })).toBeVisible();
  await openPalette(page);
  await page.keyboard.type('new contact');
  await expect(page.getByRole('option', { name: /New contact/ }).first()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  const heading = page.getByRole('heading', { level: 2, name: 'New contact' });
  await expect(heading).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('textbox', { name: 'First name' })).toBeFocused();
  await page.keyboard.type(first);
  await page.keyboard.press('Tab');
  await page.keyboard.type(last);
  if (phone) {
    await tabUntilFocused(page, page.getByRole('textbox', { name: 'Number' }).first(), 6);
    await page.keyboard.type(phone);
  }
  // Enter alone in a field does not submit; Ctrl+Enter saves.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: 'New contact' })).toBeVisible();
  await page.keyboard.press('Control+Enter');
}

test.describe('contacts', () => {
  test('keyboard-only creation from the palette, validation, edit, favourite; axe on list, detail and form', async ({ page }) => {
    await loginByKeyboard(page, 'aiko.tanaka');
    await page.goto('/contacts');
    await expect(page.getByRole('heading', { level: 1, name: 'Contacts' })).toBeVisible();
    const grid = page.getByRole('grid', { name: 'Contacts' });
    await expect(grid.getByRole('row').first()).toBeVisible();
    await expectNoAxeViolations(page, 'contacts list');

    // Submitting an empty form shows the rule instead of saving.
    await openPalette(page);
    await page.keyboard.type('new contact');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 2, name: 'New contact' })).toBeFocused();
    await expectNoAxeViolations(page, 'contact form');
    await page.getByRole('button', { name: 'Save' }).press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: 'Enter at least a name' })).toBeVisible();
    // An invalid number shows its error after submit.
    await page.getByRole('textbox', { name: 'Number' }).first().fill('12');
    await page.getByRole('button', { name: 'Save' }).press('Enter');
    await expect(page.getByText('Enter a valid phone number.')).toBeVisible();
    await page.getByRole('button', { name: 'Cancel' }).press('Enter');
    // Unsaved changes: the app asks first.
    const discard = page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Discard your changes?' }));
    await expect(discard).toBeVisible();
    await discard.getByRole('button', { name: 'Discard' }).press('Enter');

    await createByKeyboard(page, 'Zelda', 'Quuxley', '(415) 555-0142');
    await expect(detail(page).getByRole('heading', { level: 2, name: 'Zelda Quuxley' })).toBeVisible();
    await expect(detail(page).getByText('(415) 555-0142')).toBeVisible();
    await expect(page).toHaveURL(/contact=p\d+/);
    await expectNoAxeViolations(page, 'contact detail');

    // Edit from the actions menu.
    await detail(page).getByRole('button', { name: 'More actions for Zelda Quuxley' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Edit Zelda Quuxley' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Company' }).fill('Quux Labs');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(detail(page).getByText(/Quux Labs/)).toBeVisible();

    // Favourite: optimistic, and kept by the server.
    const star = detail(page).getByRole('button', { name: 'Favourite Zelda Quuxley' });
    await expect(star).toHaveAttribute('aria-pressed', 'false');
    await star.click();
    await expect(star).toHaveAttribute('aria-pressed', 'true');
    await page.goto('/contacts?group=favorites&q=Zelda');
    await expect(page.getByRole('grid', { name: 'Contacts' }).getByRole('row', { name: /Zelda Quuxley/ })).toBeVisible();
  });

  test('search narrows the list as you type; arrows and Enter open a contact', async ({ page }) => {
    await loginByKeyboard(page, 'priya.raman');
    await page.goto('/contacts?group=all');
    const grid = page.getByRole('grid', { name: 'Contacts' });
    await expect(grid.getByRole('row').first()).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search contacts' }).fill('martinez');
    await expect(grid.getByRole('row', { name: /Bob Martinez/ })).toBeVisible();
    await grid.focus();
    await page.keyboard.press('Enter');
    await expect(detail(page).getByRole('heading', { level: 2, name: 'Bob Martinez' })).toBeVisible();
    // Company contacts are read-only: no actions menu. Message works through the messaging plugin,
    // Meet through the meetings plugin: it opens the meeting modal with the contact invited.
    await expect(detail(page).getByRole('button', { name: /More actions/ })).toHaveCount(0);
    await expect(detail(page).getByRole('button', { name: 'Message' })).toBeEnabled();
    const meet = detail(page).getByRole('button', { name: 'Meet', exact: true });
    await expect(meet).toBeEnabled();
    await meet.focus();
    await expect(meet).toBeFocused();
    await page.keyboard.press('Enter');
    const modal = page.getByRole('dialog', { name: 'New meeting' });
    await expect(modal.getByRole('tab', { name: 'Schedule', selected: true })).toBeVisible();
    await expect(modal.getByRole('grid', { name: 'Invited' }).getByRole('row', { name: 'Bob Martinez' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(modal).toBeHidden();
  });

  test('avatar upload for a personal contact; refused for a company contact', async ({ page }) => {
    await loginByKeyboard(page, 'lars.johansson');
    await page.goto('/contacts');
    await createByKeyboard(page, 'Pia', 'Photo');
    await expect(detail(page).getByRole('heading', { level: 2, name: 'Pia Photo' })).toBeVisible();
    await detail(page).getByRole('button', { name: 'More actions for Pia Photo' }).click();
    await page.getByRole('menuitem', { name: 'Change photo' }).click();
    await page.getByLabel('Photo', { exact: true }).setInputFiles({ name: 'face.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect(detail(page).getByRole('img', { name: 'Photo of Pia Photo' })).toBeVisible();

    // A text file is refused by the form.
    await detail(page).getByRole('button', { name: 'More actions for Pia Photo' }).click();
    await page.getByRole('menuitem', { name: 'Change photo' }).click();
    await page.getByLabel('Photo', { exact: true }).setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect(page.getByText('Choose an image file.')).toBeVisible();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Discard your changes?' })).getByRole('button', { name: 'Discard' }).click();

    // Company contact: no photo option in the UI, and the server refuses the upload.
    const login = await page.request.post('/login', { data: { username: 'lars.johansson', password: DEMO_PASSWORD } });
    const token = (await login.json()).access_token as string;
    const me = await page.request.get('/v1/contacts?group=user&search=martinez', { headers: { authorization: `Bearer ${token}` } });
    const bob = ((await me.json()).items as Array<{ id: string }>)[0]!;
    const refused = await page.request.post(`/v1/contacts/${bob.id}/avatar`, {
      headers: { authorization: `Bearer ${token}` },
      multipart: { photo: { name: 'face.png', mimeType: 'image/png', buffer: PNG } },
    });
    expect(refused.status()).toBe(403);
    await page.goto(`/contacts?contact=${bob.id}`);
    await expect(detail(page).getByRole('heading', { level: 2, name: 'Bob Martinez' })).toBeVisible();
    await expect(detail(page).getByRole('button', { name: /More actions/ })).toHaveCount(0);
  });

  test('delete asks with a remember checkbox; once remembered, deletes at once', async ({ page }) => {
    await loginByKeyboard(page, 'chiara.rossi');
    await page.goto('/contacts');
    for (const name of ['Del One', 'Del Two', 'Del Three']) {
      const [first, last] = name.split(' ') as [string, string];
      await createByKeyboard(page, first, last);
      await expect(detail(page).getByRole('heading', { level: 2, name })).toBeVisible();
    }
    const grid = page.getByRole('grid', { name: 'Contacts' });
    const remove = async (name: string) => {
      await page.goto('/contacts?group=personal&q=' + encodeURIComponent(name));
      await grid.getByRole('row', { name: new RegExp(name) }).click();
      await detail(page).getByRole('button', { name: `More actions for ${name}` }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
    };

    await remove('Del One');
    const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Delete contact?' }));
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('Del One will be removed from your contacts.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(grid.getByRole('row', { name: /Del One/ })).toHaveCount(0);

    await remove('Del Two');
    await expect(dialog).toBeVisible();
    // The checkbox by keyboard (its styled box covers the native input for the mouse).
    const remember = dialog.getByRole('checkbox', { name: "Don't ask me again" });
    await remember.focus();
    await page.keyboard.press('Space');
    await expect(remember).toBeChecked();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(grid.getByRole('row', { name: /Del Two/ })).toHaveCount(0);

    await remove('Del Three');
    await expect(page.getByText('No contacts match “Del Three”.')).toBeVisible();
    await expect(dialog).toHaveCount(0);
  });

  test('own profile by keyboard: Edit profile on the own contact opens the Profile panel\'s dialog with the profile form, Ctrl+Enter saves; the e-mail stays required; axe on the form', async ({ page }) => {
    await loginByKeyboard(page, 'alice');
    await page.goto('/contacts');
    const grid = page.getByRole('grid', { name: 'Contacts' });
    await expect(grid.getByRole('row').first()).toBeVisible();

    // The own contact from the palette; Enter opens it.
    await openPalette(page);
    await page.keyboard.type('Alice Nguyen');
    await expect(page.getByRole('option', { name: /Alice Nguyen/ }).first()).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(detail(page).getByRole('heading', { level: 2, name: 'Alice Nguyen' })).toBeVisible();
    const userId = Number(/contact=u(\d+)/.exec(page.url())?.[1]);
    expect(userId).toBeGreaterThan(0);
    // Put the name back afterwards whatever happens: later suites greet Alice by it.
    try {
      // The own contact has no actions menu: "Edit profile" is a plain button.
      await expect(detail(page).getByRole('button', { name: /More actions/ })).toHaveCount(0);
      await tabUntilFocused(page, detail(page).getByRole('button', { name: 'Edit profile' }));
      await page.keyboard.press('Enter');
      // One's own profile is edited in the preferences' Profile panel: its dialog is open, and a reload would not open it again.
      await expect(page).toHaveURL(/\/preferences\?panel=profile$/);
      const dialog = page.getByRole('dialog', { name: 'Edit profile' });
      await expect(dialog.getByRole('heading', { level: 2, name: 'Edit profile' })).toBeFocused();
      await expectNoAxeViolations(page, 'profile form');

      const last = dialog.getByRole('textbox', { name: 'Last name' });
      await tabUntilFocused(page, last, 40);
      await page.keyboard.press('Control+a');
      await page.keyboard.type('Nguyen-Park');
      await page.keyboard.press('Control+Enter');
      await expect(dialog).toHaveCount(0);
      await expect(page.locator('.prefs-profile-name')).toHaveText('Alice Nguyen-Park');
      // The account menu follows at once.
      await expect(page.getByRole('button', { name: 'Account menu for Alice Nguyen-Park' })).toBeVisible();
      // Stored, not just shown: the company contact says the same after a fresh load.
      await page.goto(`/contacts?contact=u${userId}`);
      await expect(detail(page).getByRole('heading', { level: 2, name: 'Alice Nguyen-Park' })).toBeVisible();
      await expect(grid.getByRole('row', { name: /Alice Nguyen-Park/ })).toBeVisible();

      // Saving with the e-mail emptied: the field says why, and what was typed stays.
      await tabUntilFocused(page, detail(page).getByRole('button', { name: 'Edit profile' }));
      await page.keyboard.press('Enter');
      await expect(dialog.getByRole('heading', { level: 2, name: 'Edit profile' })).toBeFocused();
      const company = dialog.getByRole('textbox', { name: 'Company' });
      await tabUntilFocused(page, company, 40);
      await page.keyboard.press('Control+a');
      await page.keyboard.type('Acme Research');
      const email = dialog.getByRole('textbox', { name: 'E-mail' }).first();
      await tabUntilFocused(page, email, 10);
      await page.keyboard.press('Control+a');
      await page.keyboard.press('Backspace');
      await page.keyboard.press('Control+Enter');
      await expect(dialog.getByText('This field is required.')).toBeVisible();
      await expect(email).toHaveAttribute('aria-invalid', 'true');
      await expect(email).toBeFocused();
      await expect(email).toHaveValue('');
      await expect(company).toHaveValue('Acme Research');
      await expectNoAxeViolations(page, 'profile form with an error');

      // Cancel asks first (unsaved changes), and nothing was stored.
      await tabUntilFocused(page, dialog.getByRole('button', { name: 'Cancel' }), 40);
      await page.keyboard.press('Enter');
      const discard = page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Discard your changes?' }));
      await expect(discard).toBeVisible();
      await discard.getByRole('button', { name: 'Discard' }).press('Enter');
      await expect(dialog).toHaveCount(0);
      await expect(page.locator('.prefs-facts').first()).toContainText('alice@acme.example');
      await expect(page.locator('.prefs-facts').first()).toContainText('Acme Corp');
    } finally {
      const login = await page.request.post('/login', { data: { username: 'alice', password: DEMO_PASSWORD } });
      const token = (await login.json()).access_token as string;
      const restored = await page.request.patch(`/v1/users/${userId}`, { headers: { authorization: `Bearer ${token}` }, data: { last_name: 'Nguyen', company: 'Acme Corp' } });
      expect(restored.status()).toBe(200);
    }
  });

  test('an administrator edits a colleague (Edit user); a standard user is not offered it', async ({ page }) => {
    await loginByKeyboard(page, 'olivia');
    await page.goto('/contacts?q=carol');
    const grid = page.getByRole('grid', { name: 'Contacts' });
    await grid.getByRole('row', { name: /Carol Okafor/ }).click();
    await expect(detail(page).getByRole('heading', { level: 2, name: 'Carol Okafor' })).toBeVisible();
    const carolId = Number(/contact=u(\d+)/.exec(page.url())?.[1]);
    try {
      await detail(page).getByRole('button', { name: 'Edit user' }).click();
      await expect(page.getByRole('heading', { level: 2, name: 'Edit user Carol Okafor' })).toBeVisible();
      await page.getByRole('button', { name: 'Add phone number' }).click();
      await page.getByRole('textbox', { name: 'Number' }).last().fill('(415) 555-0177');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(detail(page).getByText('(415) 555-0177')).toBeVisible();

      // Bob (a standard user) sees the new number on Carol's contact but cannot edit her.
      await page.context().clearCookies();
      await loginByKeyboard(page, 'bob');
      await page.goto('/contacts?q=carol');
      await grid.getByRole('row', { name: /Carol Okafor/ }).click();
      await expect(detail(page).getByText('(415) 555-0177')).toBeVisible();
      await expect(detail(page).getByRole('button', { name: 'Edit user' })).toHaveCount(0);
    } finally {
      // Carol's own numbers back to none (the extension is not in the list and stays).
      const login = await page.request.post('/login', { data: { username: 'olivia', password: DEMO_PASSWORD } });
      const token = (await login.json()).access_token as string;
      const restored = await page.request.put(`/v1/users/${carolId}/phone-numbers`, { headers: { authorization: `Bearer ${token}` }, data: { items: [] } });
      expect(restored.status()).toBe(200);
    }
  });
});

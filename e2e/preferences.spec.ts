import { expect, test, type Locator, type Page } from './csp-guard';
import { expectNoAxeViolations, loginByKeyboard, openPalette, tabUntilFocused } from './fixtures';

// A user no other spec signs in as: this spec changes their language, home page, theme and password.
const USER = 'kwame.mensah';
const NEW_PASSWORD = 'Fresh-pass-7';

const panelList = (page: Page) => page.getByRole('tablist', { name: 'Preferences panels' });
const tab = (page: Page, name: string) => panelList(page).getByRole('tab', { name });
const panelHeading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name });
const group = (page: Page, name: string) => page.getByRole('radiogroup', { name });
const save = (page: Page) => page.getByRole('button', { name: 'Save', exact: true });

/** Shift+Tab until `target` has the focus: the panel list comes just before the panel. */
async function backTabUntilFocused(page: Page, target: Locator, max = 30): Promise<void> {
  for (let i = 0; i < max && !(await target.evaluate((el) => el === document.activeElement).catch(() => false)); i++) await page.keyboard.press('Shift+Tab');
  await expect(target).toBeFocused();
}

/** Keyboard: from the panel back to the list (one tab stop), to `name`, and opened with Enter. */
async function openPanel(page: Page, name: string): Promise<void> {
  // The list's one tab stop: the tab last focused in it (after a cancelled move, not the selected one).
  await backTabUntilFocused(page, panelList(page).locator('[role="tab"][tabindex="0"]'));
  for (let i = 0; i < 10 && !(await tab(page, name).evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await expect(tab(page, name)).toBeFocused();
  await page.keyboard.press('Enter');
}

/** Keyboard: into the radio group (its checked radio), then arrows until `name` is checked. */
async function chooseRadio(page: Page, groupName: string, name: string): Promise<void> {
  await tabUntilFocused(page, group(page, groupName).getByRole('radio', { checked: true }));
  const target = group(page, groupName).getByRole('radio', { name, exact: true });
  for (let i = 0; i < 10 && !(await target.isChecked()); i++) await page.keyboard.press('ArrowRight');
  await expect(target).toBeChecked();
}

/** Keyboard: opens the focused select and arrows to `name` (from either end), Enter picks it. */
async function pickOption(page: Page, name: string): Promise<void> {
  await page.keyboard.press('Enter');
  const option = page.getByRole('option', { name, exact: true });
  await expect(option).toBeVisible();
  await page.keyboard.press('Home');
  for (let i = 0; i < 25 && !(await option.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await expect(option).toBeFocused();
  await page.keyboard.press('Enter');
}

async function saveByKeyboard(page: Page, saved = 'Saved'): Promise<void> {
  await tabUntilFocused(page, save(page));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: saved })).toBeVisible();
}

async function openPreferencesFromPalette(page: Page): Promise<void> {
  await openPalette(page);
  await page.keyboard.type('Go to preferences');
  await expect(page.getByRole('option').first()).toHaveAccessibleName(/^Go to preferences/);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/preferences/);
  await expect(page.getByRole('heading', { level: 1, name: 'Preferences' })).toBeVisible();
}

test.describe('preferences', () => {
  test('keyboard only: the panel list (one tab stop), panels as palette entities, and the home page', async ({ page }) => {
    await loginByKeyboard(page, USER);
    await openPreferencesFromPalette(page);
    // Without a panel named, the first of the specification's order.
    await expect(panelHeading(page, 'Profile')).toBeVisible();

    // The list is one tab stop: arrows move without opening, Enter opens, the panel's heading takes focus.
    await tabUntilFocused(page, tab(page, 'Profile'));
    await page.keyboard.press('ArrowDown');
    await expect(tab(page, 'General')).toBeFocused();
    await expect(tab(page, 'Profile')).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/panel=general/);
    await expect(panelHeading(page, 'General')).toBeFocused();
    // This user has calling: Audio comes next.
    await openPanel(page, 'Audio');
    await expect(panelHeading(page, 'Audio')).toBeFocused();
    await openPanel(page, 'General');
    await expect(panelHeading(page, 'General')).toBeFocused();

    // Each panel is a palette entity.
    await openPalette(page);
    await page.keyboard.type('Preferences Password');
    await expect(page.getByRole('option').first()).toHaveAccessibleName(/Preferences ▸ Password/);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/panel=password/);
    await expect(panelHeading(page, 'Password')).toBeFocused();
    await openPanel(page, 'General');

    // Home page: Contacts; `/` and the first screen after signing in go there from now on.
    await chooseRadio(page, 'Home page', 'Contacts');
    await saveByKeyboard(page);
    await page.goto('/');
    await expect(page).toHaveURL(/\/contacts/);
    await page.goto('/logout');
    // Signed out only once the app has ended the session and gone to the sign-in page by itself.
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await loginByKeyboard(page, USER);
    await expect(page).toHaveURL(/\/contacts/);

  });

  test('keyboard only: the dark theme, kept across a reload, with axe on every screen of the rail and the panels in dark and light', async ({ page }) => {
    // One page load and one axe scan per screen of the rail (one more since the dashboard) and per panel:
    // about a minute on a loaded two-core machine, over the suite's default 60 s.
    test.setTimeout(120_000);
    await loginByKeyboard(page, USER);
    // Theme: dark, applied at once and kept across a reload (no light first paint: set before the app runs).
    await page.goto('/preferences?panel=general');
    await expect(panelHeading(page, 'General')).toBeVisible();
    await chooseRadio(page, 'Theme', 'Dark');
    await saveByKeyboard(page);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    // The rest of the product in dark: each screen of the navigation rail, read by axe.
    const rail = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link');
    await expect.poll(() => rail.count()).toBeGreaterThan(2);
    const hrefs = await rail.evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
    for (const href of hrefs) {
      await page.goto(href);
      await expect(page.locator('#main-heading')).toBeVisible();
      await expectNoAxeViolations(page, `${href} in dark`);
    }
    await page.goto('/preferences?panel=general');
    await expect(panelHeading(page, 'General')).toBeVisible();
    await expectNoAxeViolations(page, 'general panel, dark');
    await openPanel(page, 'Password');
    await expectNoAxeViolations(page, 'password panel, dark');
    await openPanel(page, 'General');
    await chooseRadio(page, 'Theme', 'Light');
    await saveByKeyboard(page);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await expectNoAxeViolations(page, 'general panel, light');
    await openPanel(page, 'Password');
    await expectNoAxeViolations(page, 'password panel, light');

  });

  test('keyboard only: the unsaved-changes modal (Cancel, Discard, Save on leaving), the language, and the leave prompt', async ({ page }) => {
    await loginByKeyboard(page, USER);
    await page.goto('/preferences?panel=general');
    await expect(panelHeading(page, 'General')).toBeVisible();
    // Unsaved changes, leaving for another panel: Cancel stays with the change, Discard leaves without it.
    await chooseRadio(page, 'Sort rooms', 'By name');
    await openPanel(page, 'Password');
    const modal = page.getByRole('alertdialog', { name: 'Unsaved changes' });
    await expect(modal).toBeVisible();
    await expectNoAxeViolations(page, 'unsaved-changes modal');
    await tabUntilFocused(page, modal.getByRole('button', { name: 'Cancel' }));
    await page.keyboard.press('Enter');
    await expect(modal).toBeHidden();
    await expect(page).not.toHaveURL(/panel=password/);
    await expect(group(page, 'Sort rooms').getByRole('radio', { name: 'By name' })).toBeChecked();
    await openPanel(page, 'Password');
    await tabUntilFocused(page, modal.getByRole('button', { name: 'Discard' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/panel=password/);
    await openPanel(page, 'General');
    await expect(group(page, 'Sort rooms').getByRole('radio', { name: 'By latest activity' })).toBeChecked();

    // Leaving for another route through the palette: Save saves, then goes.
    await chooseRadio(page, 'Sort rooms', 'By name');
    await openPalette(page);
    await page.keyboard.type('Go to history');
    await expect(page.getByRole('option').first()).toHaveAccessibleName(/^Go to history/);
    await page.keyboard.press('Enter');
    await expect(modal).toBeVisible();
    await expect(modal.getByRole('button', { name: 'Save' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/history/);
    await page.goto('/preferences?panel=general');
    await expect(group(page, 'Sort rooms').getByRole('radio', { name: 'By name' })).toBeChecked();

    // Language: French, the whole screen follows; and back to English from the same panel.
    await tabUntilFocused(page, page.getByRole('button', { name: /Language/ }));
    await pickOption(page, 'Français');
    await saveByKeyboard(page, 'Enregistré');
    await expect(page.getByRole('heading', { level: 2, name: 'Général' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Préférences' })).toBeVisible();
    await tabUntilFocused(page, page.getByRole('button', { name: /Langue/ }));
    await pickOption(page, 'English');
    await tabUntilFocused(page, page.getByRole('button', { name: 'Enregistrer', exact: true }));
    await page.keyboard.press('Enter');
    await expect(panelHeading(page, 'General')).toBeVisible();

    // Unsaved changes when the tab closes or reloads: the browser's own leave prompt.
    await chooseRadio(page, 'Sort rooms', 'By latest activity');
    const prompt = new Promise<string>((resolve) => page.once('dialog', (d) => (resolve(d.type()), void d.accept())));
    await page.close({ runBeforeUnload: true });
    expect(await prompt).toBe('beforeunload');
  });

  test('keyboard only: change the password (live rules, the catalogue\'s failures) and sign in again with the new one', async ({ page }) => {
    await loginByKeyboard(page, USER);
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/preferences/);
    await page.goto('/preferences?panel=password');
    await expect(panelHeading(page, 'Password')).toBeVisible();
    const field = (name: string) => page.getByLabel(name, { exact: true });
    const type = async (name: string, text: string) => {
      await tabUntilFocused(page, field(name));
      await page.keyboard.press('Control+a');
      await page.keyboard.press('Backspace');
      await page.keyboard.type(text);
    };
    const rule = (text: string) => page.getByRole('listitem').filter({ hasText: text });

    await type('New password', 'fresh');
    await expect(rule('a lowercase letter')).toHaveText(/Met: a lowercase letter/);
    await expect(rule('a digit')).toHaveText(/Not met: a digit/);
    await expect(save(page)).toBeDisabled();

    // A reused password: the server's message, the new fields cleared, the current kept.
    await type('New password', 'Demo-pass-1');
    await type('Current password', 'Demo-pass-1');
    await type('Confirm new password', 'Demo-pass-1');
    await expect(rule('the confirmation to match')).toHaveText(/Met:/);
    await tabUntilFocused(page, save(page));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: 'New password must not match previous passwords.' })).toBeVisible();
    await expect(field('New password')).toHaveValue('');
    await expect(field('Confirm new password')).toHaveValue('');
    await expect(field('Current password')).toHaveValue('Demo-pass-1');

    // A wrong current password: the no-match message, the current field cleared.
    await type('Current password', 'not-my-password');
    await type('New password', NEW_PASSWORD);
    await type('Confirm new password', NEW_PASSWORD);
    await tabUntilFocused(page, save(page));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: 'The current password is not correct.' })).toBeVisible();
    await expect(field('Current password')).toHaveValue('');
    await expect(field('New password')).toHaveValue(NEW_PASSWORD);

    await type('Current password', 'Demo-pass-1');
    await tabUntilFocused(page, save(page));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Password changed' })).toBeVisible();
    // This session goes on.
    await openPanel(page, 'General');
    await expect(panelHeading(page, 'General')).toBeFocused();

    await page.goto('/logout');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await loginByKeyboard(page, USER, NEW_PASSWORD);
  });
});

import { expect, test, type Page } from './csp-guard';
import { expectNoAxeViolations, goByChord, loginByKeyboard, openPalette, tabUntilFocused } from './fixtures';
import { dock, expectPhoneReady } from './telephony-helpers';

// A user no other spec signs in as (Northwind's administrator, role 2: may share): this spec writes their speed dials.
const USER = 'rita';

const list = (page: Page) => page.getByRole('grid', { name: 'Speed dials' });
const row = (page: Page, name: string) => list(page).getByRole('row', { name: new RegExp(`^${name.replace(/[#*.?+]/g, '\\$&')}`) });
const form = (page: Page, name = 'New speed dial') => page.getByRole('dialog', { name });
const field = (page: Page, name: string) => form(page).getByRole('textbox', { name });

/** Keyboard: Tab into the list (its one tab stop), then Home and ↓ until the entry `name` has the focus. */
async function focusRow(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 40 && !(await list(page).evaluate((el) => el.contains(document.activeElement))); i++) await page.keyboard.press('Tab');
  // On a row's button, ← goes back to its row.
  if ((await page.evaluate(() => document.activeElement?.getAttribute('role'))) !== 'row') await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Home');
  for (let i = 0; i < 10 && !(await row(page, name).evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await expect(row(page, name)).toBeFocused();
}

/** Keyboard: "New speed dial" from the palette, the three fields typed in order, Enter saves. */
async function create(page: Page, shortcut: string, label: string, number: string): Promise<void> {
  await openPalette(page);
  await page.keyboard.type('new speed dial');
  await expect(page.getByRole('option', { name: /^New speed dial/ })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(field(page, 'Shortcut')).toBeFocused();
  await page.keyboard.type(shortcut);
  await page.keyboard.press('Tab');
  await expect(field(page, 'Label')).toBeFocused();
  await page.keyboard.type(label);
  await page.keyboard.press('Tab');
  await expect(field(page, 'Number')).toBeFocused();
  await page.keyboard.type(number);
  await page.keyboard.press('Enter');
}

test.describe('speed dial', () => {
  test('keyboard only: create entries, the shortcut in use refused at its field, Alt+Down saves the order, #n dials from the palette and the dialpad, the dialpad side panel, delete; axe in light and dark', async ({ page }) => {
    await loginByKeyboard(page, USER);
    await goByChord(page, 's');
    await expect(page).toHaveURL(/\/speed-dial$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Speed dial' })).toBeVisible();
    await expect(page.getByText('0 of 100 speed dials in your organisation')).toBeVisible();

    // The echo test number answers by itself: a real call through Kamailio. An empty shortcut takes the first free one (#1).
    await create(page, '5', 'Echo test', '*43');
    await expect(form(page)).toBeHidden();
    await expect(row(page, '#5 · Echo test')).toBeVisible();
    await create(page, '', 'Front desk', '+1 (415) 555-0100');
    await expect(form(page)).toBeHidden();
    await expect(row(page, '#1 · Front desk')).toBeVisible();
    await expect(page.getByText('2 of 100 speed dials in your organisation')).toBeVisible();

    // A shortcut in use: the server's 400 names it at the field; what was typed stays. Axe on the dialog.
    await create(page, '5', 'Duplicate', '1234');
    await expect(field(page, 'Shortcut')).toHaveAccessibleDescription(/Shortcut #5 is already in use\./);
    await expect(field(page, 'Shortcut')).toBeFocused();
    await expect(field(page, 'Shortcut')).toHaveValue('5');
    await expect(field(page, 'Label')).toHaveValue('Duplicate');
    await expect(field(page, 'Number')).toHaveValue('1234');
    // An administrator may share with the organisation.
    await expect(form(page).getByRole('checkbox', { name: 'Share with my organisation' })).toBeVisible();
    await expectNoAxeViolations(page, 'speed-dial form with an error, light');
    await page.keyboard.press('Escape');
    await expect(form(page)).toBeHidden();
    await expect(page.getByText('2 of 100 speed dials in your organisation')).toBeVisible();
    await expectNoAxeViolations(page, 'speed-dial list, light');

    // Alt+Down moves the focused entry below the next one, keeps the focus on it, and the server keeps the order.
    await expect(list(page).getByRole('row').nth(0)).toHaveAccessibleName(/^#5 · Echo test/);
    await focusRow(page, '#5 · Echo test');
    // The last of the two PUTs: the entry moved, at its new position.
    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && /"label":"Echo test"/.test(r.request().postData() ?? '') && /"position":1\b/.test(r.request().postData() ?? ''));
    await page.keyboard.press('Alt+ArrowDown');
    await expect(list(page).getByRole('row').nth(0)).toHaveAccessibleName(/^#1 · Front desk/);
    await expect(list(page).getByRole('row').nth(1)).toHaveAccessibleName(/^#5 · Echo test/);
    await expect(row(page, '#5 · Echo test')).toBeFocused();
    expect((await saved).status()).toBe(200);
    await page.reload();
    await expect(list(page).getByRole('row').nth(1)).toHaveAccessibleName(/^#5 · Echo test/);
    await expect(list(page).getByRole('row').nth(0)).toHaveAccessibleName(/^#1 · Front desk/);

    // "#5" alone in the palette names the entry; Enter dials it: the echo answers, the dock counts the call.
    await page.goto('/calls');
    await expectPhoneReady(page);
    await openPalette(page);
    await page.keyboard.type('#5');
    const first = page.getByRole('dialog', { name: 'Command palette' }).getByRole('option').first();
    await expect(first).toHaveAccessibleName(/^Call ▸ #5 · Echo test \(Speed dial\)/);
    await expect(first).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(dock(page)).toContainText(/00:00:\d\d/, { timeout: 15_000 });
    await page.keyboard.press('Control+Shift+E');
    await expect(dock(page)).toBeHidden({ timeout: 10_000 });

    // "#5" typed in the dialpad's number field and Enter: the same entry is dialled.
    const number = page.getByRole('textbox', { name: 'Number to call' });
    await tabUntilFocused(page, number, 60);
    await page.keyboard.type('#5');
    await page.keyboard.press('Enter');
    await expect(dock(page)).toContainText(/00:00:\d\d/, { timeout: 15_000 });
    await page.keyboard.press('Control+Shift+E');
    await expect(dock(page)).toBeHidden({ timeout: 10_000 });

    // The dialpad's button opens the side panel with the entries.
    const open = page.getByRole('button', { name: 'Open speed dial' });
    await tabUntilFocused(page, open, 60);
    await page.keyboard.press('Enter');
    const panel = page.getByRole('dialog', { name: 'Speed dial' });
    await expect(panel.getByRole('row', { name: /^#5 · Echo test/ })).toBeVisible();
    await expectNoAxeViolations(page, 'speed-dial side panel, light');
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();

    // Dark: the screen and the edit form read by axe.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/speed-dial');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(row(page, '#5 · Echo test')).toBeVisible();
    await expectNoAxeViolations(page, 'speed-dial list, dark');
    await focusRow(page, '#5 · Echo test');
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('button', { name: 'Edit #5 · Echo test' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(form(page, 'Edit speed dial').getByRole('textbox', { name: 'Number' })).toHaveValue('*43');
    await expectNoAxeViolations(page, 'speed-dial form, dark');
    await page.keyboard.press('Escape');

    // Delete, confirmed, from the row.
    await focusRow(page, '#5 · Echo test');
    await page.keyboard.press('Delete');
    const confirm = page.getByRole('alertdialog', { name: 'Delete speed dial?' }).or(page.getByRole('dialog', { name: 'Delete speed dial?' }));
    await expect(confirm).toContainText('#5 · Echo test will be removed.');
    await tabUntilFocused(page, confirm.getByRole('button', { name: 'Delete' }));
    await page.keyboard.press('Enter');
    await expect(row(page, '#5 · Echo test')).toHaveCount(0);
    await expect(page.getByText('1 of 100 speed dials in your organisation')).toBeVisible();
  });
});

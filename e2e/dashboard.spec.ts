import { expect, test, type Locator, type Page } from './csp-guard';
import { DEMO_PASSWORD, expectNoAxeViolations, goByChord, loginByKeyboard, tabUntilFocused } from './fixtures';

// Carol: a mailbox on the first voicemail generation, seeded calls and messages. The spec makes the
// dashboard her home and puts it back afterwards (other specs expect her to land on history).
const USER = 'carol';

const region = (page: Page, name: string) => page.getByRole('region', { name });
const feed = (page: Page) => region(page, 'Recent activity').getByRole('grid', { name: 'Recent activity' });
const group = (page: Page, name: string) => page.getByRole('radiogroup', { name });

/** Keyboard: into the radio group (its checked radio), then arrows until `name` is checked. */
async function chooseRadio(page: Page, groupName: string, name: string): Promise<void> {
  await tabUntilFocused(page, group(page, groupName).getByRole('radio', { checked: true }), 60);
  const target = group(page, groupName).getByRole('radio', { name, exact: true });
  for (let i = 0; i < 12 && !(await target.isChecked()); i++) await page.keyboard.press('ArrowRight');
  await expect(target).toBeChecked();
}

/** Keyboard: ↓ through the focused grid until `row` has the focus. */
async function arrowTo(page: Page, row: Locator): Promise<void> {
  for (let i = 0; i < 60 && !(await row.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await expect(row).toBeFocused();
}

test.describe('dashboard', () => {
  test.afterEach(async ({ page }) => {
    // History again for the other specs, whatever happened above.
    const login = await page.request.post('/login', { data: { username: USER, password: DEMO_PASSWORD } });
    const token = (await login.json()).access_token as string;
    const reset = await page.request.put('/v1/user-preferences/uc-home-page', { headers: { authorization: `Bearer ${token}` }, data: { value: false } });
    expect(reset.status()).toBe(200);
  });

  test('keyboard only: the dashboard as home, its cards as regions, the feed opens a voicemail, the join popup, axe', async ({ page }) => {
    await loginByKeyboard(page, USER);
    // The product's home until the user picks another.
    await expect(page).toHaveURL(/\/history/);

    // "g d" is listed with the other go-to keys in the shortcuts dialog, and goes to the dashboard.
    await page.locator('body').press('Shift+?');
    const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(shortcuts.getByRole('row', { name: /Go to dashboard/ })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(shortcuts).toBeHidden();
    await goByChord(page, 'd');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    for (const name of ['Clock', 'Contacts', 'Meetings', 'Recent activity']) {
      await expect(region(page, name).getByRole('heading', { level: 2, name })).toBeVisible();
    }

    // Preferences ▸ General: the dashboard as home page, and background 3 (the carousel's items).
    await page.goto('/preferences?panel=general');
    await expect(page.getByRole('heading', { level: 2, name: 'General' })).toBeVisible();
    await chooseRadio(page, 'Home page', 'Dashboard');
    await chooseRadio(page, 'Dashboard background', 'Background 3');
    await expectNoAxeViolations(page, 'general panel with the background carousel');
    await tabUntilFocused(page, page.getByRole('button', { name: 'Save', exact: true }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();

    // `/` and the first screen after signing in are the dashboard from now on.
    await page.goto('/');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/logout');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await loginByKeyboard(page, USER);
    await expect(page).toHaveURL(/\/dashboard$/);
    // /home leads to the same place.
    await page.goto('/home');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.locator('.dashboard')).toHaveAttribute('data-background', '/backgrounds/dusk.svg');

    // The clock, the first contacts (Call and Message each), the feed of voicemail, calls and messages.
    await expect(region(page, 'Clock').locator('time')).toHaveText(/\d{1,2}:\d{2}/);
    const people = region(page, 'Contacts').getByRole('listitem');
    await expect.poll(() => people.count()).toBeGreaterThan(0);
    expect(await people.count()).toBeLessThanOrEqual(5);
    await expect(region(page, 'Contacts').getByRole('button', { name: /^Call / }).first()).toBeVisible();
    const voicemail = feed(page).getByRole('row', { name: /voicemail from/i }).first();
    await expect(voicemail).toBeVisible();
    await expect(feed(page).getByRole('row', { name: /^(Call from|Call to|Missed call from)/ }).first()).toBeVisible();
    // Today's meetings, as the meetings list holds them (the seed may or may not book one today for her).
    const meetings = region(page, 'Meetings');
    await expect(meetings.getByRole('list', { name: "Today's meetings" }).or(meetings.getByText('No meetings today.'))).toBeVisible();
    await expectNoAxeViolations(page, 'dashboard');

    // The join popup: its button by Tab, the ID and PIN boxes, Escape gives the focus back.
    const join = region(page, 'Meetings').getByRole('button', { name: 'Join a meeting' });
    await tabUntilFocused(page, join, 40);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Join a meeting by its ID' });
    await expect(dialog.getByRole('textbox', { name: 'Meeting ID' })).toBeFocused();
    await page.keyboard.type('12');
    await page.keyboard.press('Tab');
    await expect(dialog.getByLabel('PIN (if the meeting has one)')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog.getByText('A meeting ID is 6 to 12 digits.')).toBeVisible();
    await expectNoAxeViolations(page, 'join popup over the dashboard');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/dashboard$/);
    // Shift+I, the meetings screen's key for the same popup, opens it here too.
    await page.locator('body').press('Shift+I');
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // The feed is one tab stop; ↓ to a voicemail, Enter opens it on the voicemail screen.
    await tabUntilFocused(page, feed(page).getByRole('row').first(), 40);
    await arrowTo(page, voicemail);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/voicemail\/\d+$/);
    await expect(page.locator('.detail-pane').getByRole('heading', { level: 2 })).toBeVisible();
  });
});

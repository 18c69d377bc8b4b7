import { expect, test, type Page } from './csp-guard';
import { expectNoAxeViolations, goByChord, loginByKeyboard, openPalette } from './fixtures';

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: /Voicemail/ });
const grid = (page: Page) => page.getByRole('grid', { name: 'Voicemail messages' });
const detail = (page: Page) => page.locator('.detail-pane');
const status = (page: Page) => detail(page).locator('.vm-status');

async function openVoicemail(page: Page, user: string): Promise<void> {
  await loginByKeyboard(page, user);
  // The entry (and its commands) appear once the plugin's strings are in, a moment after sign-in.
  await expect(nav(page)).toBeVisible();
  // Keyboard: the "go to voicemail" hotkey.
  await goByChord(page, 'v');
  await expect(page).toHaveURL(/\/voicemail$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Voicemail' })).toBeVisible();
  await expect(grid(page).getByRole('row').first()).toBeVisible();
}

test.describe('voicemail', () => {
  test('keyboard only: play (becomes read, badge drops), transcript, toggle unread, axe (v2 mailbox)', async ({ page }) => {
    await openVoicemail(page, 'alice');
    await expect(nav(page)).toContainText('5');
    await expectNoAxeViolations(page, 'voicemail list');

    // The list is one tab stop; focus selects the newest message, Enter opens it.
    await grid(page).focus();
    await expect(page).toHaveURL(/\/voicemail\/\d+$/);
    const first = grid(page).getByRole('row').first();
    await expect(first).toHaveAttribute('aria-label', /Unread/);
    await page.keyboard.press('Enter');
    const heading = detail(page).getByRole('heading', { level: 2 });
    await expect(heading).toBeFocused();

    // p plays: the audio loads, plays, the message becomes read and the badge drops.
    await page.keyboard.press('p');
    await expect(status(page)).toHaveAttribute('data-state', 'playing');
    await expect(page.locator('#uc-announcer-polite, [aria-live="polite"]').filter({ hasText: 'Playing voicemail' }).first()).toBeAttached();
    await expect(nav(page)).toContainText('4');
    await expect(first).not.toHaveAttribute('aria-label', /Unread/);
    await page.keyboard.press('p');
    await expect(status(page)).toHaveAttribute('data-state', 'paused');
    // axe once paused: on a busy machine a scan can outlast a short message, which would end by itself.
    await expectNoAxeViolations(page, 'voicemail detail after playing');

    // r toggles back to unread, and the badge follows.
    await page.keyboard.press('r');
    await expect(first).toHaveAttribute('aria-label', /Unread/);
    await expect(nav(page)).toContainText('5');

    // j moves to the next message; expanding its transcript (v2: fetched on demand) marks it read.
    await page.keyboard.press('j');
    const second = grid(page).getByRole('row').nth(1);
    await expect(second).toHaveAttribute('data-selected', 'true');
    const toggle = detail(page).getByRole('button', { name: 'Show transcript' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(detail(page).locator('.vm-transcript-body')).toBeVisible();
    await expect(detail(page).getByRole('button', { name: 'Hide transcript' })).toHaveAttribute('aria-expanded', 'true');
    await expect(second).not.toHaveAttribute('aria-label', /Unread/);
    await expect(nav(page)).toContainText('4');

    // The group filter is remembered locally.
    await page.getByRole('radio', { name: 'Unread' }).click();
    await expect(grid(page).getByRole('row')).toHaveCount(4);
    expect(await page.evaluate(() => localStorage.getItem('voicemail-search-group'))).toBe('UNREAD');
    await page.reload();
    await expect(page.getByRole('radio', { name: 'Unread' })).toBeChecked();
    await expect(grid(page).getByRole('row')).toHaveCount(4);
  });

  test('bulk select and delete, with the confirmation and then without it once remembered; download', async ({ page }) => {
    await openVoicemail(page, 'bob');
    const rows = grid(page).getByRole('row');
    await expect(rows).toHaveCount(12);

    // Download names the file from the timestamp and the caller number.
    await grid(page).focus();
    const downloading = page.waitForEvent('download');
    await page.keyboard.press('Shift+D');
    const file = await downloading;
    expect(file.suggestedFilename()).toMatch(/^voicemail-\d{8}-\d{4}-\d+\.wav$/);

    // Space ticks; once something is ticked a click ticks too.
    await grid(page).focus();
    await page.keyboard.press('Space');
    await expect(page.getByRole('toolbar', { name: 'Selected messages' })).toContainText('1 selected');
    await rows.nth(2).click();
    await expect(page.getByRole('toolbar', { name: 'Selected messages' })).toContainText('2 selected');
    await grid(page).focus();
    await page.keyboard.press('Delete');
    const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Delete voicemail?' }));
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('2 messages will be deleted for good.');
    await expectNoAxeViolations(page, 'voicemail delete confirmation');
    await dialog.getByRole('checkbox', { name: "Don't ask me again" }).focus();
    await page.keyboard.press('Space');
    await expect(dialog.getByRole('checkbox', { name: "Don't ask me again" })).toBeChecked();
    await dialog.getByRole('button', { name: 'Delete' }).press('Enter');
    await expect(rows).toHaveCount(10);
    await expect(page).toHaveURL(/\/voicemail$/);

    // Remembered: the next delete asks nothing.
    await grid(page).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/voicemail\/\d+$/);
    await page.keyboard.press('Delete');
    await expect(rows).toHaveCount(9);
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(/\/voicemail$/);
  });

  test('first-generation mailbox (voicemail2 off): list, play, transcript, mark read from the palette', async ({ page }) => {
    await openVoicemail(page, 'carol');
    await expect(nav(page)).toContainText('5');
    await grid(page).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('p');
    await expect(status(page)).toHaveAttribute('data-state', 'playing');
    await expect(nav(page)).toContainText('4');
    await detail(page).getByRole('button', { name: 'Show transcript' }).press('Enter');
    await expect(detail(page).locator('.vm-transcript-body')).not.toBeEmpty();

    // Every message is in the palette; "Mark all read" marks the rest.
    await openPalette(page);
    await page.keyboard.type('mark all read');
    await expect(page.getByRole('option', { name: /Mark all read/ }).first()).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(nav(page)).not.toContainText(/\d/);
    await openPalette(page);
    await page.keyboard.type('voicemail from');
    await expect(page.getByRole('option', { name: /Voicemail from .+, / }).first()).toBeVisible();
    await page.keyboard.press('Escape');
  });
});

import { expect, test, type Page } from './csp-guard';
import { correctedStart } from '../src/plugins/recordings/model';
import { expectNoAxeViolations, goByChord, loginByKeyboard, openPalette } from './fixtures';

const grid = (page: Page) => page.getByRole('grid', { name: 'Call recordings' });
const detail = (page: Page) => page.locator('.detail-pane');
const state = (page: Page) => detail(page).locator('.rec-state');
const recordingsLink = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Call recordings' });

test.describe('call recordings', () => {
  test('keyboard only: list of the last 3 months, play and seek, the start-date correction, axe', async ({ page }) => {
    await loginByKeyboard(page, 'olivia');
    await expect(recordingsLink(page)).toBeVisible();
    await goByChord(page, 'r');
    await expect(page).toHaveURL(/\/recordings$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Call recordings' })).toBeVisible();
    // The seed has 18 recordings; two are older than the 3-month range "All".
    await expect(page.getByText('16 recordings')).toBeVisible();
    await expect(grid(page).getByRole('row').first()).toBeVisible();
    await expectNoAxeViolations(page, 'recordings list');

    // Enter opens the newest; p plays it, and the player says so.
    await grid(page).focus();
    await page.keyboard.press('Enter');
    await expect(detail(page).getByRole('heading', { level: 2 })).toBeFocused();
    await page.keyboard.press('p');
    await expect(state(page)).toHaveAttribute('data-state', 'playing');
    await expect(page.locator('[aria-live="polite"]').filter({ hasText: 'Playing recording' })).toBeAttached();

    // Seek by keyboard on the position slider: the position moves forward.
    const position = detail(page).getByRole('slider', { name: 'Position' });
    await page.keyboard.press('p');
    await expect(state(page)).toHaveAttribute('data-state', 'paused');
    // axe once paused: a scan takes seconds on a busy machine, long enough for a short clip to end
    // while playing (and the next `p` would then start it again instead of pausing).
    await expectNoAxeViolations(page, 'recording player after playing');
    await position.focus();
    await page.keyboard.press('Home');
    await expect(position).toHaveValue('0');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await expect(position).toHaveValue('3');
    await expect(position).toHaveAttribute('aria-valuetext', /^0:03 \//);
    // Playing on continues from there.
    await page.keyboard.press('p');
    await expect(state(page)).toHaveAttribute('data-state', 'playing');
    await expect.poll(async () => Number(await position.inputValue())).toBeGreaterThanOrEqual(4);
    await page.keyboard.press('p');
    await expect(state(page)).toHaveAttribute('data-state', 'paused');

    // j moves to the next recording; the player of the new one has not started.
    await grid(page).focus();
    await page.keyboard.press('j');
    await expect(grid(page).getByRole('row').nth(1)).toHaveAttribute('aria-selected', 'true');

    // A custom start date earlier than 3 months ago moves to the limit plus one day after 2 s.
    await page.getByRole('combobox', { name: 'Period' }).selectOption('custom');
    const start = page.getByLabel('Start date');
    await start.fill('2020-01-01');
    await expect(page.getByRole('status').filter({ hasText: 'Recordings are kept for 3 months' })).toBeVisible();
    const expected = correctedStart('2020-01-01', new Date())!;
    await expect(start).toHaveValue(expected, { timeout: 5000 });
    await expect(page.getByText('15 recordings').or(page.getByText('16 recordings'))).toBeVisible();

    // The search finds by any digits of the number, typed with punctuation.
    await page.getByRole('combobox', { name: 'Period' }).selectOption('all');
    await expect(page.getByText('16 recordings')).toBeVisible();
    const secondary = await grid(page).getByRole('row').nth(3).locator('.row-secondary').textContent();
    const digits = (secondary ?? '').replace(/\D/g, '').slice(-4);
    await page.getByRole('searchbox', { name: 'Phone number' }).fill(`${digits.slice(0, 2)}-${digits.slice(2)}`);
    await expect.poll(async () => grid(page).getByRole('row').count()).toBeLessThan(16);
    for (const text of await grid(page).locator('.row-secondary').allTextContents()) expect(text.replace(/\D/g, '')).toContain(digits);
  });

  test('recordings are palette entities with Play/Pause and Download', async ({ page }) => {
    await loginByKeyboard(page, 'dave');
    await expect(recordingsLink(page)).toBeVisible();
    await openPalette(page);
    await page.keyboard.type('recording with');
    await expect(page.getByRole('option', { name: /Recording with .+, / }).first()).toBeVisible();
    await page.keyboard.press('Escape');
    await page.goto('/recordings');
    await grid(page).focus();
    const downloading = page.waitForEvent('download');
    await page.keyboard.press('Shift+D');
    expect((await downloading).suggestedFilename()).toMatch(/^recording-\d{8}-\d{4}-\d+\.wav$/);
  });
});

import { expect, test, type Page } from './csp-guard';
import { expectNoAxeViolations, loginByKeyboard, openPalette } from './fixtures';

// The one demo user who has never signed in (server/seed.ts FIRST_TIME_USER).
const NEW_USER = 'marta.kowalczyk';

const tour = (page: Page) => page.getByRole('dialog', { name: /./ }).filter({ has: page.getByText(/^Step \d of \d$/) });

/** Keyboard: Tab from the part of the screen the step explains to the tour's first button (Next or Finish), Enter. */
async function next(page: Page): Promise<void> {
  await page.keyboard.press('Tab');
  await expect(tour(page).getByRole('button', { name: /^(Next|Finish)$/ })).toBeFocused();
  await page.keyboard.press('Enter');
}

test.describe('tutorial', () => {
  test('keyboard only: the tour starts at the first sign-in, each step puts the focus on the part it explains, Finish saves it (not again after a reload), "Show tutorial" replays it and Esc ends it; axe', async ({ page }) => {
    await loginByKeyboard(page, NEW_USER);
    await expect(tour(page)).toHaveAccessibleName('Welcome to Acme UC');
    await expect(tour(page).getByText('Step 1 of 7')).toBeVisible();
    await expect(page.locator('#main-heading')).toBeFocused();
    await expectNoAxeViolations(page, 'tutorial, first step');

    await next(page);
    await expect(tour(page)).toHaveAccessibleName('Calls');
    const calls = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Calls' });
    await expect(calls).toBeFocused();
    // The step's text is what a screen reader hears with the focused link.
    await expect(calls).toHaveAccessibleDescription(/Make and answer calls here/);

    await next(page);
    await expect(tour(page)).toHaveAccessibleName('Every screen');
    await next(page);
    await expect(tour(page)).toHaveAccessibleName('Search or run anything');
    await expect(page.getByRole('button', { name: /Search or run/ })).toBeFocused();
    await next(page);
    await expect(tour(page)).toHaveAccessibleName('Your account');
    await next(page);
    await expect(tour(page)).toHaveAccessibleName('Where your calls ring');
    await next(page);
    await expect(tour(page)).toHaveAccessibleName("You're ready");
    await expect(tour(page).getByText('Step 7 of 7')).toBeVisible();
    // A standard user: no logo upload offered.
    await expect(tour(page).getByRole('button', { name: 'Upload company logo' })).toHaveCount(0);
    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('uc-tutorial-completed'));
    await next(page);
    expect((await saved).ok()).toBe(true);
    await expect(tour(page)).toHaveCount(0);
    // The focus is not lost: it stays where the last step put it.
    await expect(page.locator('#main-heading')).toBeFocused();

    // Not again after a reload: the page asks whether the tour was taken, and does not start it.
    const asked = page.waitForResponse((r) => r.request().method() === 'GET' && r.url().includes('/v1/user-preferences/uc-tutorial-completed'));
    await page.reload();
    expect((await asked).ok()).toBe(true);
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    await openPalette(page);
    await page.keyboard.type('show tutorial');
    await expect(page.getByRole('option', { name: /^Show tutorial/ })).toHaveAttribute('aria-selected', 'true');
    // Before the replay: the answer came before the palette opened, so a tour would be up by now.
    await expect(tour(page)).toHaveCount(0);
    await page.keyboard.press('Enter');
    await expect(tour(page)).toHaveAccessibleName('Welcome to Acme UC');
    await expect(page.locator('#main-heading')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(tour(page)).toHaveCount(0);
  });
});

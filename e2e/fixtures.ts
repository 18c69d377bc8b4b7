import AxeBuilder from '@axe-core/playwright';
import { expect, type Browser, type Locator, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'Demo-pass-1';

/** Logs in with the keyboard only, as a screen-reader or power user would. */
export async function loginByKeyboard(page: Page, username: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Username' }).focus();
  await page.keyboard.type(username);
  await page.keyboard.press('Tab');
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
}

/** axe-core over the whole page (WCAG 2.x A/AA rules); fails with the violations listed. */
export async function expectNoAxeViolations(page: Page, context: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(summary, `axe violations on ${context}`).toEqual([]);
}

/**
 * A "g <key>" go-to chord by keyboard. Alt+N first puts the focus on the navigation, so that no
 * focused list on the screen takes the letters as type-ahead.
 */
export async function goByChord(page: Page, key: string): Promise<void> {
  await page.keyboard.press('Alt+n');
  await page.keyboard.press('g');
  await page.keyboard.press(key);
}

export async function openPalette(page: Page, name = 'Command palette'): Promise<void> {
  await page.keyboard.press('Control+k');
  await expect(page.getByRole('dialog', { name })).toBeVisible();
}

/** Presses Tab, as a keyboard user does, until `target` has the focus (at most `max` presses: the frame's rail, menus and top bar come first). */
export async function tabUntilFocused(page: Page, target: Locator, max = 50): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

/** A person of their own (a fresh browser context), signed in by keyboard. */
export async function signedInPerson(browser: Browser, baseURL: string, username: string): Promise<Page> {
  const ctx = await browser.newContext({ baseURL, locale: 'en-US', timezoneId: 'UTC' });
  const page = await ctx.newPage();
  await loginByKeyboard(page, username);
  return page;
}

import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from './csp-guard';
import { expectNoAxeViolations, loginByKeyboard, tabUntilFocused } from './fixtures';

// A user no other spec signs in as: this spec changes their cut-offs, notifications, log level and theme.
const USER = 'mikko.virtanen';

const panelList = (page: Page) => page.getByRole('tablist', { name: 'Preferences panels' });
const tab = (page: Page, name: string) => panelList(page).getByRole('tab', { name, exact: true });
const panelHeading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name, exact: true });
const save = (page: Page) => page.getByRole('button', { name: 'Save', exact: true });
const focused = (l: Locator) => l.evaluate((el) => el === document.activeElement).catch(() => false);

async function backTabUntilFocused(page: Page, target: Locator, max = 40): Promise<void> {
  for (let i = 0; i < max && !(await focused(target)); i++) await page.keyboard.press('Shift+Tab');
  await expect(target).toBeFocused();
}

/** Keyboard: from the panel back to the list (one tab stop), arrows to `name`, Enter opens it. */
async function openPanel(page: Page, name: string): Promise<void> {
  if ((await tab(page, name).getAttribute('aria-selected')) === 'true') return;
  await backTabUntilFocused(page, panelList(page).locator('[role="tab"][tabindex="0"]'));
  await page.keyboard.press('Home');
  for (let i = 0; i < 12 && !(await focused(tab(page, name))); i++) await page.keyboard.press('ArrowDown');
  await expect(tab(page, name)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(panelHeading(page, name)).toBeFocused();
}

/** Keyboard: Tab to the select's button, open it, arrow to `option`, Enter picks it. */
async function pick(page: Page, select: Locator, option: string): Promise<void> {
  await tabUntilFocused(page, select, 40);
  await page.keyboard.press('Enter');
  const item = page.getByRole('option', { name: option, exact: true });
  await expect(item).toBeVisible();
  await page.keyboard.press('Home');
  for (let i = 0; i < 12 && !(await focused(item)); i++) await page.keyboard.press('ArrowDown');
  await expect(item).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(select).toContainText(option);
}

async function saveByKeyboard(page: Page): Promise<void> {
  await tabUntilFocused(page, save(page), 40);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
}

async function setTheme(page: Page, theme: 'Dark' | 'Light'): Promise<void> {
  await openPanel(page, 'General');
  const radio = page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: theme, exact: true });
  await tabUntilFocused(page, page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { checked: true }));
  for (let i = 0; i < 4 && !(await radio.isChecked()); i++) await page.keyboard.press('ArrowRight');
  await expect(radio).toBeChecked();
  await saveByKeyboard(page);
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme.toLowerCase());
}

const MINE = ['Messages', 'Integrations', 'Logging', 'ConnectWise', 'Salesforce'];

test.describe('preferences: messages, logging and integrations', () => {
  test('keyboard only: a cut-off and a notification kind saved, the log level changed and the log downloaded, the placeholders', async ({ page }) => {
    await loginByKeyboard(page, USER);
    await page.goto('/preferences?panel=messages');
    await expect(panelHeading(page, 'Messages')).toBeVisible();

    // Texts kept forever (730 days: "Never") and no desktop notification for calls.
    const textsCutoff = page.getByRole('button', { name: /\bTexts$/ });
    await expect(textsCutoff).toContainText('3 months');
    await pick(page, textsCutoff, 'Never');
    const calls = page.getByRole('switch', { name: 'Calls', exact: true });
    await expect(calls).toBeChecked();
    await tabUntilFocused(page, calls, 40);
    await page.keyboard.press('Space');
    await expect(calls).not.toBeChecked();
    // No e-mail server here: the switch says so.
    await expect(page.getByText('E-mail is not set up on this server')).toBeVisible();
    await saveByKeyboard(page);

    await page.reload();
    await expect(panelHeading(page, 'Messages')).toBeVisible();
    await expect(page.getByRole('button', { name: /\bTexts$/ })).toContainText('Never');
    await expect(page.getByRole('button', { name: /\bGroup chats$/ })).toContainText('3 months');
    await expect(page.getByRole('switch', { name: 'Calls', exact: true })).not.toBeChecked();
    await expect(page.getByRole('switch', { name: 'Chat messages', exact: true })).toBeChecked();

    // Logging: Debug from now on, and a size over 25 MB kept as 25.
    await openPanel(page, 'Logging');
    const level = page.getByRole('button', { name: /Log level$/ });
    await expect(level).toContainText('Info');
    await pick(page, level, 'Debug');
    const size = page.getByRole('textbox', { name: /Maximum size in MB/ });
    await tabUntilFocused(page, size);
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('4x');
    await expect(size).toHaveAttribute('aria-invalid', 'true');
    await expect(save(page)).toBeDisabled();
    await page.keyboard.press('Backspace');
    await page.keyboard.type('0');
    await saveByKeyboard(page);
    await expect(size).toHaveValue('25');

    const download = page.getByRole('button', { name: 'Download logs' });
    await tabUntilFocused(page, download);
    const [file] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(file.suggestedFilename()).toMatch(/^uc-client-log-\d{4}-\d{2}-\d{2}\.txt$/);
    // A text file (possibly empty: this page may have logged nothing at Debug or above yet).
    expect(typeof (await readFile((await file.path())!, 'utf8'))).toBe('string');
    await expect(page.getByRole('status').filter({ hasText: 'Log downloaded.' })).toBeVisible();

    await page.reload();
    await expect(panelHeading(page, 'Logging')).toBeVisible();
    await expect(page.getByRole('button', { name: /Log level$/ })).toContainText('Debug');

    // The placeholders: nothing connected, the service's own page in a new tab.
    for (const name of ['Integrations', 'ConnectWise', 'Salesforce']) {
      await openPanel(page, name);
      await expect(page.getByText(`Nothing is connected to ${name} in this client.`)).toBeVisible();
      const link = page.getByRole('link', { name: new RegExp(`^Set up ${name}`) });
      await tabUntilFocused(page, link);
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', /noopener/);
      await expect(save(page)).toHaveCount(0);
    }
  });

  test('axe on each of these panels, light and dark', async ({ page }) => {
    await loginByKeyboard(page, USER);
    await page.goto('/preferences?panel=general');
    await expect(panelHeading(page, 'General')).toBeVisible();
    for (const theme of ['Dark', 'Light'] as const) {
      await setTheme(page, theme);
      for (const name of MINE) {
        await openPanel(page, name);
        await expectNoAxeViolations(page, `${name} panel, ${theme.toLowerCase()}`);
      }
    }
  });
});

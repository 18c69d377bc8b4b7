import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from './csp-guard';
import { input, log, messageByPalette, send } from './chat-helpers';
import { expectNoAxeViolations, loginByKeyboard, openPalette, tabUntilFocused } from './fixtures';
import { STATE_FILE, type E2eState } from './global-setup';

const root = resolve(import.meta.dirname, '..');

/** `npm run maintenance -- on|off`, against the suite's API server (its data folder and ports). */
function maintenance(mode: 'on' | 'off'): void {
  const state = JSON.parse(readFileSync(STATE_FILE, 'utf8')) as E2eState;
  execFileSync(process.execPath, ['--import', 'tsx', 'server/frame/cli.ts', mode], {
    cwd: root,
    env: { ...process.env, UC_RUNTIME_DIR: state.runtimeDir, UC_PORT_BASE: String(state.portBase) },
    stdio: 'pipe',
  });
}

/** Opens a top-bar menu by keyboard (Tab to its button, Enter) and answers its menu. */
async function openMenu(page: Page, name: string) {
  await tabUntilFocused(page, page.getByRole('button', { name, exact: true }));
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name });
  await expect(menu).toBeVisible();
  return menu;
}

test('the plus menu starts a chat, by keyboard only', async ({ page }) => {
  await loginByKeyboard(page, 'alice');
  const menu = await openMenu(page, 'Create');
  // Each plugin's own entry: chat, text, contact, meeting, speed dial.
  await expect(menu.getByRole('menuitem')).toHaveText(['New chat', 'New text', 'New contact', 'New meeting', 'New speed dial']);
  await expectNoAxeViolations(page, 'plus menu');
  await expect(menu.getByRole('menuitem', { name: 'New chat' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: 'Start a chat with a colleague' })).toBeVisible();
  // A colleague no other journey talks to: the message must not count as unread in theirs.
  const wei = page.getByRole('grid', { name: 'Colleagues' }).getByRole('row', { name: /Jonas Becker/ });
  await tabUntilFocused(page, page.getByRole('grid', { name: 'Colleagues' }).getByRole('row').first());
  for (let i = 0; i < 80 && !(await wei.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await expect(wei).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: 'Jonas Becker' })).toBeVisible();
  const text = `from the plus menu ${Date.now()}`;
  await send(page, 'Jonas Becker', text);
  await expect(log(page, 'Jonas Becker').getByRole('listitem').filter({ hasText: text })).toContainText(/Delivered|Received/);
});

test("the apps menu opens the account owner's contact-center pages", async ({ page }) => {
  await loginByKeyboard(page, 'olivia');
  const menu = await openMenu(page, 'Apps');
  await expect(menu.getByRole('menuitem')).toHaveText(['Contact center admin', 'Contact center agent', 'IVR admin', 'Get the mobile app']);
  await expectNoAxeViolations(page, 'apps menu');
  // The page itself is outside this deployment (and this machine has no way out): the new tab asking for it is the proof.
  const requested = page.context().waitForEvent('request', (r) => r.url() === 'https://cc.acme-uc.example/admin');
  const popup = page.waitForEvent('popup');
  await page.keyboard.press('Enter');
  await requested;
  await (await popup).close();
});

test('the design-changes announcement shows once: confirmed, it does not come back after a reload', async ({ page }) => {
  await loginByKeyboard(page, 'camille.dubois');
  const dialog = page.getByRole('dialog', { name: "What's new: a fresh design" });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page, 'feature announcement');
  const confirmButton = dialog.getByRole('button', { name: 'Got it' });
  await expect(confirmButton).toBeFocused();
  const confirmed = page.waitForResponse((r) => r.url().endsWith('/v1/announcements/design-changes/confirm') && r.status() === 204);
  await page.keyboard.press('Enter');
  await confirmed;
  await expect(dialog).toHaveCount(0);

  const checked = page.waitForResponse((r) => r.url().endsWith('/v1/announcements') && r.ok());
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  expect(await (await checked).json()).toEqual({ pending: [] });
  await expect(dialog).toHaveCount(0);
});

test('maintenance switched on: a signed-in user is sent to the login page, which says why', async ({ page }) => {
  await loginByKeyboard(page, 'carol');
  // The push comes on the chat connection: wait until it is up ("Message" is enabled then).
  await openPalette(page);
  await page.keyboard.type('Message');
  await expect(page.getByRole('option', { name: /^Message\b/ }).first()).toHaveAttribute('aria-disabled', 'false', { timeout: 20_000 });
  await page.keyboard.press('Escape');
  await messageByPalette(page, 'Bob Martinez');
  await expect(input(page, 'Bob Martinez')).toHaveAccessibleDescription('', { timeout: 20_000 });
  try {
    maintenance('on');
    await expect(page).toHaveURL(/\/login\?reason=maintenance$/, { timeout: 15_000 });
    await expect(page.getByRole('alert').filter({ hasText: 'The service is under maintenance' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expectNoAxeViolations(page, 'login page after maintenance');
  } finally {
    maintenance('off');
  }
  // Over: signing in works again, and stays.
  await loginByKeyboard(page, 'carol');
});

test('a tab older than the build the server serves is told to reload, and the reload cures it', async ({ page }) => {
  await loginByKeyboard(page, 'carol');
  await openPalette(page);
  await page.keyboard.type('Message');
  await expect(page.getByRole('option', { name: /^Message\b/ }).first()).toHaveAttribute('aria-disabled', 'false', { timeout: 20_000 });
  await page.keyboard.press('Escape');
  // This tab now names another build than dist/ holds, as a tab left open across a deployment does;
  // switching maintenance off (it was off) makes the server ask every open tab to check.
  await page.evaluate(() => document.querySelector('script[type="module"][src^="/assets/"]')!.setAttribute('src', '/assets/index-0ld.js'));
  maintenance('off');
  const dialog = page.getByRole('alertdialog', { name: 'This version is out of date' });
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await expectNoAxeViolations(page, 'old-client modal');
  await expect(dialog.getByRole('button', { name: 'Reload' })).toBeFocused();
  await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
  // The reloaded tab checks again at its start, and is the build the server serves.
  const checked = page.waitForResponse((r) => r.url().endsWith('/v1/maintenance') && r.ok());
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  await checked;
  await expect(dialog).toHaveCount(0);
});

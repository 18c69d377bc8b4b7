import { expect, test, type Page } from './csp-guard';
import { expectNoAxeViolations, goByChord, loginByKeyboard, openPalette, signedInPerson, tabUntilFocused } from './fixtures';

// Users no other spec signs in as: Noa books a meeting with a PIN, Jonas (not invited) comes in with it.
const BOOKER = 'noa.levi';
const COLLEAGUE = 'jonas.becker';
const PIN = '2468';

const detail = (page: Page) => page.locator('.detail-pane');
const lobbyList = (page: Page) => page.getByRole('list', { name: /^In the lobby/ });

/** Replaces what a field holds, by keyboard. */
async function retype(page: Page, field: ReturnType<Page['getByRole']>, text: string): Promise<void> {
  await tabUntilFocused(page, field);
  await page.keyboard.press('Control+a');
  await page.keyboard.type(text);
}

test('keyboard only: Join opens the meeting window on its lobby; a colleague comes in with the PIN (a wrong one refused, the masked one does nothing), each sees the other arrive and leave; the contacts list them in a meeting; a window whose session was not kept alive signs in and returns to the lobby; axe on the lobby', async ({ page, browser, baseURL }) => {
  const name = `Lobby check ${Date.now().toString(36)}`;
  await loginByKeyboard(page, BOOKER);
  await goByChord(page, 'e');
  await expect(page).toHaveURL(/\/meetings$/);

  // An instant meeting with a PIN: it is joined at once; closing that window gives its place up.
  await openPalette(page);
  await page.keyboard.type('new meeting');
  await expect(page.getByRole('option', { name: /New meeting/ }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'New meeting' });
  await retype(page, dialog.getByRole('textbox', { name: 'Meeting name' }), name);
  await retype(page, dialog.getByLabel('PIN (four digits, optional)'), PIN);
  const first = page.waitForEvent('popup');
  await page.keyboard.press('Control+Enter');
  const instant = await first;
  await expect(instant.getByRole('heading', { level: 2, name })).toBeVisible();
  await instant.close();
  await expect(detail(page).getByRole('heading', { level: 2, name })).toBeVisible();
  const id = (await detail(page).locator('dt', { hasText: 'Meeting ID' }).locator('xpath=following-sibling::dd[1]').innerText()).trim();

  // Join from the meetings screen: the window named for the meeting, then its lobby.
  await tabUntilFocused(page, detail(page).getByRole('button', { name: 'Join', exact: true }));
  const opened = page.waitForEvent('popup');
  await page.keyboard.press('Enter');
  const lobby = await opened;
  await expect.poll(() => lobby.url()).toMatch(/\/uc\/noa\.levi\/[a-z0-9]{5,}\?ssid=\d+$/);
  await expect(lobby.getByRole('heading', { level: 2, name })).toBeVisible();
  await expect(lobby.getByText(/Join the meeting to talk with the others/)).toBeVisible();
  await expect(lobbyList(lobby).getByRole('listitem')).toHaveText(['Noa Levi (you)']);
  await expectNoAxeViolations(lobby, 'meeting lobby');
  const lobbyPath = new URL(lobby.url()).pathname;

  // A colleague not invited opens the meeting's address: the PIN is asked.
  const jonas = await signedInPerson(browser, baseURL!, COLLEAGUE);
  await jonas.goto(lobbyPath);
  await expect(jonas.getByRole('heading', { level: 2, name })).toBeVisible();
  const pin = jonas.getByLabel('Meeting PIN');
  await expect(pin).toBeFocused();
  await jonas.keyboard.type('1111');
  await jonas.keyboard.press('Enter');
  await expect(jonas.getByText('Wrong meeting PIN.')).toBeVisible();
  await expectNoAxeViolations(jonas, 'meeting lobby, PIN refused');
  // The masked PIN does nothing: still asked, nobody let in.
  await retype(jonas, pin, '****');
  await jonas.keyboard.press('Enter');
  await expect(pin).toBeVisible();
  await expect(lobbyList(jonas)).toHaveCount(0);
  await retype(jonas, pin, PIN);
  await jonas.keyboard.press('Enter');
  await expect(lobbyList(jonas).getByRole('listitem')).toHaveText(['Jonas Becker (you)', 'Noa Levi']);

  // Noa's lobby shows Jonas arrive.
  await expect(lobbyList(lobby).getByRole('listitem')).toHaveText(['Jonas Becker', 'Noa Levi (you)']);

  // The contacts' meeting group lists the colleague in a meeting now.
  await page.goto('/contacts?group=meeting');
  await expect(page.getByRole('grid', { name: 'Contacts' }).getByRole('row', { name: /^Jonas Becker/ })).toBeVisible();

  // Jonas leaves: gone from Noa's lobby.
  await tabUntilFocused(jonas, jonas.getByRole('button', { name: 'Leave the lobby' }));
  await jonas.keyboard.press('Enter');
  await expect(jonas.getByText('You left the meeting.')).toBeVisible();
  await expect(lobbyList(lobby).getByRole('listitem')).toHaveText(['Noa Levi (you)']);
  await jonas.context().close();

  // A window opened when the session could not be kept alive: the sign-in, then back in the lobby.
  const fresh = await browser.newContext({ baseURL, locale: 'en-US', timezoneId: 'UTC' });
  const again = await fresh.newPage();
  await again.goto(`${lobbyPath}?show_login_prompt=true`);
  await expect(again.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await again.getByRole('textbox', { name: 'Username' }).focus();
  await again.keyboard.type(BOOKER);
  await again.keyboard.press('Tab');
  await again.keyboard.type('Demo-pass-1');
  await again.keyboard.press('Enter');
  await expect(again.getByRole('heading', { level: 2, name })).toBeVisible();
  await expect(lobbyList(again).getByRole('listitem')).toHaveText(['Noa Levi (you)']);
  await expect.poll(() => new URL(again.url()).search).toBe('');
  await fresh.close();
  await lobby.close();
});

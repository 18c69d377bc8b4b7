import { expect, test } from './csp-guard';
import { controls, framesOf, joinNow, startMeeting, tile } from './meeting-helpers';
import { expectNoAxeViolations, loginByKeyboard, tabUntilFocused } from './fixtures';

// A user no other spec signs in as: Leila starts a meeting with a PIN; her guest has no account.
const HOST = 'leila.haddad';
const PIN = '7315';
const GUEST = 'Greta Gast';


test('keyboard only: a guest without an account joins a PIN meeting by e-mail (a wrong PIN refused first), enters the meeting page with their name, sees and is seen by the host; the guest token opens nothing else; axe on the guest form', async ({ page, browser, baseURL }) => {
  test.slow();
  const name = `Guest visit ${Date.now().toString(36)}`;
  await loginByKeyboard(page, HOST);
  const host = await startMeeting(page, name, { pin: PIN });
  const path = new URL(host.url()).pathname;
  await joinNow(host);

  // The guest: a fresh browser, no account. The meeting's address offers "Join as a guest" beside signing in.
  const ctx = await browser.newContext({ baseURL, locale: 'en-US', timezoneId: 'UTC' });
  const guest = await ctx.newPage();
  await guest.goto(path);
  await expect(guest.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await tabUntilFocused(guest, guest.getByRole('button', { name: 'Join as a guest' }));
  await guest.keyboard.press('Enter');
  await expect(guest.getByRole('heading', { level: 1, name: 'Join the meeting as a guest' })).toBeVisible();
  const nameField = guest.getByRole('textbox', { name: 'Your name' });
  await expect(nameField).toBeFocused();
  await expectNoAxeViolations(guest, 'guest form');
  await guest.keyboard.type(GUEST);
  await guest.keyboard.press('Tab');
  await guest.keyboard.type('greta@example.org');
  await guest.keyboard.press('Tab');
  await guest.keyboard.type('0000');
  await guest.keyboard.press('Enter');
  const pinField = guest.getByLabel('Meeting PIN');
  await expect(pinField).toBeFocused();
  await expect(pinField).toHaveAttribute('aria-invalid', 'true');
  await expect(pinField).toHaveAccessibleDescription(/Wrong meeting PIN/);
  await expectNoAxeViolations(guest, 'guest form, PIN refused');
  const issued = guest.waitForResponse((r) => r.url().endsWith('/v1/meetings/guest') && r.status() === 200);
  await guest.keyboard.press('Control+a');
  await guest.keyboard.type(PIN);
  await guest.keyboard.press('Enter');
  const token = ((await (await issued).json()) as { access_token: string; meeting_id: number });

  // The guest's lobby, on the meeting's own address, the guest named as one.
  await expect(guest.getByRole('heading', { level: 2, name })).toBeVisible();
  expect(new URL(guest.url()).pathname).toBe(path);
  const lobby = guest.getByRole('list', { name: /^In the lobby/ });
  await expect(lobby.getByRole('listitem')).toContainText([`${GUEST} (guest) (you)`]);
  await expectNoAxeViolations(guest, "guest's lobby");
  await joinNow(guest);

  // Both turn their cameras on (Ctrl+E works for the guest too) and see each other's frames.
  for (const p of [host, guest]) {
    await p.keyboard.press('Control+e');
    await expect(controls(p).getByRole('button', { name: 'Camera' })).toHaveAttribute('aria-pressed', 'true');
  }
  const hostSees = tile(host, `${GUEST} (guest)`);
  const guestSees = tile(guest, 'Leila Haddad');
  await expect(hostSees).toBeVisible({ timeout: 20_000 });
  await expect(guestSees).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => framesOf(hostSees), { timeout: 20_000 }).toBeGreaterThan(0);
  await expect.poll(() => framesOf(guestSees), { timeout: 20_000 }).toBeGreaterThan(0);

  // The guest's token opens nothing else: not the contacts, not another meeting.
  const auth = { authorization: `Bearer ${token.access_token}` };
  expect((await guest.request.get('/v1/contacts', { headers: auth })).status()).toBe(401);
  expect((await guest.request.post(`/v1/meetings/${token.meeting_id + 1}/presence`, { headers: auth, data: { client_id: 'x' } })).status()).toBe(403);
  // Nor does the page: another address is the sign-in page (the guest mode holds only this meeting).
  const other = await ctx.newPage();
  await other.goto('/contacts');
  await expect(other.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await expect(other.getByRole('button', { name: 'Join as a guest' })).toHaveCount(0);
  await ctx.close();
});

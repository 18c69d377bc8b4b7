import { readServicesConfig } from '../server/services/layout';
import { expect, test, type Page } from './csp-guard';
import { expectNoAxeViolations, goByChord, loginByKeyboard, openPalette, signedInPerson, tabUntilFocused } from './fixtures';
import { E2E_PORT_BASE } from './global-setup';
import { controls, joinNow, startMeeting, tile } from './meeting-helpers';
import { deskPhone } from './telephony-helpers';

const HOST = 'nikolai.petrov';
/** Whose desk phone dials in: any phone of the system may. */
const CALLER = 'zainab.bello';

/** The host starts a meeting (the Meetings screen), joins it, and reads its dial-in digits off its details. */
async function hostWithDigits(page: Page, name: string, opts: { waitingRoom?: boolean } = {}) {
  await loginByKeyboard(page, HOST);
  await goByChord(page, 'e');
  await expect(page.getByRole('heading', { level: 1, name: 'Meetings' })).toBeVisible();
  const host = await startMeeting(page, name, opts);
  const detail = page.locator('.detail-pane');
  await expect(detail.getByRole('heading', { level: 2, name })).toBeVisible();
  const digits = (await detail.locator('dt', { hasText: 'Dial in' }).locator('xpath=following-sibling::dd[1]').innerText()).trim();
  expect(digits).toMatch(/^\*64\*\d{6,12}\*\d{6}$/);
  await joinNow(host);
  return { host, digits };
}

const sipDomain = () => readServicesConfig({ UC_PORT_BASE: String(E2E_PORT_BASE) }).domain;

test("a phone dials into a meeting with the digits its details show: the host sees it as a phone tile playing its audio, a second call as a second tile and list entry, each gone when it hangs up; the caller's history has the call to the meeting", async ({ page, browser, baseURL }) => {
  test.slow();
  const name = `Dial-in ${Date.now().toString(36)}`;
  const { host, digits } = await hostWithDigits(page, name);

  const phone = await deskPhone(baseURL!, CALLER);
  try {
    const since = phone.events.length;
    await phone.command('dial', `sip:${digits}@${sipDomain()}`);
    await phone.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 15_000, since);
    const phoneTile = tile(host, /^Phone \d{3,5}/);
    await expect(phoneTile).toBeVisible({ timeout: 20_000 });
    // No camera: the tile shows its avatar, and its audio plays from the tile.
    await expect.poll(() => phoneTile.locator('video').evaluate((v: HTMLVideoElement) => (v.srcObject as MediaStream | null)?.getAudioTracks().length ?? 0), { timeout: 10_000 }).toBe(1);
    // A second call into the meeting (the same phone, a second line) is a second participant with a tile of its own.
    const second = phone.events.length;
    await phone.command('dial', `sip:${digits}@${sipDomain()}`);
    await phone.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 15_000, second);
    await expect(phoneTile).toHaveCount(2, { timeout: 20_000 });
    await host.keyboard.press('Control+Alt+P');
    const panel = host.getByRole('complementary', { name: 'Participants (3)' });
    // Each with the host's buttons once the bridge's list of phones is read: two entries, not each phone under each tile.
    await expect(panel.getByRole('button', { name: /^Mute Phone \d{3,5}$/ })).toHaveCount(2);
    await expect(panel.getByRole('listitem').filter({ hasText: /^Phone \d{3,5}/ })).toHaveCount(2);
    await phone.command('hangup');
    await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, second);
    await expect(phoneTile).toHaveCount(1, { timeout: 15_000 });
    await expect(host.getByRole('complementary', { name: 'Participants (2)' }).getByRole('button', { name: /^Mute Phone \d{3,5}$/ })).toHaveCount(1);
    await phone.command('hangup');
    await expect.poll(() => phone.events.slice(since).filter((e) => e.type === 'CALL_CLOSED').length, { timeout: 10_000 }).toBe(2);
    await expect(phoneTile).toHaveCount(0, { timeout: 15_000 });
  } finally {
    await phone.stop().catch(() => phone.kill());
  }

  // The caller's history: the newest call is an outgoing one to the meeting, by its name, with the digits dialled.
  const caller = await signedInPerson(browser, baseURL!, CALLER);
  try {
    await caller.keyboard.press('g');
    await caller.keyboard.press('h');
    await expect(caller.getByRole('heading', { level: 1, name: 'Call history' })).toBeVisible();
    await expect(caller.getByRole('heading', { level: 2, name })).toBeVisible({ timeout: 10_000 });
    await expect(caller.getByText(digits).first()).toBeVisible();
  } finally {
    await caller.context().close();
  }
});

test('with a waiting room the phone rings until the host admits "Phone <number>"; in the participants list the host mutes, unmutes and removes it, which ends its call', async ({ page, baseURL }) => {
  test.slow();
  const { host, digits } = await hostWithDigits(page, `Dial-in waiting ${Date.now().toString(36)}`, { waitingRoom: true });
  const phone = await deskPhone(baseURL!, CALLER);
  try {
    const since = phone.events.length;
    await phone.command('dial', `sip:${digits}@${sipDomain()}`);
    await phone.waitEvent((e) => e.type === 'CALL_RINGING', 15_000, since);
    const waiting = host.getByRole('region', { name: 'Waiting to join (1)' });
    const admit = waiting.getByRole('button', { name: /^Admit Phone \d{3,5}$/ });
    await expect(admit).toBeVisible({ timeout: 15_000 });
    await expectNoAxeViolations(host, 'a phone in the waiting room');
    const label = (await admit.innerText()).replace(/^Admit /, '');
    expect(phone.events.slice(since).some((e) => e.type === 'CALL_ESTABLISHED')).toBe(false);
    await expect(tile(host, /^Phone /)).toHaveCount(0);
    await tabUntilFocused(host, admit);
    await host.keyboard.press('Enter');
    await phone.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 15_000, since);
    await expect(tile(host, label)).toBeVisible({ timeout: 20_000 });
    await expect(waiting).toHaveCount(0);

    await host.keyboard.press('Control+Alt+P');
    const panel = host.getByRole('complementary', { name: 'Participants (2)' });
    await expect(panel.getByRole('button', { name: `Remove ${label}` })).toBeVisible();
    await expectNoAxeViolations(host, 'participants with a phone');
    await tabUntilFocused(host, panel.getByRole('button', { name: `Mute ${label}` }));
    await host.keyboard.press('Enter');
    await expect(panel.getByRole('listitem').filter({ hasText: label })).toContainText('muted');
    await tabUntilFocused(host, panel.getByRole('button', { name: `Unmute ${label}` }));
    await host.keyboard.press('Enter');
    await expect(panel.getByRole('button', { name: `Mute ${label}` })).toBeVisible();
    await tabUntilFocused(host, panel.getByRole('button', { name: `Remove ${label}` }));
    await host.keyboard.press('Enter');
    await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
    await expect(tile(host, label)).toHaveCount(0, { timeout: 15_000 });
  } finally {
    await phone.stop().catch(() => phone.kill());
  }
});

test('a phone tile shows when the phone speaks, as a browser tile does ("Phone <number>, speaking"), and not once the phone mutes itself; "Who is speaking?" names the phone', async ({ page, baseURL }) => {
  test.slow();
  const { host, digits } = await hostWithDigits(page, `Dial-in speaking ${Date.now().toString(36)}`);
  // The host's own fake microphone beeps: muted, only the phone speaks.
  await host.keyboard.press('Control+d');
  await expect(controls(host).getByRole('button', { name: 'Mute' })).toHaveAttribute('aria-pressed', 'true');
  const phone = await deskPhone(baseURL!, CALLER);
  try {
    const since = phone.events.length;
    await phone.command('dial', `sip:${digits}@${sipDomain()}`);
    await phone.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 15_000, since);
    // baresip plays a tone into the call: its tile says it speaks (and is the large one).
    const speaking = tile(host, /^Phone \d{3,5}, speaking/);
    await expect(speaking).toBeVisible({ timeout: 20_000 });
    await expect(speaking).toHaveAttribute('data-large', 'true');
    const label = (await speaking.getAttribute('aria-label'))!.replace(/, speaking.*$/, '');
    // "Who is speaking?" names it as its tile does; asked again until the host's own beep has stopped counting.
    await expect(async () => {
      await openPalette(host);
      await host.keyboard.type('who is speaking');
      await expect(host.getByRole('option', { name: /Who is speaking/ }).first()).toBeVisible();
      await host.keyboard.press('Enter');
      await expect(host.getByText(`${label} is speaking.`)).toBeAttached({ timeout: 2000 });
    }).toPass({ timeout: 20_000 });
    await host.keyboard.press('Control+Alt+p');
    const panel = host.getByRole('complementary', { name: 'Participants (2)' });
    await expect(panel.getByRole('listitem').filter({ hasText: label })).toContainText('speaking');
    await expectNoAxeViolations(host, 'a phone speaking');
    // Muted on the phone (it sends silence): the tile says so within a moment, the list too.
    await phone.command('mute');
    await expect(tile(host, label)).not.toHaveAccessibleName(/speaking/, { timeout: 5000 });
    await expect(panel.getByRole('listitem').filter({ hasText: label })).not.toContainText('speaking');
    await phone.command('mute');
    await expect(tile(host, label)).toHaveAccessibleName(/, speaking/, { timeout: 5000 });
    await phone.command('hangup');
    await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
    await expect(tile(host, label)).toHaveCount(0, { timeout: 15_000 });
  } finally {
    await phone.stop().catch(() => phone.kill());
  }
});

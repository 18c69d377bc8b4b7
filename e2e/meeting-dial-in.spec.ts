import { readServicesConfig } from '../server/services/layout';
import { expect, test } from './csp-guard';
import { goByChord, loginByKeyboard } from './fixtures';
import { E2E_PORT_BASE } from './global-setup';
import { joinNow, startMeeting, tile } from './meeting-helpers';
import { deskPhone } from './telephony-helpers';

const HOST = 'nikolai.petrov';
/** Whose desk phone dials in: any phone of the system may. */
const CALLER = 'zainab.bello';

test('a phone dials into a meeting with the digits its details show: the host sees it as a phone tile playing its audio, gone when it hangs up', async ({ page, baseURL }) => {
  test.slow();
  const name = `Dial-in ${Date.now().toString(36)}`;
  await loginByKeyboard(page, HOST);
  await goByChord(page, 'e');
  await expect(page.getByRole('heading', { level: 1, name: 'Meetings' })).toBeVisible();
  const host = await startMeeting(page, name);
  const detail = page.locator('.detail-pane');
  await expect(detail.getByRole('heading', { level: 2, name })).toBeVisible();
  const digits = (await detail.locator('dt', { hasText: 'Dial in' }).locator('xpath=following-sibling::dd[1]').innerText()).trim();
  expect(digits).toMatch(/^\*64\*\d{6,12}\*\d{6}$/);
  await joinNow(host);

  const phone = await deskPhone(baseURL!, CALLER);
  try {
    const since = phone.events.length;
    await phone.command('dial', `sip:${digits}@${readServicesConfig({ UC_PORT_BASE: String(E2E_PORT_BASE) }).domain}`);
    await phone.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 15_000, since);
    const phoneTile = tile(host, /^Phone \d{3,5}/);
    await expect(phoneTile).toBeVisible({ timeout: 20_000 });
    // No camera: the tile shows its avatar, and its audio plays from the tile.
    await expect.poll(() => phoneTile.locator('video').evaluate((v: HTMLVideoElement) => (v.srcObject as MediaStream | null)?.getAudioTracks().length ?? 0), { timeout: 10_000 }).toBe(1);
    await phone.command('hangup');
    await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
    await expect(phoneTile).toHaveCount(0, { timeout: 15_000 });
  } finally {
    await phone.stop().catch(() => phone.kill());
  }
});

import { expect, test, type APIRequestContext, type Page } from './csp-guard';
import { DEMO_PASSWORD, expectNoAxeViolations, goByChord, loginByKeyboard, openPalette } from './fixtures';
import { dock, expectSoundArriving, inboundAudioBytes, readyPhones } from './telephony-helpers';

// Real Kamailio and rtpengine (started by the global setup) record the call; the API server turns
// rtpengine's pcap into the WAV the recordings screen plays. People of their own (no seeded
// recordings, no other spec's phones): Wei Zhang calls Kwame Mensah.
const grid = (page: Page) => page.getByRole('grid', { name: 'Call recordings' });
const detail = (page: Page) => page.locator('.detail-pane');
const player = (page: Page) => detail(page).getByRole('group', { name: 'Audio player' });
const state = (page: Page) => player(page).locator('.rec-state');

async function bearerFor(request: APIRequestContext, username: string): Promise<Record<string, string>> {
  const login = await request.post('/login', { data: { username, password: DEMO_PASSWORD } });
  expect(login.status()).toBe(200);
  return { authorization: `Bearer ${(await login.json()).access_token as string}` };
}

async function goToRecordings(page: Page): Promise<void> {
  await goByChord(page, 'r');
  await expect(page.getByRole('heading', { level: 1, name: 'Call recordings' })).toBeVisible();
}

test.describe('live call recording', () => {
  test.setTimeout(120_000);

  test('the caller records from the call dock; after hang-up the recording is listed and plays', async ({ browser, baseURL, request }) => {
    const phones = await readyPhones(browser, baseURL!, ['wei.zhang', 'kwame.mensah']);
    const [wei, kwame] = phones.pages as [Page, Page];
    try {
      await openPalette(wei);
      await wei.keyboard.type('call');
      await expect(wei.getByRole('option', { name: /^Call\b/ }).first()).toHaveAttribute('aria-selected', 'true');
      await wei.keyboard.press('Enter');
      await wei.keyboard.type('Kwame Mensah');
      await expect(wei.getByRole('option', { name: /^Kwame Mensah/ })).toHaveAttribute('aria-selected', 'true');
      await wei.keyboard.press('Enter');
      await expect(dock(kwame)).toContainText('Wei Zhang');
      await kwame.keyboard.press('Control+Shift+A');
      await expect(dock(wei)).toContainText(/00:00:\d\d/);
      await expectSoundArriving(wei, 'wei');

      // Start recording from the dock: the button becomes Pause, the dock says Recording.
      await dock(wei).getByRole('button', { name: 'Start recording' }).click();
      await expect(dock(wei).getByRole('button', { name: 'Pause recording' })).toBeVisible();
      await expect(dock(wei)).toContainText('Recording');

      // They talk for a few seconds (Chromium's fake microphones beep twice a second).
      const heard = await inboundAudioBytes(wei);
      await expect.poll(() => inboundAudioBytes(wei), { timeout: 20_000, message: 'a few seconds of audio' }).toBeGreaterThan(heard + 12_000);
      await wei.keyboard.press('Control+Shift+E');
      await expect(dock(wei)).toContainText('Call ended');

      // The server converts rtpengine's recording once the call has ended: wait until it lists it.
      const auth = await bearerFor(request, 'wei.zhang');
      await expect
        .poll(async () => ((await (await request.get('/v1/call-recordings', { headers: auth })).json()) as { total: number }).total, { timeout: 30_000, message: 'the recording is converted and listed' })
        .toBe(1);

      await goToRecordings(wei);
      const row = grid(wei).getByRole('row', { name: /^Kwame Mensah, Outgoing, / });
      await expect(row).toBeVisible();
      await expect(wei.getByText('1 recording', { exact: true })).toBeVisible();
      await row.click();
      await expect(detail(wei).getByRole('heading', { level: 2, name: 'Kwame Mensah' })).toBeVisible();
      await expectNoAxeViolations(wei, 'a live recording in the recordings screen');

      await player(wei).getByRole('button', { name: 'Play' }).click();
      await expect(state(wei)).toHaveAttribute('data-state', 'playing');
      await expect(player(wei).getByRole('button', { name: 'Pause' })).toBeVisible();
      const position = player(wei).getByRole('slider', { name: 'Position' });
      await expect.poll(async () => Number(await position.inputValue()), { message: 'playback time advances' }).toBeGreaterThanOrEqual(2);

      // The other party has it too, as an incoming call.
      const kwameAuth = await bearerFor(request, 'kwame.mensah');
      const theirs = (await (await request.get('/v1/call-recordings', { headers: kwameAuth })).json()) as { items: Array<{ direction: string; cnam: string | null }> };
      expect(theirs.items.map((r) => [r.direction, r.cnam])).toEqual([['IN', 'Wei Zhang']]);
    } finally {
      await phones.close();
    }
  });

  test('while the organisation is in failover a recording is unavailable and cannot play; afterwards it plays again', async ({ page, request }) => {
    // An administrator of Acme (Ingrid Halvorsen) declares the failover and ends it, through the API.
    const admin = await bearerFor(request, 'ingrid.halvorsen');
    const setFailover = async (on: boolean) => {
      const res = await request.put('/v1/organizations/failover', { headers: admin, data: { fail_over: on } });
      expect(res.status()).toBe(200);
    };
    await loginByKeyboard(page, 'carol');
    await goToRecordings(page);
    await grid(page).focus();
    await page.keyboard.press('Enter');
    await expect(detail(page).getByRole('heading', { level: 2 })).toBeFocused();
    const position = player(page).getByRole('slider', { name: 'Position' });

    await setFailover(true);
    try {
      await player(page).getByRole('button', { name: 'Play' }).click();
      await expect(state(page)).toHaveAttribute('data-state', 'failed');
      await expect(state(page)).toHaveText('This recording is unavailable.');
      await expect(page.locator('[aria-live]').filter({ hasText: 'This recording is unavailable' })).toBeAttached();
      await expect(position).toBeDisabled();
      // Not a fake: the audio itself is refused while the failover lasts.
      const carol = await bearerFor(request, 'carol');
      const list = (await (await request.get('/v1/call-recordings?limit=1', { headers: carol })).json()) as { items: Array<{ media_url: string }> };
      expect((await request.get(list.items[0]!.media_url, { headers: carol })).status()).toBe(503);
      await expectNoAxeViolations(page, 'a recording unavailable in failover');
    } finally {
      await setFailover(false);
    }

    await player(page).getByRole('button', { name: 'Play' }).click();
    await expect(state(page)).toHaveAttribute('data-state', 'playing');
    await expect.poll(async () => Number(await position.inputValue())).toBeGreaterThanOrEqual(1);
  });
});

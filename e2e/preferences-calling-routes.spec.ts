import { expect, test, type Locator, type Page } from './csp-guard';
import { expectNoAxeViolations, loginByKeyboard, openPalette, tabUntilFocused } from './fixtures';

// A user no other spec signs in as: this spec saves their inbound rules and find-me list.
const USER = 'thabo.nkosi';
// Limited access (role 4): may not view the calling rules. Only read here.
const LIMITED = 'dave';

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name });
const save = (page: Page) => page.getByRole('button', { name: 'Save', exact: true });
const rule = (page: Page, name: string) => page.getByRole('group', { name, exact: true });
const callingTab = (page: Page, name: string) => page.getByRole('tablist', { name: 'Calling settings' }).getByRole('tab', { name });
const location = (page: Page, n: number) => page.getByRole('group', { name: new RegExp(`^Location ${n}:`) });

/** The focused select opens with Enter; arrows (disabled options are skipped) to `name`, Enter picks it. */
async function pickOption(page: Page, name: string): Promise<void> {
  await page.keyboard.press('Enter');
  const option = page.getByRole('option', { name, exact: true });
  await expect(option).toBeVisible();
  await page.keyboard.press('Home');
  for (let i = 0; i < 30 && !(await option.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await expect(option).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(option).toBeHidden();
}

async function typeInto(page: Page, field: Locator, text: string): Promise<void> {
  await tabUntilFocused(page, field, 60);
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Backspace');
  if (text) await page.keyboard.type(text);
}

async function saveByKeyboard(page: Page): Promise<void> {
  await tabUntilFocused(page, save(page), 80);
  await page.keyboard.press('Enter');
}

async function openCalling(page: Page, tab: 'inbound-dialing' | 'find-me'): Promise<void> {
  await page.goto(`/preferences?panel=calling&tab=${tab}`);
  await expect(heading(page, 'Calling')).toBeVisible();
}

/** The hour segment of a time field, typed over: the field moves on to the minutes by itself. */
async function typeHour(page: Page, field: string, hour: string): Promise<void> {
  await tabUntilFocused(page, page.getByRole('group', { name: field, exact: true }).getByRole('spinbutton', { name: /hour/i }), 80);
  await page.keyboard.type(hour);
}

test.describe('preferences ▸ calling ▸ inbound routes and find-me', () => {
  test.describe.configure({ mode: 'serial' });
  test.setTimeout(120_000);

  test('keyboard only: the busy rule to a colleague by type-ahead, kept across a reload; unavailable types disabled with why; errors at their field', async ({ page }) => {
    await loginByKeyboard(page, USER);
    await openCalling(page, 'inbound-dialing');
    const busy = rule(page, "When you're busy");
    await expect(busy).toBeVisible();
    // Not set: the specification's hint to ask the administrator.
    await expect(busy.getByText(/ask your administrator to configure one/)).toBeVisible();

    await tabUntilFocused(page, busy.getByRole('button', { name: /Destination/ }), 60);
    await page.keyboard.press('Enter');
    const attendant = page.getByRole('option', { name: 'Auto attendant', exact: true });
    await expect(attendant).toHaveAttribute('aria-disabled', 'true');
    await expect(attendant).toHaveAccessibleDescription('No auto attendant runs on this system');
    await expect(page.getByRole('option', { name: 'Call queue', exact: true })).toHaveAttribute('aria-disabled', 'true');
    await expect(page.getByRole('option', { name: 'Colleague', exact: true })).not.toHaveAttribute('aria-disabled', 'true');
    await page.keyboard.press('Escape');
    await pickOption(page, 'Colleague');

    // Only the colleague list is shown for this type: no number, no ring time.
    await expect(busy.getByRole('textbox', { name: 'Number' })).toHaveCount(0);
    const colleague = busy.getByRole('combobox', { name: 'Colleague' });
    await tabUntilFocused(page, colleague);
    await page.keyboard.type('Caro');
    const carol = page.getByRole('option', { name: 'Carol Okafor' });
    await expect(carol).toBeVisible();
    await expect(page.getByRole('option', { name: /Bob/ })).toHaveCount(0);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(busy.getByText("When you're busy: ring Carol Okafor (1003)")).toBeVisible();

    // No answer: a phone number that is not one, and no ring time; the error sits at its field, the text stays.
    const noAnswer = rule(page, "When you don't answer");
    await tabUntilFocused(page, noAnswer.getByRole('button', { name: /Destination/ }), 60);
    await pickOption(page, 'Phone number');
    await expect(noAnswer.getByRole('button', { name: /Ring time/ })).toBeVisible();
    await typeInto(page, noAnswer.getByRole('textbox', { name: 'Number' }), 'call me');
    await saveByKeyboard(page);
    await expect(noAnswer.getByRole('textbox', { name: 'Number' })).toHaveAccessibleDescription('Enter the phone number');
    await expect(noAnswer.getByRole('textbox', { name: 'Number' })).toHaveValue('call me');
    await typeInto(page, noAnswer.getByRole('textbox', { name: 'Number' }), '+14155550142');
    await saveByKeyboard(page);
    await expect(noAnswer.getByText('Choose a ring time of 5, 10, 15, 20, 25 or 30 seconds')).toBeVisible();
    await tabUntilFocused(page, noAnswer.getByRole('button', { name: /Ring time/ }));
    await pickOption(page, '15 seconds');
    await expect(noAnswer.getByText("When you don't answer: ring +14155550142 for 15 seconds")).toBeVisible();

    await saveByKeyboard(page);
    await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();

    await page.reload();
    await expect(rule(page, "When you're busy").getByText("When you're busy: ring Carol Okafor (1003)")).toBeVisible();
    await expect(rule(page, "When you're busy").getByRole('combobox', { name: 'Colleague' })).toHaveValue('Carol Okafor');
    await expect(rule(page, "When you don't answer").getByText("When you don't answer: ring +14155550142 for 15 seconds")).toBeVisible();
  });

  test('keyboard only: a find-me list of two locations reordered, an invalid window refused with the typed times kept, then fixed and saved', async ({ page }) => {
    await loginByKeyboard(page, USER);
    await openCalling(page, 'inbound-dialing');
    // The tab by keyboard: the tab list's arrows, the address follows.
    await tabUntilFocused(page, callingTab(page, 'Inbound dialing'));
    await page.keyboard.press('ArrowRight');
    await expect(page).toHaveURL(/tab=find-me/);
    await expect(callingTab(page, 'Find me')).toHaveAttribute('aria-selected', 'true');

    const add = page.getByRole('button', { name: 'Add a location' });
    await tabUntilFocused(page, add, 40);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await expect(location(page, 2)).toBeVisible();
    await typeInto(page, location(page, 1).getByRole('textbox', { name: 'Label' }), 'Cell');
    await typeInto(page, location(page, 1).getByRole('textbox', { name: 'Number' }), '+14155550199');
    await tabUntilFocused(page, location(page, 2).getByRole('button', { name: /Where/ }));
    await pickOption(page, 'Desk phone');
    // A desk phone rings the user's own extension: no number to give.
    await expect(location(page, 2).getByRole('textbox', { name: 'Number' })).toHaveCount(0);
    await typeInto(page, location(page, 2).getByRole('textbox', { name: 'Label' }), 'Desk');

    // The desk phone first: moved up by keyboard, the focus stays with it.
    await tabUntilFocused(page, location(page, 2).getByRole('button', { name: 'Move up' }));
    await page.keyboard.press('Enter');
    await expect(location(page, 1)).toHaveAccessibleName('Location 1: Desk');
    await expect(location(page, 2)).toHaveAccessibleName('Location 2: Cell');
    await expect(location(page, 1).getByRole('button', { name: 'Move down' })).toBeFocused();
    await expect(page.getByRole('status').filter({ hasText: 'Desk moved to position 1' })).toBeAttached();

    // All at once.
    await tabUntilFocused(page, page.getByRole('radiogroup', { name: 'Ring strategy' }).getByRole('radio', { checked: true }), 60);
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('radio', { name: 'All at once' })).toBeChecked();
    await expect(page.getByText('Active locations: 2, rung all at once.')).toBeVisible();

    // A window from 18:00:00 to 17:00:00: ERROR_FIND_ME's text at the start, the typed times kept.
    await tabUntilFocused(page, page.getByRole('switch', { name: 'Only between certain times' }), 60);
    await page.keyboard.press('Space');
    await typeHour(page, 'Start', '18');
    await saveByKeyboard(page);
    const error = page.getByText('The find-me start time must be before the end time');
    await expect(error).toBeVisible();
    const startHour = page.getByRole('group', { name: 'Start', exact: true }).getByRole('spinbutton', { name: /hour/i });
    await expect(startHour).toHaveAttribute('aria-valuenow', '18');
    await expect(page.getByRole('group', { name: 'End', exact: true }).getByRole('spinbutton', { name: /hour/i })).toHaveAttribute('aria-valuenow', '17');
    await expect(location(page, 1)).toHaveAccessibleName('Location 1: Desk');
    await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toHaveCount(0);

    await typeHour(page, 'Start', '08');
    await expect(error).toBeHidden();
    await saveByKeyboard(page);
    await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();

    await page.reload();
    await expect(location(page, 1)).toHaveAccessibleName('Location 1: Desk');
    await expect(location(page, 2)).toHaveAccessibleName('Location 2: Cell');
    await expect(location(page, 2).getByRole('textbox', { name: 'Number' })).toHaveValue('+14155550199');
    await expect(page.getByRole('radio', { name: 'All at once' })).toBeChecked();
    await expect(page.getByRole('group', { name: 'Start', exact: true }).getByRole('spinbutton', { name: /hour/i })).toHaveAttribute('aria-valuenow', '8');
  });

  test('the palette: Calling ▸ Find-me opens the tab, Find-me ▸ Ring strategy saves at once', async ({ page }) => {
    await loginByKeyboard(page, USER);
    await openPalette(page);
    await page.keyboard.type('Calling Find-me');
    await expect(page.getByRole('option').first()).toHaveAccessibleName(/^Calling ▸ Find-me/);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/panel=calling&tab=find-me|tab=find-me&panel=calling/);
    // The previous test saved "all at once".
    await expect(page.getByRole('radio', { name: 'All at once' })).toBeChecked();

    await openPalette(page);
    await page.keyboard.type('Find-me Ring strategy');
    await expect(page.getByRole('option').first()).toHaveAccessibleName(/^Find-me ▸ Ring strategy/);
    await page.keyboard.press('Enter');
    await page.keyboard.type('one after');
    await expect(page.getByRole('option').first()).toHaveAccessibleName(/^Ring one after another/);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('region', { name: 'Notifications' }).getByText('Saved')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('radio', { name: 'One after another' })).toBeChecked();
    // Only the strategy changed: the list is as it was.
    await expect(location(page, 1)).toHaveAccessibleName('Location 1: Desk');
  });

  test("keyboard only: find-me's recorded name is chosen, turned into a WAV in the browser, saved, and switched on", async ({ page }) => {
    await loginByKeyboard(page, USER);
    await openCalling(page, 'find-me');
    const recordName = page.getByRole('switch', { name: 'Play my recorded name to callers first' });
    await tabUntilFocused(page, recordName, 80);
    await page.keyboard.press('Space');
    await expect(recordName).toBeChecked();
    const choose = page.getByRole('button', { name: 'Choose a recording of your name…' });
    await tabUntilFocused(page, choose, 10);
    // One second of a 440 Hz tone at 16 kHz: the browser decodes it and sends 8 kHz mono to the server.
    const rate = 16_000;
    const samples = Buffer.alloc(rate * 2);
    for (let i = 0; i < rate; i++) samples.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
    const header = Buffer.alloc(44);
    header.write('RIFF', 0);
    header.writeUInt32LE(36 + samples.length, 4);
    header.write('WAVEfmt ', 8);
    header.writeUInt32LE(16, 16);
    header.writeUInt16LE(1, 20);
    header.writeUInt16LE(1, 22);
    header.writeUInt32LE(rate, 24);
    header.writeUInt32LE(rate * 2, 28);
    header.writeUInt16LE(2, 32);
    header.writeUInt16LE(16, 34);
    header.write('data', 36);
    header.writeUInt32LE(samples.length, 40);
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Enter')]);
    await chooser.setFiles({ name: 'my-name.wav', mimeType: 'audio/wav', buffer: Buffer.concat([header, samples]) });
    await expect(page.getByRole('status').filter({ hasText: 'Your recorded name is saved.' })).toBeVisible();
    await expectNoAxeViolations(page, 'calling ▸ find-me with the recorded name');
    await saveByKeyboard(page);
    await expect(page.getByRole('status').filter({ hasText: /^Saved/ })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Play my recorded name to callers first' })).toBeChecked();
    // What the server keeps is the 8 kHz WAV the browser made.
    const saved = await page.evaluate(async () => {
      const token = await (await fetch('/v1/access-token', { credentials: 'same-origin' })).json();
      const res = await fetch('/v1/broad/find-me/name', { headers: { Authorization: `Bearer ${token.access_token}` } });
      const b = new DataView(await res.arrayBuffer());
      return { status: res.status, rate: b.getUint32(24, true), channels: b.getUint16(22, true) };
    });
    expect(saved).toEqual({ status: 200, rate: 8000, channels: 1 });
  });

  test('axe on both tabs in light and dark; a limited-access user sees the no-permission notice instead of the rules', async ({ page, browser, baseURL }) => {
    await loginByKeyboard(page, USER);
    for (const tab of ['inbound-dialing', 'find-me'] as const) {
      await openCalling(page, tab);
      await expect(tab === 'find-me' ? page.getByRole('radiogroup', { name: 'Ring strategy' }) : rule(page, "When you're busy")).toBeVisible();
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
        await expectNoAxeViolations(page, `calling ▸ ${tab}, ${scheme}`);
      }
    }

    const ctx = await browser.newContext({ baseURL, locale: 'en-US', timezoneId: 'UTC' });
    const limited = await ctx.newPage();
    try {
      await loginByKeyboard(limited, LIMITED);
      await openCalling(limited, 'inbound-dialing');
      await expect(limited.getByRole('alert').filter({ hasText: 'You are not authorized to make updates' })).toContainText('Contact your Administrator for access');
      await expect(rule(limited, "When you're busy")).toHaveCount(0);
    } finally {
      await ctx.close();
    }
  });
});

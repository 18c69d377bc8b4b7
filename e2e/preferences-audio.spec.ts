import { expect, test, type Page } from './csp-guard';
import { expectNoAxeViolations, loginByKeyboard, tabUntilFocused } from './fixtures';
import { expectPhoneReady, phoneContext } from './telephony-helpers';

// A user no other spec signs in as: this spec saves their devices, do-not-disturb and recording.
const USER = 'hiroshi.watanabe';

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name });
const save = (page: Page) => page.getByRole('button', { name: 'Save', exact: true });
const meter = (page: Page) => page.getByRole('meter', { name: 'Microphone level' });

declare global {
  interface Window {
    __microphones: MediaStream[];
    __meterReadings: string[];
  }
}

/** Init script: keeps every stream getUserMedia gives the page, to see whether their tracks were stopped. */
function recordMicrophones(): void {
  const media = navigator.mediaDevices;
  const open = media.getUserMedia.bind(media);
  window.__microphones = [];
  media.getUserMedia = async (c) => {
    const s = await open(c);
    window.__microphones.push(s);
    return s;
  };
}

/**
 * Init script: every reading the level meter shows, as it shows it. Sampling the attribute from the
 * test would mostly land between the fake microphone's short beeps (about a fifth of the time is
 * sound) and read silence; the page sees every update.
 */
function recordMeterReadings(): void {
  window.__meterReadings = [];
  document.addEventListener('DOMContentLoaded', () =>
    new MutationObserver((changes) => {
      for (const c of changes) {
        const el = c.target as Element;
        if (el.getAttribute('role') === 'meter') window.__meterReadings.push(el.getAttribute('aria-valuenow') ?? '');
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['aria-valuenow'] }),
  );
}

/** Chromium's fake microphone beeps, so a live meter shows several different readings. */
async function expectMeterMoving(page: Page): Promise<void> {
  await expect(meter(page)).toBeVisible();
  await expect.poll(() => page.evaluate(() => new Set(window.__meterReadings).size), { timeout: 10_000 }).toBeGreaterThan(2);
}

const liveMicrophones = (page: Page) => page.evaluate(() => window.__microphones.flatMap((s) => s.getAudioTracks()).filter((t) => t.readyState === 'live').length);

async function saveByKeyboard(page: Page): Promise<void> {
  await tabUntilFocused(page, save(page));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
}

async function axeLightAndDark(page: Page, panel: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    await expectNoAxeViolations(page, `${panel} panel, ${scheme}`);
  }
}

test.describe('preferences ▸ audio and calling', () => {
  // Real calls and axe in two themes on a shared, loaded machine.
  test.setTimeout(120_000);
  // Both save settings of the same user: one after the other.
  test.describe.configure({ mode: 'serial' });

  test('keyboard only: devices, the level meter moving, processing, the test tone; axe light and dark', async ({ browser, baseURL }) => {
    const ctx = await phoneContext(browser, baseURL!);
    await ctx.addInitScript(recordMicrophones);
    await ctx.addInitScript(recordMeterReadings);
    const page = await ctx.newPage();
    try {
      await loginByKeyboard(page, USER);
      await page.goto('/calls');
      await expectPhoneReady(page);

      // Audio: the meter moves with the microphone.
      await page.goto('/preferences?panel=audio');
      await expect(heading(page, 'Audio')).toBeVisible();
      await expectMeterMoving(page);

      // The microphone: the first real device instead of the system default, saved, kept after a reload.
      const microphone = page.getByRole('button', { name: /Microphone$/ });
      await expect(microphone).toHaveAccessibleName(/^System default/);
      await tabUntilFocused(page, microphone);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('listbox')).toBeVisible();
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect(microphone).not.toHaveAccessibleName(/^System default/);
      const chosen = (await microphone.textContent())!.replace('▾', '').trim();
      // Processing off: the meter reopens the microphone with it off and keeps moving.
      await tabUntilFocused(page, page.getByRole('switch', { name: 'Noise suppression' }));
      await page.keyboard.press('Space');
      await expect(page.getByRole('switch', { name: 'Noise suppression' })).not.toBeChecked();
      await saveByKeyboard(page);
      await page.reload();
      await expect(page.getByRole('button', { name: /Microphone$/ })).toHaveAccessibleName(new RegExp(`^${chosen.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      await expect(page.getByRole('switch', { name: 'Noise suppression' })).not.toBeChecked();
      await expectMeterMoving(page);

      // The speaker and the ringer are offered where the browser routes audio (Chromium does).
      await expect(page.getByRole('button', { name: /Speaker for calls$/ })).toBeVisible();
      await expect(page.getByRole('button', { name: /Ringer \(where incoming calls ring\)$/ })).toBeVisible();

      // The test tone: the button rests while the tone plays, then is back.
      const tone = page.getByRole('button', { name: 'Play a test tone' });
      await tabUntilFocused(page, tone);
      await page.keyboard.press('Enter');
      await expect(tone).toBeDisabled();
      await expect(tone).toBeEnabled();
      await axeLightAndDark(page, 'audio');

      // Leaving the panel (for Calling, by the panel list) stops the meter's microphone.
      await expect.poll(() => liveMicrophones(page)).toBeGreaterThan(0);
      const list = page.getByRole('tablist', { name: 'Preferences panels' });
      const listStop = list.locator('[role="tab"][tabindex="0"]');
      for (let i = 0; i < 30 && !(await listStop.evaluate((el) => el === document.activeElement).catch(() => false)); i++) await page.keyboard.press('Shift+Tab');
      await expect(listStop).toBeFocused();
      const calling = list.getByRole('tab', { name: 'Calling' });
      for (let i = 0; i < 10 && !(await calling.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect(heading(page, 'Calling')).toBeFocused();
      await expect.poll(() => liveMicrophones(page)).toBe(0);
    } finally {
      await ctx.close();
    }
  });

  test('keyboard only: do-not-disturb saved and seen on the Calls screen, whose link leads back; Test connection with progress and figures; axe light and dark', async ({ browser, baseURL }) => {
    const ctx = await phoneContext(browser, baseURL!);
    const page = await ctx.newPage();
    try {
      await loginByKeyboard(page, USER);
      await page.goto('/calls');
      await expectPhoneReady(page);

      // Calling: do-not-disturb on, saved, shown on the Calls screen, whose link leads back here.
      await page.goto('/preferences?panel=calling');
      await expect(heading(page, 'Calling')).toBeVisible();
      const dnd = page.getByRole('switch', { name: 'Do not disturb' });
      await tabUntilFocused(page, dnd);
      await expect(dnd).not.toBeChecked();
      await page.keyboard.press('Space');
      await expect(dnd).toBeChecked();
      await saveByKeyboard(page);
      await page.goto('/calls');
      const settings = page.getByRole('region', { name: 'Call settings' });
      await expect(settings).toContainText('Do not disturb is on');
      await expect(settings.getByRole('switch', { name: 'Do not disturb' })).toBeChecked();
      const link = settings.getByRole('link', { name: 'Change these in Preferences ▸ Calling' });
      await tabUntilFocused(page, link);
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/panel=calling/);
      await expect(heading(page, 'Calling')).toBeVisible();
      await tabUntilFocused(page, page.getByRole('switch', { name: 'Do not disturb' }));
      await page.keyboard.press('Space');
      await saveByKeyboard(page);

      // The panel's tabs: switching with an unsaved change asks first (Cancel stays, Discard goes without it).
      const tabs = page.getByRole('tablist', { name: 'Calling settings' });
      const inbound = tabs.getByRole('tab', { name: 'Inbound dialing' });
      await expect(inbound).toHaveAttribute('aria-selected', 'true');
      await tabUntilFocused(page, dnd);
      await page.keyboard.press('Space');
      await expect(dnd).toBeChecked();
      await page.keyboard.press('Shift+Tab');
      await expect(inbound).toBeFocused();
      await page.keyboard.press('ArrowRight');
      const modal = page.getByRole('alertdialog', { name: 'Unsaved changes' });
      await expect(modal).toBeVisible();
      await tabUntilFocused(page, modal.getByRole('button', { name: 'Cancel' }));
      await page.keyboard.press('Enter');
      await expect(modal).toBeHidden();
      await expect(inbound).toHaveAttribute('aria-selected', 'true');
      await expect(dnd).toBeChecked();
      // The list's tab stop is the tab the arrow moved to (Find me); Enter asks for it again.
      await tabUntilFocused(page, tabs.getByRole('tab', { name: 'Find me' }));
      await page.keyboard.press('Enter');
      await tabUntilFocused(page, modal.getByRole('button', { name: 'Discard' }));
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/tab=find-me/);
      // Nothing unsaved now: the next tab opens without asking.
      await tabUntilFocused(page, tabs.getByRole('tab', { name: 'Find me' }));
      await page.keyboard.press('ArrowRight');
      await expect(page).toHaveURL(/tab=click-dial/);
      await expect(page.getByRole('tabpanel', { name: 'Click to dial' }).getByRole('button', { name: 'Open phone links here' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
      await axeLightAndDark(page, 'calling, click to dial');
      await tabUntilFocused(page, tabs.getByRole('tab', { name: 'Click to dial' }));
      await page.keyboard.press('Home');
      await expect(page).toHaveURL(/tab=inbound-dialing/);
      await expect(dnd).not.toBeChecked();

      // Test connection: a real call to the echo number, progress while it runs, then the verdict and figures.
      const run = page.getByRole('button', { name: 'Test connection' });
      await tabUntilFocused(page, run);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('progressbar')).toBeVisible();
      const result = page.getByRole('status').filter({ hasText: 'Connection quality' });
      // The verdict depends on the machine's load (the echo's delay); that one is shown is what matters here.
      await expect(result).toContainText(/Connection quality: (good|fair|poor)/, { timeout: 25_000 });
      await expect(result).toContainText(/Round trip \((echo|network)\)\s*[\d.,]+ ms/);
      await expect(result).toContainText(/Jitter\s*[\d.,]+ ms/);
      await expect(result).toContainText(/Packet loss\s*[\d.,]+ %/);
      await expect(page.getByRole('progressbar')).toBeHidden();
      await axeLightAndDark(page, 'calling');
    } finally {
      await ctx.close();
    }
  });
});

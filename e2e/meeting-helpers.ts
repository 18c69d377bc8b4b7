import { expect, type Locator, type Page } from '@playwright/test';
import { openPalette, tabUntilFocused } from './fixtures';

/* The meeting page as assistive technology finds it, for the meeting journeys. */

export const tiles = (page: Page) => page.getByRole('list', { name: "Participants' video" });
export const tile = (page: Page, name: string | RegExp) =>
  tiles(page).getByRole('listitem', { name: typeof name === 'string' ? new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) : name });
export const controls = (page: Page) => page.getByRole('toolbar', { name: 'Meeting controls' });
/** Frames the tile's video element has shown: above zero once the feed's media really arrives through Janus. */
export const framesOf = (t: Locator) => t.locator('video').evaluate((v: HTMLVideoElement) => v.getVideoPlaybackQuality().totalVideoFrames);

/** Replaces what a field holds, by keyboard. */
export async function retype(page: Page, field: Locator, text: string): Promise<void> {
  await tabUntilFocused(page, field);
  await page.keyboard.press('Control+a');
  await page.keyboard.type(text);
}

/** From the lobby into the meeting, by keyboard. */
export async function joinNow(page: Page): Promise<void> {
  await tabUntilFocused(page, page.getByRole('button', { name: 'Join now' }));
  await page.keyboard.press('Enter');
  await expect(controls(page).getByRole('button', { name: 'Mute' })).toBeEnabled({ timeout: 20_000 });
}

/**
 * "New meeting" from the palette, named, optionally with a PIN or a waiting room, started with
 * Ctrl+Enter: resolves with the meeting's window, on its lobby.
 */
export async function startMeeting(page: Page, name: string, opts: { pin?: string; waitingRoom?: boolean } = {}): Promise<Page> {
  await openPalette(page);
  await page.keyboard.type('new meeting');
  await expect(page.getByRole('option', { name: /New meeting/ }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'New meeting' });
  await retype(page, dialog.getByRole('textbox', { name: 'Meeting name' }), name);
  if (opts.pin) await retype(page, dialog.getByLabel('PIN (four digits, optional)'), opts.pin);
  if (opts.waitingRoom) {
    const box = dialog.getByRole('checkbox', { name: 'Waiting room' });
    await tabUntilFocused(page, box);
    await page.keyboard.press('Space');
    await expect(box).toBeChecked();
  }
  const opened = page.waitForEvent('popup');
  await page.keyboard.press('Control+Enter');
  const win = await opened;
  await expect(win.getByRole('heading', { level: 2, name })).toBeVisible();
  return win;
}

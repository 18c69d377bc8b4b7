import { expect, type Page } from '@playwright/test';
import { openPalette } from './fixtures';

/** A conversation's message input and its message list, by their accessible names. */
export const input = (page: Page, name: string) => page.getByRole('textbox', { name: `Message to ${name}`, exact: true });
export const log = (page: Page, name: string) => page.getByRole('list', { name: `Messages with ${name}` });
/** How the message box is described while chat is disconnected (it stays editable: what is sent waits). */
export const OFFLINE = /^Chat is disconnected: what you send waits here/;

/** Once chat is connected, types a message into the conversation with `name` and sends it with Enter; the input empties. */
export async function send(page: Page, name: string, text: string): Promise<void> {
  const box = input(page, name);
  // Connected (the box is never disabled: while chat is down it says so, and what is sent waits).
  await expect(box).toHaveAccessibleDescription('', { timeout: 20_000 });
  await box.focus();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue('');
}

/** Ctrl+K, "Message", the colleague, Enter: the conversation opens with its input ready. */
export async function messageByPalette(page: Page, name: string): Promise<void> {
  await openPalette(page);
  await page.keyboard.type('Message');
  await expect(page.getByRole('option', { name: /^Message\b/ }).first()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await page.keyboard.type(name);
  await expect(page.getByRole('option', { name: new RegExp(`^${name}`) }).first()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
  // The user means to write: the caret is in the message box, not on the screen's heading.
  await expect(input(page, name)).toBeFocused();
}

import { expect, type Page } from '@playwright/test';

/** A conversation's message input and its message list, by their accessible names. */
export const input = (page: Page, name: string) => page.getByRole('textbox', { name: `Message to ${name}` });
export const log = (page: Page, name: string) => page.getByRole('list', { name: `Messages with ${name}` });

/** Types a message into the conversation with `name` and sends it with Enter; the input empties. */
export async function send(page: Page, name: string, text: string): Promise<void> {
  const box = input(page, name);
  await expect(box).toBeEnabled({ timeout: 20_000 });
  await box.focus();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue('');
}

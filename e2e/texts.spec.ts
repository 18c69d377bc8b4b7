import { expect, test, type Page } from './csp-guard';
import { ALICE_DID, carrier, inbound, type Carrier } from './carrier-helpers';
import { expectNoAxeViolations, loginByKeyboard, openPalette } from './fixtures';

// Texts (SMS/MMS) against the real API server, its loopback carrier and the real ejabberd (which
// pushes every text to the user's browsers). A provider is played by this test: it POSTs signed
// inbound texts to the webhook and reads what the carrier sent out through the carrier's own API.

const PEER = '+13105550177';
const PEER_NAME = '(310) 555-0177';

/** What the loopback carrier sent out to a number (its own API, authenticated by the secret). */
async function sentTo(c: Carrier, to: string): Promise<Array<{ from: string; to: string[]; text: string }>> {
  const res = await fetch(`${c.base}/carrier/loopback/v1/messages?to=${encodeURIComponent(to)}`, { headers: { authorization: `Bearer ${c.secret}` } });
  return ((await res.json()) as { messages: Array<{ from: string; to: string[]; text: string }> }).messages;
}

/** A 1×1 PNG. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });

test.describe('texts', () => {
  test.setTimeout(120_000);

  test('SMS by keyboard: an inbound text arrives live (list with unread, open conversation), the reply goes out through the carrier, an oversized MMS is refused and the draft kept, two recipients make a group text; axe on every texts screen', async ({ page, baseURL }) => {
    const c = await carrier(baseURL!);
    const run = Date.now().toString(36);
    await loginByKeyboard(page, 'alice');

    // g x: the texts (Alt+N first: a focused list would take the letters as type-ahead).
    await page.keyboard.press('Alt+n');
    await page.keyboard.press('g');
    await page.keyboard.press('x');
    await expect(page.getByRole('heading', { level: 1, name: 'Texts' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'New text' })).toBeEnabled();
    await expectNoAxeViolations(page, 'texts list');

    // A provider delivers an inbound SMS: it appears in the list, unread, and on the navigation badge.
    await inbound(c, `e2e-${run}-1`, PEER, `hello alice ${run}`);
    const row = page.getByRole('row', { name: new RegExp(PEER_NAME.replace(/[()]/g, '\\$&')) });
    await expect(row).toContainText(`hello alice ${run}`);
    await expect(row.getByLabel('Unread texts: 1')).toBeVisible();
    await expect(nav(page).getByRole('link', { name: /^Texts Unread texts: 1$/ })).toBeVisible();

    // Open it by keyboard: read, the badge goes.
    await row.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 2, name: PEER_NAME })).toBeVisible();
    const log = page.getByRole('list', { name: `Texts with ${PEER_NAME}` });
    await expect(log).toContainText(`hello alice ${run}`);
    await expect(nav(page).getByRole('link', { name: /^Texts$/ })).toBeVisible();

    // A second inbound text appears live in the open conversation, and stays read.
    // Measured: webhook POST sent → the text in the open conversation's DOM (same machine clock).
    await log.evaluate((el, needle) => {
      (window as unknown as { textSeen: Promise<number> }).textSeen = new Promise((resolve) => {
        const o = new MutationObserver(() => {
          if (el.textContent?.includes(needle)) {
            o.disconnect();
            resolve(performance.timeOrigin + performance.now());
          }
        });
        o.observe(el, { subtree: true, childList: true, characterData: true });
      });
    }, `are you there ${run}`);
    const posted = Date.now();
    await inbound(c, `e2e-${run}-2`, PEER, `are you there ${run}`);
    await expect(log).toContainText(`are you there ${run}`);
    const ms = (await page.evaluate(() => (window as unknown as { textSeen: Promise<number> }).textSeen)) - posted;
    console.log(`inbound_text_webhook_to_render_ms=${ms.toFixed(1)}`);
    await expect(nav(page).getByRole('link', { name: /^Texts$/ })).toBeVisible();
    await expectNoAxeViolations(page, 'text conversation');

    // The reply, typed and sent with Enter; the loopback carrier records it.
    const box = page.getByRole('textbox', { name: `Text to ${PEER_NAME}`, exact: true });
    await box.focus();
    await page.keyboard.type(`yes, here ${run}`);
    await page.keyboard.press('Enter');
    await expect(box).toHaveValue('');
    await expect(log.getByRole('listitem').filter({ hasText: `yes, here ${run}` })).toContainText('Delivered');
    await expect.poll(async () => (await sentTo(c, PEER)).find((m) => m.text === `yes, here ${run}`)).toMatchObject({ from: ALICE_DID, to: [PEER] });

    // An MMS over 3670016 bytes: refused with a clear error, the text and the file stay.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Attach files' }).focus();
    await page.keyboard.press('Enter');
    await (await chooser).setFiles({ name: 'Holiday.MP4', mimeType: 'video/mp4', buffer: Buffer.alloc(3_670_017) });
    await expect(page.getByRole('list', { name: 'Attached files' })).toContainText('Holiday.MP4');
    await box.focus();
    await page.keyboard.type('the video');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main').getByRole('alert')).toHaveText('Attachments can total at most 3.5 MB (3670016 bytes).');
    await expect(box).toHaveValue('the video');
    await expect(page.getByRole('list', { name: 'Attached files' })).toContainText('Holiday.MP4');
    expect((await sentTo(c, PEER)).some((m) => m.text === 'the video')).toBe(false);
    // Removing the file lets the text go.
    await page.getByRole('button', { name: 'Remove Holiday.MP4' }).focus();
    await page.keyboard.press('Enter');
    await box.focus();
    await page.keyboard.press('Enter');
    await expect(log.getByRole('listitem').filter({ hasText: 'the video' })).toContainText('Delivered');

    // A picture (MMS with an empty text): uploaded, sent, shown as an image fetched with the user's token.
    const pick = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Attach files' }).focus();
    await page.keyboard.press('Enter');
    await (await pick).setFiles({ name: 'dot.PNG', mimeType: 'image/png', buffer: PNG });
    await box.focus();
    await page.keyboard.press('Enter');
    await expect(log.getByRole('img', { name: 'Picture: dot.PNG' })).toBeVisible();
    await expect.poll(async () => (await sentTo(c, PEER))[0]).toMatchObject({ text: ' ' });

    // The counter shows within 100 characters of the limit; over it, Enter does not send.
    await box.fill('x'.repeat(905));
    await expect(page.getByText('Characters left: 95')).toBeVisible();
    await box.press('End');
    await page.keyboard.type('y'.repeat(96));
    await expect(page.getByText('Characters over the limit: 1')).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(box).toHaveValue('x'.repeat(905) + 'y'.repeat(96));
    await box.fill('');

    // "Text ▸ number" in the palette opens the conversation with that number.
    await page.keyboard.press('Alt+n');
    await openPalette(page);
    await page.keyboard.type('Text');
    await expect(page.getByRole('option', { name: /^Text\b/ }).first()).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await page.keyboard.type('3105550177');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 2, name: PEER_NAME })).toBeVisible();

    // New text (Shift+X) to two numbers: a group text; a number that is no US number is ignored.
    await page.keyboard.press('Alt+n');
    await page.keyboard.press('Shift+X');
    await expect(page.getByRole('heading', { level: 2, name: 'New text' })).toBeVisible();
    const to = page.getByRole('textbox', { name: 'To' });
    await expect(to).toBeFocused();
    // Nothing typed: a new text needs a recipient and a message, and the refusal says so in words.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main').getByRole('alert')).toHaveText('Enter at least one recipient (a US phone number).');
    await to.focus();
    await page.keyboard.type('212-555-0123, 646 555 0134, 12345');
    await expect(page.getByText('Ignored (not US numbers): 12345')).toBeVisible();
    await expect(page.getByText('Several recipients: this starts a group text.')).toBeVisible();
    await expectNoAxeViolations(page, 'new text');
    await page.getByRole('textbox', { name: 'Message' }).focus();
    await page.keyboard.type(`team update ${run}`);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 2, name: '(212) 555-0123, (646) 555-0134' })).toBeVisible();
    await expect(page.getByText('Group text ·').first()).toBeVisible();
    await expect(page.getByRole('list', { name: 'Texts with (212) 555-0123, (646) 555-0134' })).toContainText(`team update ${run}`);
    await expect.poll(async () => (await sentTo(c, '+16465550134')).find((m) => m.text === `team update ${run}`)?.to.sort()).toEqual(['+12125550123', '+16465550134']);
  });
  test('an inbound text is announced in words on any screen, the texts never opened', async ({ page, baseURL }) => {
    const c = await carrier(baseURL!);
    const run = Date.now().toString(36);
    await loginByKeyboard(page, 'alice');
    // Chat is connected ("New group" is enabled only then): the texts now arrive live.
    await openPalette(page);
    await page.keyboard.type('New group');
    await expect(page.getByRole('option', { name: /^New group/ }).first()).toHaveAttribute('aria-disabled', 'false', { timeout: 20_000 });
    await page.keyboard.press('Escape');
    await inbound(c, `e2e-${run}-a`, '+13105550188', `ping ${run}`);
    await expect(page.locator('[aria-live="polite"]').filter({ hasText: `New text from (310) 555-0188: ping ${run}` })).toBeAttached();
  });
});

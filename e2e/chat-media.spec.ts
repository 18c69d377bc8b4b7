import { expect, test, type Page } from './csp-guard';
import { input, log } from './chat-helpers';
import { expectNoAxeViolations, openPalette, signedInPerson, tabUntilFocused } from './fixtures';

// Files in chat go through the real ejabberd's XEP-0363 upload service (mod_http_upload, started by
// the global setup with the project's configuration); the emoji picker is driven by keyboard alone.

const LIMIT = 3_670_016;
/** A real 2×2 PNG. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d494844520000000200000002080600000072b60d240000001149444154789c63f8cfc00042ff19600c0043ce07f958ed66a00000000049454e44ae426082',
  'hex',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/**
 * g t, Shift+C (New chat), the colleague's name, Tab into the list, Enter: the conversation opens;
 * its input is enabled once chat has connected (a fresh sign-in may still be connecting).
 */
async function chatWith(page: Page, name: string): Promise<void> {
  await page.keyboard.press('Alt+n');
  await page.keyboard.press('g');
  await page.keyboard.press('t');
  await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeVisible();
  await page.keyboard.press('Shift+C');
  await tabUntilFocused(page, page.getByRole('searchbox', { name: 'Find a colleague' }));
  await page.keyboard.type(name);
  await expect(page.getByRole('grid', { name: 'Colleagues' }).getByRole('row')).toHaveCount(1);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
  // Connected: files wait for the server (the box itself is editable at once).
  await expect(input(page, name)).toHaveAccessibleDescription('', { timeout: 30_000 });
}

/** The Attach button by keyboard (Enter opens the browser's file chooser), then these files. */
async function attach(page: Page, files: Array<{ name: string; mimeType: string; buffer: Buffer }>): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach files' }).press('Enter');
  await (await chooser).setFiles(files);
}

/** Whether the picture in the page has been fetched and decoded. */
const loaded = (page: Page, name: string) => () =>
  page
    .getByRole('img', { name })
    .last()
    .evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth)
    .catch(() => 0);

test.describe('chat media and emoji', () => {
  test.setTimeout(120_000);

  test('alice sends bob a picture and a document through ejabberd upload: bob sees the picture and a download link, also after a reload (archive); an oversize file is refused and the typed text kept', async ({ browser, baseURL }) => {
    const alice = await signedInPerson(browser, baseURL!, 'alice');
    const bob = await signedInPerson(browser, baseURL!, 'bob');
    const run = Date.now().toString(36);
    try {
      await chatWith(alice, 'Bob Martinez');
      const box = input(alice, 'Bob Martinez');
      await box.focus();
      await alice.keyboard.type(`the plan ${run}`);

      // Over the limit: refused at once with the reason; the typed text stays, nothing is pending.
      await attach(alice, [{ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(LIMIT + 1) }]);
      await expect(alice.getByRole('alert').filter({ hasText: 'huge.png is too large: files can total at most 3.5 MB (3670016 bytes).' })).toBeVisible();
      await expect(box).toHaveValue(`the plan ${run}`);
      await expect(alice.getByRole('list', { name: 'Files to send' })).toHaveCount(0);
      // A type that is not allowed: the same.
      await attach(alice, [{ name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') }]);
      await expect(alice.getByRole('alert').filter({ hasText: 'tool.exe cannot be sent' })).toBeVisible();
      await expect(box).toHaveValue(`the plan ${run}`);

      // A picture and a document: listed, then sent with Enter (words first, one message per file).
      await attach(alice, [
        { name: `team photo ${run}.png`, mimeType: 'image/png', buffer: PNG },
        { name: `notes ${run}.pdf`, mimeType: 'application/pdf', buffer: PDF },
      ]);
      const pending = alice.getByRole('list', { name: 'Files to send' });
      await expect(pending.getByRole('listitem')).toHaveCount(2);
      // Adding allowed files clears the last refusal.
      await expect(alice.getByRole('alert').filter({ hasText: 'cannot be sent' })).toHaveCount(0);
      await box.focus();
      await alice.keyboard.press('Enter');
      await expect(box).toHaveValue('');
      await expect(pending).toHaveCount(0);
      const mine = log(alice, 'Bob Martinez');
      await expect(mine.getByRole('img', { name: `team photo ${run}.png` })).toBeVisible();
      await expect.poll(loaded(alice, `team photo ${run}.png`)).toBe(2);

      // Bob: the words, the picture fetched from the upload service, the document as a link with its size.
      await bob.keyboard.press('Alt+n');
      await bob.keyboard.press('g');
      await bob.keyboard.press('t');
      const session = bob.getByRole('row', { name: /Alice Nguyen/ });
      await expect(session).toContainText(`notes ${run}.pdf`);
      await session.focus();
      await bob.keyboard.press('Enter');
      const theirs = log(bob, 'Alice Nguyen');
      await expect(theirs).toContainText(`the plan ${run}`);
      await expect(theirs.getByRole('img', { name: `team photo ${run}.png` })).toBeVisible();
      await expect.poll(loaded(bob, `team photo ${run}.png`)).toBe(2);
      const doc = theirs.getByRole('link', { name: new RegExp(`notes ${run}\\.pdf`) });
      await expect(doc).toContainText(`${PDF.length} bytes`);
      const href = (await doc.getAttribute('href'))!;
      expect(href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/upload\//);
      // The browser may fetch it from the app's page (CORS), and gets the bytes alice sent.
      expect(await bob.evaluate(async (u) => (await fetch(u)).text(), href)).toBe(PDF.toString());
      await expectNoAxeViolations(bob, 'conversation with a picture and a document');

      // The archive keeps the description: after a reload both are still there.
      await bob.reload();
      await expect(log(bob, 'Alice Nguyen').getByRole('img', { name: `team photo ${run}.png` })).toBeVisible({ timeout: 20_000 });
      await expect(log(bob, 'Alice Nguyen').getByRole('link', { name: new RegExp(`notes ${run}\\.pdf`) })).toBeVisible();
      await expect.poll(loaded(bob, `team photo ${run}.png`)).toBe(2);
    } finally {
      await alice.context().close();
      await bob.context().close();
    }
  });

  test('the emoji picker by keyboard alone: search, arrows in a group, inserted at the caret, then listed under Recent (kept in recent-emojis); axe with the picker open; the palette opens the picker and the file chooser; a pasted file is added', async ({ browser, baseURL }) => {
    const carol = await signedInPerson(browser, baseURL!, 'carol');
    try {
      await chatWith(carol, 'Bob Martinez');
      const box = input(carol, 'Bob Martinez');
      await box.focus();
      await carol.keyboard.type('hello world');
      for (let i = 0; i < 6; i++) await carol.keyboard.press('ArrowLeft');

      // Tab to the emoji button, Enter: the picker opens on its search.
      await carol.keyboard.press('Tab');
      await expect(carol.getByRole('button', { name: 'Insert emoji' })).toBeFocused();
      await carol.keyboard.press('Enter');
      const picker = carol.getByRole('dialog', { name: 'Emoji' });
      await expect(picker.getByRole('searchbox', { name: 'Search emoji' })).toBeFocused();
      await expectNoAxeViolations(carol, 'chat with the emoji picker open');
      await carol.keyboard.type('rocket');
      await expect(picker.getByRole('listbox', { name: 'Emoji found' }).getByRole('option')).toHaveCount(1);
      await carol.keyboard.press('Tab');
      await expect(picker.getByRole('option', { name: 'rocket' })).toBeFocused();
      await carol.keyboard.press('Enter');
      await expect(picker).toHaveCount(0);
      await expect(box).toHaveValue('hello🚀 world');
      // The caret is right after the emoji, in the input.
      await expect(box).toBeFocused();
      await carol.keyboard.type('!');
      await expect(box).toHaveValue('hello🚀! world');

      // Again: now Recent opens first and lists the rocket; arrows move to Smileys, into the grid, along it.
      await carol.keyboard.press('Tab');
      await carol.keyboard.press('Enter');
      await expect(picker.getByRole('tab', { name: 'Recent' })).toHaveAttribute('aria-selected', 'true');
      await expect(picker.getByRole('listbox', { name: 'Recent' }).getByRole('option', { name: 'rocket' })).toBeVisible();
      await carol.keyboard.press('Tab');
      await expect(picker.getByRole('tab', { name: 'Recent' })).toBeFocused();
      await carol.keyboard.press('ArrowRight');
      await expect(picker.getByRole('tab', { name: 'Smileys' })).toHaveAttribute('aria-selected', 'true');
      await carol.keyboard.press('Tab');
      await expect(picker.getByRole('option', { name: 'grinning face', exact: true })).toBeFocused();
      await carol.keyboard.press('ArrowRight');
      await expect(picker.getByRole('option', { name: 'grinning face with big eyes' })).toBeFocused();
      await carol.keyboard.press('Enter');
      await expect(box).toHaveValue('hello🚀!😃 world');

      await carol.keyboard.press('Tab');
      await carol.keyboard.press('Enter');
      const recent = picker.getByRole('listbox', { name: 'Recent' }).getByRole('option');
      await expect(recent).toHaveText(['😃', '🚀']);
      expect(await carol.evaluate(() => localStorage.getItem('recent-emojis'))).toBe(JSON.stringify(['😃', '🚀']));
      await carol.keyboard.press('Escape');
      await expect(picker).toHaveCount(0);

      // The palette: "Insert emoji" opens the same picker, "Attach files to the message" the file chooser.
      await openPalette(carol);
      await carol.keyboard.type('Insert emoji');
      await expect(carol.getByRole('option', { name: /^Insert emoji/ }).first()).toHaveAttribute('aria-selected', 'true');
      await carol.keyboard.press('Enter');
      await expect(picker.getByRole('searchbox', { name: 'Search emoji' })).toBeFocused();
      await carol.keyboard.press('Escape');
      await expect(picker).toHaveCount(0);
      const chooser = carol.waitForEvent('filechooser');
      await openPalette(carol);
      await carol.keyboard.type('Attach files');
      await expect(carol.getByRole('option', { name: /^Attach files to the message/ }).first()).toHaveAttribute('aria-selected', 'true');
      await carol.keyboard.press('Enter');
      await (await chooser).setFiles([{ name: 'agenda.txt', mimeType: 'text/plain', buffer: Buffer.from('1. emoji\n') }]);
      await expect(carol.getByRole('list', { name: 'Files to send' }).getByRole('listitem')).toContainText('agenda.txt');

      // A file pasted into the box joins the list (the browser's own paste event, with a file in it).
      await input(carol, 'Bob Martinez').evaluate((el) => {
        const data = new DataTransfer();
        data.items.add(new File(['pasted'], 'pasted notes.txt', { type: 'text/plain' }));
        el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      });
      await expect(carol.getByRole('list', { name: 'Files to send' }).getByRole('listitem')).toHaveText([/agenda\.txt/, /pasted notes\.txt/]);
    } finally {
      await carol.context().close();
    }
  });
});

import { expect, test, type Browser, type Page } from './csp-guard';
import { carrier, inbound } from './carrier-helpers';
import { log, messageByPalette, send } from './chat-helpers';
import { expectNoAxeViolations, loginByKeyboard, openPalette, signedInPerson } from './fixtures';

// Desktop notifications and the chat sound in the real browser, against the real ejabberd and the
// API's loopback carrier. The browser's own Notification and WebAudio run; the page only keeps a
// list of what it showed and counts the chime's oscillators, because a test cannot click on the
// operating system's notification: it dispatches the click on the notification object instead.

interface Shown {
  title: string;
  body: string;
  tag: string;
}

async function aliceAllowingNotifications(browser: Browser, baseURL: string): Promise<Page> {
  const ctx = await browser.newContext({ baseURL, locale: 'en-US', timezoneId: 'UTC', permissions: ['notifications'] });
  await ctx.addInitScript(() => {
    const w = window as unknown as { shown: Notification[]; oscillators: number; heard: string[] };
    w.shown = [];
    w.oscillators = 0;
    // What a screen reader says, as a virtual screen reader hears it: a tick after each change of an
    // atomic live region, the whole region.
    w.heard = [];
    new MutationObserver((records) =>
      setTimeout(() => {
        for (const r of records) {
          const el = r.target instanceof Element ? r.target : r.target.parentElement;
          const region = el?.closest('[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"]');
          const atomic = region && (region.getAttribute('aria-atomic') === 'true' || ['status', 'alert'].includes(region.getAttribute('role') ?? ''));
          if (atomic && region.textContent) w.heard.push(region.textContent);
        }
      }),
    ).observe(document, { subtree: true, childList: true, characterData: true });
    const Real = window.Notification;
    // A subclass: permission and requestPermission are the browser's own.
    window.Notification = class extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        w.shown.push(this);
      }
    } as typeof Notification;
    const create = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function (this: AudioContext) {
      w.oscillators++;
      return create.call(this);
    };
  });
  const page = await ctx.newPage();
  await loginByKeyboard(page, 'alice');
  return page;
}

const shown = (page: Page) => page.evaluate(() => (window as unknown as { shown: Notification[] }).shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag })));
const heard = (page: Page, words: string) => page.evaluate((words) => (window as unknown as { heard: string[] }).heard.filter((h) => h.includes(words)), words);
const oscillators = (page: Page) => page.evaluate(() => (window as unknown as { oscillators: number }).oscillators);
/** What the operating system does when the user clicks the notification. */
const clickNotification = (page: Page, i: number) => page.evaluate((i) => (window as unknown as { shown: Notification[] }).shown[i]!.dispatchEvent(new Event('click')), i);

async function goToChatList(page: Page): Promise<void> {
  await page.keyboard.press('Alt+n');
  await page.keyboard.press('g');
  await page.keyboard.press('t');
  await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeVisible();
}

test('desktop notifications and the chat sound: a message or a text not on screen notifies and chimes, the click opens it; chat sound off is silent', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const run = Date.now().toString(36);
  const alice = await aliceAllowingNotifications(browser, baseURL!);
  const bob = await signedInPerson(browser, baseURL!, 'bob');
  try {
    // The one permission of the product: already given here, so its command says so.
    await openPalette(alice);
    await alice.keyboard.type('Turn on desktop notifications');
    await expect(alice.getByRole('option', { name: /Turn on desktop notifications/ })).toContainText('Desktop notifications are on.');
    await alice.keyboard.press('Escape');

    // Alice is on her chat list; bob writes: a notification named for bob with his words, and a chime.
    await goToChatList(alice);
    await messageByPalette(bob, 'Alice Nguyen');
    await send(bob, 'Alice Nguyen', `lunch at noon? ${run}`);
    await expect.poll(() => shown(alice)).toEqual([{ title: 'Bob Martinez', body: `lunch at noon? ${run}`, tag: expect.stringMatching(/^chat:bob@/) }]);
    expect(await oscillators(alice)).toBeGreaterThan(0);
    await expect.poll(() => heard(alice, `lunch at noon? ${run}`)).toEqual([`New message from Bob Martinez: lunch at noon? ${run}`]);

    // The click brings alice to that conversation.
    await clickNotification(alice, 0);
    await expect(alice.getByRole('heading', { level: 2, name: 'Bob Martinez' })).toBeVisible();
    await expect(alice).toHaveURL(/\/chat\/bob(%40|@)/);
    await expect(log(alice, 'Bob Martinez')).toContainText(`lunch at noon? ${run}`);
    // Said once, not twice.
    expect(await heard(alice, `lunch at noon? ${run}`)).toHaveLength(1);

    // On screen, in a tab in front: no notification, no sound.
    const chimes = await oscillators(alice);
    await send(bob, 'Alice Nguyen', `great ${run}`);
    await expect(log(alice, 'Bob Martinez')).toContainText(`great ${run}`);
    expect(await shown(alice)).toHaveLength(1);
    expect(await oscillators(alice)).toBe(chimes);

    // Chat sound off (palette): the next message still notifies, silently.
    await openPalette(alice);
    await alice.keyboard.type('Chat sound on/off');
    await expect(alice.getByRole('option', { name: /^Chat sound on\/off/ })).toHaveAttribute('aria-selected', 'true');
    await alice.keyboard.press('Enter');
    await expect(alice.getByRole('region', { name: 'Notifications' })).toContainText('Chat sound is off.');
    await goToChatList(alice);
    await send(bob, 'Alice Nguyen', `see you there ${run}`);
    await expect.poll(async () => (await shown(alice)).length).toBe(2);
    expect(await oscillators(alice)).toBe(chimes);

    // An inbound text: notified under the sender's number; the click opens the text conversation.
    const c = await carrier(baseURL!);
    await inbound(c, `notify-${run}`, '+13105550188', `parcel at the door ${run}`);
    await expect.poll(async () => (await shown(alice)).at(-1)).toEqual({ title: '(310) 555-0188', body: `parcel at the door ${run}`, tag: expect.stringMatching(/^text:/) });
    await clickNotification(alice, 2);
    await expect(alice.getByRole('heading', { level: 2, name: '(310) 555-0188' })).toBeVisible();
    await expect(alice.getByRole('list', { name: 'Texts with (310) 555-0188' })).toContainText(`parcel at the door ${run}`);
    expect(await oscillators(alice)).toBe(chimes);
    await expectNoAxeViolations(alice, 'text conversation opened from a notification');

    // Sound back on for the next run of this user.
    await openPalette(alice);
    await alice.keyboard.type('Chat sound on/off');
    await alice.keyboard.press('Enter');
    await expect(alice.getByRole('region', { name: 'Notifications' })).toContainText('Chat sound is on.');
  } finally {
    await alice.context().close();
    await bob.context().close();
  }
});

import { expect, test, type Page } from './csp-guard';
import { expectNoAxeViolations, openPalette, signedInPerson, tabUntilFocused } from './fixtures';
import { log, send } from './chat-helpers';

// Group chat on the real ejabberd (MUC rooms with MucSub, MAM), made through the real API server.
// Three browser contexts are three people: alice, bob and carol.

const person = signedInPerson;

async function runCommand(page: Page, title: string): Promise<void> {
  await openPalette(page);
  await page.keyboard.type(title);
  await expect(page.getByRole('option', { name: new RegExp(`^${title}`) }).first()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
}

const bar = (page: Page) => page.getByRole('grid', { name: 'Conversations' });


/** Picks a colleague in the group editor by keyboard: search, Tab into the list, Space. */
async function pick(page: Page, name: string): Promise<void> {
  const search = page.getByRole('searchbox', { name: 'Find colleagues' });
  await search.focus();
  await page.keyboard.press('Control+a');
  await page.keyboard.type(name);
  const people = page.getByRole('grid', { name: 'Colleagues to add' });
  await expect(people.getByRole('row')).toHaveCount(1);
  await page.keyboard.press('Tab');
  const row = people.getByRole('row', { name: new RegExp(name) });
  await expect(row).toBeFocused();
  await page.keyboard.press('Space');
  await expect(row).toHaveAttribute('aria-selected', 'true');
}

test.describe('group chat', () => {
  test.setTimeout(180_000);

  test('alice makes a group with bob and carol by keyboard; messages flow both ways; carol, signed out, gets them through MucSub; removing carol ends her session; axe on every new screen', async ({ browser, baseURL }) => {
    const run = Date.now().toString(36);
    const subject = `Launch ${run}`;
    const alice = await person(browser, baseURL!, 'alice');
    const bob = await person(browser, baseURL!, 'bob');
    let carol: Page | null = null;
    try {
      // Bob waits on the chat list.
      await runCommand(bob, 'Go to chat');
      await expect(bob.getByRole('heading', { level: 1, name: 'Chat' })).toBeVisible();

      // Alice: palette → New group → the room editor (room/ → id new, type muc).
      await expect(alice.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
      await runCommand(alice, 'New group');
      await expect(alice).toHaveURL(/\/room\/new\?type=muc$/);
      await expect(alice.getByRole('heading', { level: 2, name: 'New group' })).toBeVisible();
      // Focus is on the screen's heading; the subject is the next stop.
      const subjectBox = alice.getByRole('textbox', { name: 'Subject' });
      await tabUntilFocused(alice, subjectBox, 3);
      // Only colleagues: never oneself, never the limited-access role.
      const people = alice.getByRole('grid', { name: 'Colleagues to add' });
      await expect(people.getByRole('row', { name: /Bob Martinez/ })).toBeVisible();
      await expect(people.getByRole('row', { name: /Alice Nguyen/ })).toHaveCount(0);
      await expect(people.getByRole('row', { name: /Dave Kowalski/ })).toHaveCount(0);
      // Nothing chosen: a group is refused without a subject and a colleague, and nothing typed is lost.
      await tabUntilFocused(alice, alice.getByRole('button', { name: 'Create group' }), 6);
      await alice.keyboard.press('Enter');
      await expect(alice.getByText('Enter a subject.')).toBeVisible();
      await expect(alice.getByText('Choose at least one colleague.')).toBeVisible();
      await expectNoAxeViolations(alice, 'new group with errors');

      await subjectBox.focus();
      await alice.keyboard.type(subject);
      await pick(alice, 'Bob Martinez');
      await pick(alice, 'Carol Okafor');
      await expect(alice.getByText('Members chosen: 2')).toBeVisible();
      await alice.keyboard.press('Tab');
      await expect(alice.getByRole('button', { name: 'Create group' })).toBeFocused();
      await alice.keyboard.press('Enter');
      await expect(alice.getByRole('heading', { level: 2, name: subject })).toBeVisible({ timeout: 20_000 });
      await expect(alice.locator('.chat-head')).toContainText('Group · 3 members');
      // Occupants: everyone an owner (moderator once in the room).
      await alice.getByText('Members (3)').click();
      const occupants = alice.getByRole('list', { name: 'Members of the group' });
      await expect(occupants.getByRole('listitem')).toHaveCount(3);
      await expect(occupants.getByRole('listitem').filter({ hasText: 'Carol Okafor' })).toContainText('Owner · Moderator');
      await expectNoAxeViolations(alice, 'group conversation');

      // Alice writes; bob gets it live, with an unread badge, and answers.
      await send(alice, subject, `hello team ${run}`);
      const row = bar(bob).getByRole('row', { name: new RegExp(subject) });
      await expect(row).toBeVisible({ timeout: 20_000 });
      await expect(row).toContainText('Group · 3 members');
      await expect(row.getByLabel('Unread: 1')).toBeVisible();
      await row.focus();
      await bob.keyboard.press('Enter');
      const bobLog = log(bob, subject);
      await expect(bobLog.getByRole('listitem').filter({ hasText: `hello team ${run}` })).toContainText('Alice Nguyen');
      await send(bob, subject, `hi alice ${run}`);
      await expect(log(alice, subject).getByRole('listitem').filter({ hasText: `hi alice ${run}` })).toContainText('Bob Martinez');
      // Alice's own message: the room has sent it to everyone.
      await expect(log(alice, subject).getByRole('listitem').filter({ hasText: `hello team ${run}` })).toContainText('Received');

      // Carol was signed out all along: she signs in and finds both messages, unread.
      carol = await person(browser, baseURL!, 'carol');
      // Before she opens anything, the navigation badge counts them.
      await expect(carol.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: /^Chat Unread messages: 2$/ })).toBeVisible({ timeout: 20_000 });
      await runCommand(carol, 'Go to chat');
      await expect(carol.getByRole('heading', { level: 1, name: 'Chat' })).toBeVisible();
      const carolRow = bar(carol).getByRole('row', { name: new RegExp(subject) });
      await expect(carolRow).toBeVisible({ timeout: 20_000 });
      await expect(carolRow.getByLabel('Unread: 2')).toBeVisible();
      await carolRow.focus();
      await carol.keyboard.press('Enter');
      await expect(log(carol, subject).getByRole('listitem').filter({ hasText: `hello team ${run}` })).toHaveCount(1);
      await expect(log(carol, subject).getByRole('listitem').filter({ hasText: `hi alice ${run}` })).toHaveCount(1);
      await send(carol, subject, `carol here ${run}`);
      await expect(bobLog).toContainText(`carol here ${run}`);

      // Alice reloads the group's address: the session is hydrated again from the room's archive.
      await alice.reload();
      await expect(alice.getByRole('heading', { level: 2, name: subject })).toBeVisible({ timeout: 20_000 });
      for (const text of [`hello team ${run}`, `hi alice ${run}`, `carol here ${run}`]) await expect(log(alice, subject).getByRole('listitem').filter({ hasText: text })).toHaveCount(1);

      // Bob pins the group from the palette: it shows as pinned.
      await runCommand(bob, 'Pin chat');
      await bob.keyboard.type(subject);
      await expect(bob.getByRole('option', { name: new RegExp(subject) }).first()).toHaveAttribute('aria-selected', 'true');
      await bob.keyboard.press('Enter');
      await expect(bar(bob).getByRole('row', { name: new RegExp(subject) })).toContainText('Pinned');

      // Alice removes carol (edit group, untick carol, save): carol's session ends at once.
      await alice.getByRole('button', { name: 'Edit group' }).click();
      await expect(alice.getByRole('heading', { level: 2, name: `Edit group ${subject}` })).toBeVisible();
      await expectNoAxeViolations(alice, 'edit group');
      const carolPick = alice.getByRole('grid', { name: 'Colleagues to add' }).getByRole('row', { name: /Carol Okafor/ });
      await expect(carolPick).toHaveAttribute('aria-selected', 'true');
      await carolPick.focus();
      await alice.keyboard.press('Space');
      await expect(carolPick).toHaveAttribute('aria-selected', 'false');
      await alice.getByRole('button', { name: 'Save group' }).click();
      await expect(alice.locator('.chat-head')).toContainText('2 members');
      await expect(carol.getByText('You are no longer a member of this group.')).toBeVisible({ timeout: 15_000 });
      await expect(bar(carol).getByRole('row', { name: new RegExp(subject) })).toHaveCount(0);
      await expectNoAxeViolations(carol, 'ended group');

      // Bob, by keyboard: the conversation's ⋯ menu mutes it; the palette leaves the group.
      const actions = bob.getByRole('button', { name: `Actions for ${subject}` }).first();
      await actions.focus();
      await bob.keyboard.press('Enter');
      const menu = bob.getByRole('menu', { name: `Actions for ${subject}` });
      await expect(menu).toBeVisible();
      await expect(menu.getByRole('menuitem', { name: 'Unpin' })).toBeVisible();
      await bob.keyboard.press('ArrowDown');
      await expect(menu.getByRole('menuitem', { name: 'Mute' })).toBeFocused();
      await bob.keyboard.press('Enter');
      await expect(bar(bob).getByRole('row', { name: new RegExp(subject) })).toContainText('Muted');
      await expectNoAxeViolations(bob, 'group conversation, muted and pinned');
      await runCommand(bob, 'Leave group');
      await bob.keyboard.type(subject);
      await expect(bob.getByRole('option', { name: new RegExp(subject) }).first()).toHaveAttribute('aria-selected', 'true');
      await bob.keyboard.press('Enter');
      await expect(bar(bob).getByRole('row', { name: new RegExp(subject) })).toHaveCount(0);
      // Alice's copy of the group follows: she is its only member now.
      await expect(alice.locator('.chat-head')).toContainText('Group · 1 member', { timeout: 15_000 });
    } finally {
      await alice.context().close();
      await bob.context().close();
      await carol?.context().close();
    }
  });
});

import { expect, test, type Page } from './csp-guard';
import { expectNoAxeViolations, goByChord, loginByKeyboard, openPalette, signedInPerson, tabUntilFocused } from './fixtures';

// Users no other spec signs in as: this spec books, changes and deletes a meeting of Sofia's with Rahul invited.
const BOOKER = 'sofia.lindqvist';
const INVITEE = 'rahul.mehta';

const grid = (page: Page) => page.getByRole('grid', { name: 'Meetings' });
const detail = (page: Page) => page.locator('.detail-pane');
const modal = (page: Page, name: string) => page.getByRole('dialog', { name });
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const row = (page: Page, name: string) => grid(page).getByRole('row', { name: new RegExp(`^${escape(name)}`) });

async function openMeetings(page: Page): Promise<void> {
  await goByChord(page, 'e');
  await expect(page).toHaveURL(/\/meetings$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Meetings' })).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Search titles' })).toBeVisible();
}

/** Types in the title search and opens the first row found with Enter, as a keyboard user does. */
async function openByKeyboard(page: Page, name: string): Promise<void> {
  const search = page.getByRole('searchbox', { name: 'Search titles' });
  await tabUntilFocused(page, search);
  await page.keyboard.press('Control+a');
  await page.keyboard.type(name);
  await expect(row(page, name).first()).toBeVisible();
  await expect(grid(page).getByRole('row', { name: new RegExp(`^(?!${escape(name)})`) })).toHaveCount(0);
  await tabUntilFocused(page, grid(page));
  await page.keyboard.press('Enter');
  await expect(detail(page).getByRole('heading', { level: 2, name })).toBeVisible();
}

/** Replaces what a field holds, by keyboard. */
async function retype(page: Page, field: ReturnType<Page['getByRole']>, text: string): Promise<void> {
  await tabUntilFocused(page, field);
  await page.keyboard.press('Control+a');
  await page.keyboard.type(text);
}

test.describe('meetings', () => {
  test('keyboard only: schedule a weekly meeting with an invitee who sees it, a refused time keeps what was typed, the join window enforced, edit, add to calendar, delete; axe in light and dark', async ({ page, browser, baseURL }) => {
    const name = `Roadmap sync ${Date.now().toString(36)}`;
    const renamed = `${name} (moved)`;
    // Its day: the one two days from now (the browser's zone is UTC), so that its first meeting is
    // days away. A fixed Wednesday made it today on Wednesdays, minutes away, its join window open.
    const meetingDay = new Date(Date.now() + 2 * 86_400_000);
    const weekday = (style: 'short' | 'long') => new Intl.DateTimeFormat('en-US', { weekday: style, timeZone: 'UTC' }).format(meetingDay);
    await loginByKeyboard(page, BOOKER);
    await openMeetings(page);
    await expect(grid(page).or(page.getByText('No meetings in the coming weeks.'))).toBeVisible();
    await expectNoAxeViolations(page, 'meetings list, light');

    // "Schedule meeting" from the palette: the modal on its Schedule tab.
    await openPalette(page);
    await page.keyboard.type('schedule meeting');
    await expect(page.getByRole('option', { name: /Schedule meeting/ }).first()).toBeVisible();
    await page.keyboard.press('Enter');
    const dialog = modal(page, 'New meeting');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('tab', { name: 'Schedule', selected: true })).toBeVisible();
    const nameField = dialog.getByRole('textbox', { name: 'Meeting name' });
    await retype(page, nameField, name);
    // Enter does not save (Ctrl+Enter does).
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();

    // An invitee by type-ahead among the colleagues.
    const invite = dialog.getByRole('combobox', { name: 'Invite people' });
    await tabUntilFocused(page, invite);
    await page.keyboard.type('Rahul');
    await expect(page.getByRole('option', { name: /Rahul Mehta/ })).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('grid', { name: 'Invited' }).getByRole('row', { name: 'Rahul Mehta' })).toBeVisible();

    // Weekly, on a day: without the day it is refused.
    await tabUntilFocused(page, dialog.getByRole('button', { name: /Repeat/ }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('option', { name: 'Weekly' })).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('option', { name: 'Weekly' })).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+Enter');
    await expect(dialog.getByText('Choose at least one day for a weekly or two-weekly meeting.')).toBeVisible();
    await tabUntilFocused(page, dialog.getByRole('checkbox', { name: weekday('short') }));
    await page.keyboard.press('Space');
    await expect(dialog.getByRole('checkbox', { name: weekday('short') })).toBeChecked();

    // A time that is not h:mm AM/PM is refused; everything typed stays.
    const startTime = dialog.getByRole('textbox', { name: 'Start time' });
    const goodStart = await startTime.inputValue();
    expect(goodStart).toMatch(/^\d{1,2}:\d{2} [AP]M$/);
    await retype(page, startTime, '25:00');
    await page.keyboard.press('Control+Enter');
    await expect(dialog.getByText('Write the time as h:mm AM or h:mm PM.')).toBeVisible();
    await expect(nameField).toHaveValue(name);
    await expect(startTime).toHaveValue('25:00');
    await expect(dialog.getByRole('grid', { name: 'Invited' }).getByRole('row', { name: 'Rahul Mehta' })).toBeVisible();
    await expectNoAxeViolations(page, 'meeting modal with an error, light');
    await retype(page, startTime, goodStart);
    await page.keyboard.press('Control+Enter');

    // Created: its details open at /meetings/{id}.
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Meeting scheduled')).toBeVisible();
    await expect(page).toHaveURL(/\/meetings\/\d+$/);
    await expect(detail(page).getByRole('heading', { level: 2, name })).toBeVisible();
    await expect(detail(page).getByRole('listitem').filter({ hasText: 'Rahul Mehta' })).toBeVisible();
    await expect(detail(page).getByText(`Repeats weekly on ${weekday('long')}`)).toBeVisible();
    await expect(detail(page).getByText(/Join opens the meeting's link in a new window/)).toBeVisible();
    // The join window: not yet open (the meeting is days away), so no Join, and the palette's Join says when.
    await expect(detail(page).getByText(/You can join from .* \(10 minutes before the start\)/)).toBeVisible();
    await expect(detail(page).getByRole('button', { name: 'Join', exact: true })).toHaveCount(0);
    await openPalette(page);
    await page.keyboard.type('join meeting');
    await expect(page.getByRole('option', { name: /^Join meeting/ }).first()).toBeVisible();
    await page.keyboard.press('Enter');
    await page.keyboard.type(name);
    await expect(page.getByRole('option', { name: new RegExp(escape(name)) }).first()).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page.getByText(/This meeting opens at /)).toBeVisible();
    await expectNoAxeViolations(page, 'meeting detail, light');

    // The invitee sees it in their list, and may not change it.
    const guest = await signedInPerson(browser, baseURL!, INVITEE);
    await openMeetings(guest);
    await openByKeyboard(guest, name);
    await expect(detail(guest).getByRole('button', { name: 'Delete' })).toHaveCount(0);
    await expect(detail(guest).getByRole('button', { name: 'Edit' })).toHaveCount(0);

    // Add to calendar: the .ics file.
    const download = page.waitForEvent('download');
    await tabUntilFocused(page, detail(page).getByRole('button', { name: 'Add to calendar' }));
    await page.keyboard.press('Enter');
    expect((await download).suggestedFilename()).toMatch(/\.ics$/);

    // Edit: the update goes back to the list without a selection.
    await tabUntilFocused(page, detail(page).getByRole('button', { name: 'Edit' }));
    await page.keyboard.press('Enter');
    const edit = modal(page, 'Edit meeting');
    await expect(edit).toBeVisible();
    await expect(edit.getByRole('textbox', { name: 'Meeting name' })).toHaveValue(name);
    await retype(page, edit.getByRole('textbox', { name: 'Meeting name' }), renamed);
    await page.keyboard.press('Control+Enter');
    await expect(edit).toBeHidden();
    await expect(page.getByText('Meeting updated')).toBeVisible();
    await expect(page).toHaveURL(/\/meetings$/);
    await expect(row(page, renamed).first()).toBeVisible();
    await guest.reload();
    await expect(detail(guest).getByRole('heading', { level: 2, name: renamed })).toBeVisible();

    // Dark: the list, the detail and the modal.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await openByKeyboard(page, renamed);
    await expectNoAxeViolations(page, 'meetings list and detail, dark');
    await tabUntilFocused(page, detail(page).getByRole('button', { name: 'Edit' }));
    await page.keyboard.press('Enter');
    await expect(edit).toBeVisible();
    await expectNoAxeViolations(page, 'meeting modal, dark');
    await page.keyboard.press('Escape');
    await expect(edit).toBeHidden();

    // Delete, confirmed: the catalogue's toast, gone from both lists.
    await tabUntilFocused(page, detail(page).getByRole('button', { name: 'Delete' }));
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog', { name: `Delete ${renamed}?` }).or(page.getByRole('dialog', { name: `Delete ${renamed}?` }));
    await expect(confirm).toBeVisible();
    await tabUntilFocused(page, confirm.getByRole('button', { name: 'Delete' }));
    await page.keyboard.press('Enter');
    await expect(page.getByText('Meeting deleted')).toBeVisible();
    await expect(page).toHaveURL(/\/meetings$/);
    await expect(row(page, renamed)).toHaveCount(0);
    await guest.reload();
    await expect(guest).toHaveURL(/\/meetings$/);
    await expect(grid(guest).getByRole('row', { name: new RegExp(`^${escape(renamed)}`) })).toHaveCount(0);
    await guest.context().close();
  });

  test('keyboard only: Start (an instant meeting) joins at once in a window named for it; "Join meeting ▸" in the palette, /schedule, and Join by ID with the masked PIN join it too', async ({ page }) => {
    const name = `Stand-up ${Date.now().toString(36)}`;
    await loginByKeyboard(page, BOOKER);
    await openMeetings(page);
    await openPalette(page);
    await page.keyboard.type('new meeting');
    await expect(page.getByRole('option', { name: /New meeting/ }).first()).toBeVisible();
    await page.keyboard.press('Enter');
    const dialog = modal(page, 'New meeting');
    await expect(dialog.getByRole('tab', { name: 'Start', selected: true })).toBeVisible();
    // The Start tab asks for no time: it starts now.
    await expect(dialog.getByRole('textbox', { name: 'Start time' })).toHaveCount(0);
    await retype(page, dialog.getByRole('textbox', { name: 'Meeting name' }), name);
    const popup = page.waitForEvent('popup');
    await page.keyboard.press('Control+Enter');
    const win = await popup;
    await expect.poll(() => win.url()).toMatch(new RegExp(`/uc/${BOOKER.replace('.', '\\.')}/[a-z0-9]{5,}\\?ssid=\\d+$`));
    const meetingUrl = win.url();
    await win.close();
    await expect(page.getByText('Meeting started')).toBeVisible();
    await expect(detail(page).getByRole('heading', { level: 2, name })).toBeVisible();
    await expect(detail(page).getByRole('button', { name: 'Join' })).toBeVisible();
    const id = (await detail(page).locator('dt', { hasText: 'Meeting ID' }).locator('xpath=following-sibling::dd[1]').innerText()).trim();
    expect(id).toMatch(/^\d{6,12}$/);

    // "Join meeting ▸" in the palette: the meeting is an entity of its own.
    await openPalette(page);
    await page.keyboard.type('join meeting');
    await expect(page.getByRole('option', { name: /^Join meeting/ }).first()).toBeVisible();
    await page.keyboard.press('Enter');
    await page.keyboard.type(name);
    await expect(page.getByRole('option', { name: new RegExp(escape(name)) }).first()).toBeVisible();
    const viaPalette = page.waitForEvent('popup');
    await page.keyboard.press('Enter');
    const win1 = await viaPalette;
    await expect.poll(() => win1.url()).toBe(meetingUrl);
    await win1.close();

    // /schedule is the modal on its Schedule tab.
    await page.goto('/schedule');
    const schedule = modal(page, 'New meeting');
    await expect(schedule.getByRole('tab', { name: 'Schedule', selected: true })).toBeVisible();
    // A one-digit month and day ("1/2/…", as from the 1st to the 9th and in January to September):
    // the date's parts are still targets large enough (axe's target-size), whatever today's date.
    const month = schedule.getByRole('spinbutton', { name: /month/ }).first();
    const day = schedule.getByRole('spinbutton', { name: /day/ }).first();
    await tabUntilFocused(page, month);
    await page.keyboard.type('1');
    await tabUntilFocused(page, day);
    await page.keyboard.type('2');
    await expect(month).toHaveText('1');
    await expect(day).toHaveText('2');
    await expectNoAxeViolations(page, 'schedule modal with a one-digit month and day');
    await page.keyboard.press('Escape');
    await expect(modal(page, 'New meeting')).toBeHidden();
    await expect(page).toHaveURL(/\/meetings$/);
    await openByKeyboard(page, name);

    // Join by ID, with the masked PIN (which does nothing): the same meeting's window.
    await tabUntilFocused(page, page.getByRole('button', { name: 'Join by ID' }));
    await page.keyboard.press('Enter');
    const join = modal(page, 'Join a meeting by its ID');
    await expect(join).toBeVisible();
    await retype(page, join.getByRole('textbox', { name: 'Meeting ID' }), '12345');
    await page.keyboard.press('Enter');
    await expect(join.getByText('A meeting ID is 6 to 12 digits.')).toBeVisible();
    await expectNoAxeViolations(page, 'join by ID popup');
    await retype(page, join.getByRole('textbox', { name: 'Meeting ID' }), id);
    await retype(page, join.getByLabel('PIN (if the meeting has one)'), '****');
    const again = page.waitForEvent('popup');
    await page.keyboard.press('Enter');
    const win2 = await again;
    // The same meeting's window: the masked PIN is not carried along.
    await expect.poll(() => win2.url()).toBe(meetingUrl);
    await win2.close();
    await expect(join).toBeHidden();

    // External calendars: an address that is not a calendar feed is refused with the server's words.
    await tabUntilFocused(page, page.getByRole('button', { name: 'External calendars' }));
    await page.keyboard.press('Enter');
    const feeds = modal(page, 'External calendars');
    await expect(feeds.getByText('No calendar subscribed.')).toBeVisible();
    await retype(page, feeds.getByRole('textbox', { name: 'Calendar address' }), 'ftp://calendar.example/x.ics');
    await tabUntilFocused(page, feeds.getByRole('button', { name: 'Subscribe' }));
    await page.keyboard.press('Enter');
    await expect(feeds.getByText('A calendar feed is an http, https or webcal address')).toBeVisible();
    await expectNoAxeViolations(page, 'external calendars dialog');
    await page.keyboard.press('Escape');
    await expect(feeds).toBeHidden();

    // Tidy: the instant meeting goes.
    await tabUntilFocused(page, detail(page).getByRole('button', { name: 'Delete' }));
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog', { name: `Delete ${name}?` }).or(page.getByRole('dialog', { name: `Delete ${name}?` }));
    await tabUntilFocused(page, confirm.getByRole('button', { name: 'Delete' }));
    await page.keyboard.press('Enter');
    await expect(page.getByText('Meeting deleted')).toBeVisible();
  });

  test('keyboard only: an administrator books a room, sees it, joins it at any time and removes it; axe on the rooms', async ({ page }) => {
    const name = `Huddle ${Date.now().toString(36)}`;
    // An administrator (role 2), whom no other spec signs in as.
    await loginByKeyboard(page, 'mateo.garcia');
    await goByChord(page, 'o');
    await expect(page).toHaveURL(/\/rooms$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Rooms' })).toBeVisible();
    const rooms = page.getByRole('grid', { name: 'Rooms' });
    await expect(rooms.getByRole('row').first()).toBeVisible();
    await expectNoAxeViolations(page, 'rooms');
    await tabUntilFocused(page, page.getByRole('button', { name: 'New room' }));
    await page.keyboard.press('Enter');
    const dialog = modal(page, 'New room');
    await expect(dialog).toBeVisible();
    await retype(page, dialog.getByRole('textbox', { name: 'Meeting name' }), name);
    await retype(page, dialog.getByRole('textbox', { name: 'PIN (four digits, optional)' }), '12');
    await page.keyboard.press('Control+Enter');
    await expect(dialog.getByText('The PIN must be empty or exactly four digits.')).toBeVisible();
    await expectNoAxeViolations(page, 'room modal with an error');
    await retype(page, dialog.getByRole('textbox', { name: 'PIN (four digits, optional)' }), '0420');
    await page.keyboard.press('Control+Enter');
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/rooms\/\d+$/);
    await expect(detail(page).getByRole('heading', { level: 2, name })).toBeVisible();
    await expect(rooms.getByRole('row', { name })).toBeVisible();
    // A room is always open: Join is there.
    await expect(detail(page).getByRole('button', { name: 'Join' })).toBeVisible();
    await expectNoAxeViolations(page, 'room detail');
    await tabUntilFocused(page, detail(page).getByRole('button', { name: 'Delete' }));
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog', { name: `Delete the room ${name}?` }).or(page.getByRole('dialog', { name: `Delete the room ${name}?` }));
    await tabUntilFocused(page, confirm.getByRole('button', { name: 'Delete' }));
    await page.keyboard.press('Enter');
    await expect(page.getByText('Room deleted')).toBeVisible();
    await expect(page).toHaveURL(/\/rooms$/);
    await expect(rooms.getByRole('row', { name })).toHaveCount(0);
  });
});

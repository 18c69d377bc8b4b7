import { expect, test, type Page } from './csp-guard';
import { expectNoAxeViolations, loginByKeyboard, openPalette, tabUntilFocused } from './fixtures';
import { callAndAnswer, dock, expectPhoneReady, expectSoundArriving, phoneContext } from './telephony-helpers';

const stepHeading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name });
const button = (page: Page, name: string | RegExp) => page.getByRole('button', { name, exact: typeof name === 'string' });

/** Tab to a button and press Enter, as a keyboard user does. */
async function press(page: Page, name: string | RegExp): Promise<void> {
  await tabUntilFocused(page, button(page, name), 60);
  await page.keyboard.press('Enter');
}

/** The step's heading has the focus (announced), and the indicator marks the step as the current one. */
async function onStep(page: Page, n: number, name: string): Promise<void> {
  await expect(stepHeading(page, name)).toBeFocused();
  const steps = page.getByRole('navigation', { name: 'Wizard steps' });
  await expect(steps.getByText(`Step ${n} of 4`)).toBeVisible();
  await expect(steps.locator('[aria-current="step"]')).toHaveText(new RegExp(name));
}

/** Keyboard: the file chooser opened from the focused button, given one file. */
async function chooseFile(page: Page, buttonName: string, name: string, mimeType: string, content: string): Promise<void> {
  await tabUntilFocused(page, button(page, buttonName), 60);
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (await chooser).setFiles({ name, mimeType, buffer: Buffer.from(content) });
}

test.describe('onboarding wizard', () => {
  test('hana has not finished: every page sends her to /configuration; she picks her company by keyboard and finishes; axe on the select view', async ({ page }) => {
    await loginByKeyboard(page, 'hana');
    await expect(page).toHaveURL(/\/configuration$/);
    await expect(stepHeading(page, 'Welcome')).toBeVisible();
    await page.goto('/history');
    await expect(page).toHaveURL(/\/configuration$/);
    await expect(stepHeading(page, 'Welcome')).toBeVisible();
    await press(page, 'Next');
    await onStep(page, 2, 'Company');
    // No services account yet: the select view, the active companies only.
    const group = page.getByRole('radiogroup', { name: 'Active companies' });
    await expect(group.getByRole('radio')).toHaveCount(1);
    await expectNoAxeViolations(page, 'wizard, company select view');
    await tabUntilFocused(page, group.getByRole('radio', { name: /^Cove Marine/ }));
    await page.keyboard.press('Space');
    await expect(group.getByRole('radio', { name: /^Cove Marine/ })).toBeChecked();
    await press(page, 'Use this company');
    await onStep(page, 3, 'Upload users');
    await press(page, 'Skip the upload');
    await onStep(page, 4, 'Configure users');
    await press(page, 'Finish');
    await expect(page).not.toHaveURL(/\/configuration/);
    // Finished: the app is hers now.
    await page.goto('/history');
    await expect(page).toHaveURL(/\/history$/);
  });

  test('rita, finished, opens the wizard from the palette and goes through it by keyboard: confirm view, a non-CSV warned, a CSV uploaded, users mapped; one of the new users signs in and calls rita; axe on every step', async ({ page, browser, baseURL }) => {
    await loginByKeyboard(page, 'rita');
    await expect(page).not.toHaveURL(/\/configuration/);
    await openPalette(page);
    await page.keyboard.type('Wizard welcome');
    await expect(page.getByRole('option', { name: /^Wizard ▸ Welcome/ })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/configuration$/);
    await expect(stepHeading(page, 'Welcome')).toBeVisible();
    await expectNoAxeViolations(page, 'wizard, welcome');

    await press(page, 'Next');
    await onStep(page, 2, 'Company');
    // Acme is rita's services account and is listed: the confirm view.
    await expect(page.getByText('ACME-10042')).toBeVisible();
    await expectNoAxeViolations(page, 'wizard, company confirm view');
    await press(page, 'Confirm and continue');
    await onStep(page, 3, 'Upload users');
    await expectNoAxeViolations(page, 'wizard, upload');

    // A file that is not a CSV gets the warning and is not kept; a second CSV replaces the first.
    await chooseFile(page, 'Choose a CSV file', 'people.pdf', 'application/pdf', '%PDF-1.4');
    await expect(page.getByRole('alert').filter({ hasText: 'people.pdf' })).toHaveText('people.pdf is not a CSV file. Only .csv files can be uploaded.');
    await expect(page.getByText('No file chosen.')).toBeVisible();
    await chooseFile(page, 'Choose a CSV file', 'first.csv', 'text/csv', 'Username,FirstName,LastName,Enabled\nfirst.only,First,Only,Yes\n');
    await expect(page.getByText(/^Chosen: first\.csv/)).toBeVisible();
    const csv = ['Username,FirstName,LastName,Enabled,Password', 'nina.e2e,Nina,Engel,Yes,Welcome-2026!', 'omar.e2e,Omar,Ekberg,No,', ',Broken,Row,Yes'].join('\n');
    await chooseFile(page, 'Choose another file', 'team.csv', 'text/csv', csv);
    await expect(page.getByText(/^Chosen: team\.csv/)).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'not a CSV file' })).toHaveCount(0);
    await press(page, 'Upload');

    // Success goes on to the last step, with the report of accepted and refused rows.
    await onStep(page, 4, 'Configure users');
    await expect(page.getByRole('status').filter({ hasText: 'rows became users' })).toHaveText('2 of 3 rows became users; 1 were refused.');
    await expect(page.getByRole('table', { name: 'Refused rows' }).getByRole('row', { name: /4.*The username is empty\./ })).toBeVisible();
    const users = page.getByRole('table', { name: /^Users 1–/ });
    await expect(users.getByRole('rowheader', { name: 'nina.e2e' })).toBeVisible();
    await expect(users.getByRole('row', { name: /omar\.e2e Omar Ekberg No/ })).toBeVisible();
    await expectNoAxeViolations(page, 'wizard, configure users');

    // Map nina to a services user (a user of Acme) by keyboard, then finish.
    const select = button(page, /Services user for nina\.e2e/);
    await tabUntilFocused(page, select, 60);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('listbox')).toBeVisible();
    await page.keyboard.type('Alice Nguyen');
    await page.keyboard.press('Enter');
    await expect(select).toHaveAccessibleName(/Alice Nguyen/);
    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && /\/v1\/organizations\/\d+\/users$/.test(r.url()));
    await press(page, 'Finish');
    expect((await saved).status()).toBe(200);
    await expect(page).not.toHaveURL(/\/configuration/);

    // The new user signs in with the password of the file, and gets the app (no wizard: a customer-level standard user).
    const ctx = await phoneContext(browser, baseURL!);
    try {
      const nina = await ctx.newPage();
      await loginByKeyboard(nina, 'nina.e2e', 'Welcome-2026!');
      await expect(nina).not.toHaveURL(/\/configuration/);
      // A first sign-in: the tour of the frame starts by itself; Esc ends it.
      const tour = nina.getByRole('dialog', { name: 'Welcome to Acme UC' });
      await expect(tour).toBeVisible();
      await expect(nina.locator('#main-heading')).toBeFocused();
      await nina.keyboard.press('Escape');
      await expect(tour).toBeHidden();
      // Her new line works: she calls rita (extension 2000), who answers.
      await page.goto('/calls');
      await expectPhoneReady(page);
      await nina.goto('/calls');
      await expectPhoneReady(nina);
      await callAndAnswer(nina, page, '2000', 'Nina Engel');
      await expectSoundArriving(nina, 'nina hears rita');
      await nina.keyboard.press('Control+Shift+E');
      await expect(dock(nina)).toBeHidden({ timeout: 10_000 });
    } finally {
      await ctx.close();
    }
  });
});

test.describe('set-password link', () => {
  test('rita imports a user without a password and makes a one-time link (the row’s button, then the palette’s command, which replaces it); the user chooses a password by keyboard on the link’s page (axe), is signed in, and the link works once', async ({ page, browser, baseURL }) => {
    // Three browsers one after another (rita, the link's pages, a sign-in): past 60 s on a busy machine.
    test.setTimeout(120_000);
    await loginByKeyboard(page, 'rita');
    await openPalette(page);
    await page.keyboard.type('Wizard upload users');
    await expect(page.getByRole('option', { name: /^Wizard ▸ Upload users/ })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(stepHeading(page, 'Upload users')).toBeVisible();
    await chooseFile(page, 'Choose a CSV file', 'new.csv', 'text/csv', 'Username,FirstName,LastName,Enabled\nabby.e2e,Abby,Eriksen,Yes\n');
    await press(page, 'Upload');
    await onStep(page, 4, 'Configure users');

    // No password in the file: the row offers a link instead of "Set".
    const users = page.getByRole('table', { name: /^Users 1–/ });
    await expect(users.getByRole('row', { name: /^abby\.e2e Abby Eriksen Yes/ })).toBeVisible();
    await expect(users.getByRole('row', { name: /^rita Rita/ })).toContainText('Set');
    await press(page, 'Set-password link for abby.e2e');
    const dialog = page.getByRole('dialog', { name: 'Set-password link for abby.e2e' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Done' })).toBeFocused();
    const first = await dialog.getByRole('textbox', { name: 'Link' }).inputValue();
    expect(first).toMatch(/\/set-password#[A-Za-z0-9_-]{43}$/);
    await expectNoAxeViolations(page, 'wizard, set-password link dialog');
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();

    // The palette makes one too: the command, then the user (offered: enabled, no password yet).
    await openPalette(page);
    await page.keyboard.type('set-password link');
    await expect(page.getByRole('option', { name: /^Wizard ▸ Set-password link/ })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await expect(palette.getByRole('combobox')).toHaveAttribute('placeholder', 'Which user? (enabled, no password yet)');
    await expect(palette.getByRole('option', { name: /^rita/ })).toHaveCount(0);
    await page.keyboard.type('abby');
    await expect(palette.getByRole('option', { name: /abby\.e2e/ })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Done' })).toBeFocused();
    const link = await dialog.getByRole('textbox', { name: 'Link' }).inputValue();
    expect(link).toMatch(/\/set-password#[A-Za-z0-9_-]{43}$/);
    expect(link).not.toBe(first);
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();

    // Abby, in a browser of her own, opens the link.
    const ctx = await browser.newContext({ baseURL, locale: 'en-US', timezoneId: 'UTC' });
    try {
      // The newer link replaced the first (a page of its own: the two differ only after the #).
      const old = await ctx.newPage();
      await old.goto(first);
      await expect(old.getByRole('alert')).toHaveText(/^This link is not valid/);
      await old.close();
      const abby = await ctx.newPage();
      await abby.goto(link);
      await expect(abby.getByRole('heading', { level: 1, name: 'Choose your password' })).toBeVisible();
      await expect(abby.getByText('Welcome, Abby Eriksen. Choose the password you will sign in with as abby.e2e.')).toBeVisible();
      const password = abby.getByLabel('New password', { exact: true });
      await expect(password).toBeFocused();
      await expectNoAxeViolations(abby, 'set-password page');
      // A password that breaks the rules is not sent: the form says so and the checklist shows what is missing.
      await abby.keyboard.type('welcome');
      await abby.keyboard.press('Tab');
      await abby.keyboard.type('welcome');
      await abby.keyboard.press('Enter');
      await expect(abby.getByRole('alert')).toHaveText('The password does not meet every rule yet.');
      await expect(password).toBeFocused();
      await expect(abby.getByText('Not met: a digit')).toBeVisible();
      await expectNoAxeViolations(abby, 'set-password page, rules not met');
      await abby.keyboard.press('Control+a');
      await abby.keyboard.type('Welcome-2026!');
      await abby.keyboard.press('Tab');
      await abby.keyboard.press('Control+a');
      await abby.keyboard.type('Welcome-2026!');
      await expect(abby.getByText('Met: the confirmation to match')).toBeVisible();
      await abby.keyboard.press('Enter');
      // Signed in: the app, and her first sign-in's tour (Esc ends it).
      await expect(abby.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
      const tour = abby.getByRole('dialog', { name: 'Welcome to Acme UC' });
      await expect(tour).toBeVisible();
      await expect(abby.locator('#main-heading')).toBeFocused();
      await abby.keyboard.press('Escape');
      await expect(tour).toBeHidden();
      // The link worked once.
      await abby.goto(link);
      await expect(abby.getByRole('alert')).toHaveText('This link has already been used. Sign in with the password you chose.');
      await expect(abby.getByRole('link', { name: 'Go to sign in' })).toBeVisible();
    } finally {
      await ctx.close();
    }
    // And her password signs her in from the login page too.
    const again = await browser.newContext({ baseURL, locale: 'en-US', timezoneId: 'UTC' });
    try {
      await loginByKeyboard(await again.newPage(), 'abby.e2e', 'Welcome-2026!');
    } finally {
      await again.close();
    }
  });
});

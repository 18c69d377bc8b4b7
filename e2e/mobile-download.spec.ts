import { MobileAuthResponse } from '../src/wire/mobile';
import { expect, test } from './csp-guard';
import { expectNoAxeViolations, loginByKeyboard, openPalette, tabUntilFocused } from './fixtures';

// Any user: a mobile sign-in only adds a session of its own.
const USER = 'dave';

test.describe('mobile download', () => {
  test('keyboard only: the page from the palette, store links, a QR code whose code signs the app in once; a new code on request; the failure says so; axe', async ({ page, request }) => {
    await loginByKeyboard(page, USER);
    const issued = page.waitForResponse((r) => r.url().endsWith('/v1/mobile-auth') && r.status() === 200);
    await openPalette(page);
    await page.keyboard.type('mobile app');
    await expect(page.getByRole('option', { name: /^Get the mobile app/ })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/mobileDownload$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Mobile app' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Download on the App Store' })).toHaveAttribute('href', 'https://apps.apple.com/app/id000000000');
    await expect(page.getByRole('link', { name: 'Get it on Google Play' })).toBeVisible();
    const qr = page.getByRole('img', { name: /^QR code that signs the mobile app in as / });
    await expect(qr).toBeVisible();
    const { access_token: code } = MobileAuthResponse.parse(await (await issued).json());
    await expectNoAxeViolations(page, 'mobile download');

    // What the QR code holds works once, as the mobile app would use it.
    expect((await request.post('/login/mobile', { data: { code } })).status()).toBe(200);
    expect((await request.post('/login/mobile', { data: { code } })).status()).toBe(401);

    // "Show a new code" by keyboard: another code, drawn anew.
    const before = await qr.locator('path').getAttribute('d');
    const next = page.waitForResponse((r) => r.url().endsWith('/v1/mobile-auth') && r.status() === 200);
    const button = page.getByRole('button', { name: 'Show a new code' });
    await tabUntilFocused(page, button);
    await page.keyboard.press('Enter');
    const { access_token: second } = MobileAuthResponse.parse(await (await next).json());
    expect(second).not.toBe(code);
    await expect.poll(() => qr.locator('path').getAttribute('d')).not.toBe(before);

    // The server refuses: the specification's text, and the code still valid stays on screen.
    await page.route('**/v1/mobile-auth', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'unavailable', message: 'Down for a moment' }) }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Failed to generate new QR code' })).toBeVisible();
    await expect(qr).toBeVisible();
  });
});

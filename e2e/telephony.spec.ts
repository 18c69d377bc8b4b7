import { expect, test } from '@playwright/test';
import { expectNoAxeViolations, loginByKeyboard, openPalette } from './fixtures';
import {
  dock,
  dtmfSent,
  expectAudioFlowing,
  expectAudioStopped,
  expectPhoneReady,
  localAudioEnabled,
  phoneContext,
  recordDtmf,
} from './telephony-helpers';

// Real Kamailio (SIP over WebSocket) and rtpengine, started by the global setup; two browser
// contexts are two people: alice (1001) and bob (1002).
test.describe('telephony', () => {
  test.setTimeout(120_000);

  test('alice calls bob from the palette, bob answers by hotkey; audio, hold, mute, DTMF, hang-up; axe on the dock and the dialpad', async ({ browser, baseURL }) => {
    const aliceCtx = await phoneContext(browser, baseURL!);
    const bobCtx = await phoneContext(browser, baseURL!);
    const alice = await aliceCtx.newPage();
    const bob = await bobCtx.newPage();
    try {
      await loginByKeyboard(alice, 'alice');
      await loginByKeyboard(bob, 'bob');
      await alice.goto('/calls');
      await bob.goto('/calls');
      await expectPhoneReady(alice);
      await expectPhoneReady(bob);

      // The dialpad popup: keyboard, axe, an empty number is refused with a message.
      await alice.keyboard.press('Control+Shift+K');
      const dialpad = alice.getByRole('dialog', { name: 'Dialpad' });
      await expect(dialpad).toBeVisible();
      await expect(dialpad.getByRole('textbox', { name: 'Number to call' })).toBeFocused();
      await expect(dialpad.getByRole('group', { name: 'Dialpad keys' }).getByRole('button')).toHaveCount(12);
      await expectNoAxeViolations(alice, 'dialpad');
      await dialpad.getByRole('button', { name: 'Call', exact: true }).press('Enter');
      await expect(dialpad.getByRole('alert')).toHaveText('Enter a number to call.');
      await alice.keyboard.press('Escape');
      await expect(dialpad).toBeHidden();

      // Keyboard only: Ctrl+K, "call", Enter, the contact, Enter.
      await openPalette(alice);
      await alice.keyboard.type('call');
      await expect(alice.getByRole('option', { name: /^Call\b/ }).first()).toHaveAttribute('aria-selected', 'true');
      await alice.keyboard.press('Enter');
      await alice.keyboard.type('Bob Martinez');
      await expect(alice.getByRole('option', { name: /^Bob Martinez/ })).toHaveAttribute('aria-selected', 'true');
      await alice.keyboard.press('Enter');

      await expect(dock(alice)).toContainText('Bob Martinez');
      await expect(dock(alice)).toContainText('Ringing');

      // Bob: the call rings in the dock, Accept and Decline first, announced assertively.
      const bobDock = dock(bob);
      await expect(bobDock).toContainText('Alice Nguyen');
      await expect(bobDock.getByRole('button').nth(0)).toHaveText('Accept');
      await expect(bobDock.getByRole('button').nth(1)).toHaveText('Decline');
      await expect(bob.getByRole('alert').filter({ hasText: 'Incoming call from Alice Nguyen' })).toBeAttached();
      await expectNoAxeViolations(bob, 'call dock with an incoming call');

      await bob.keyboard.press('Control+Shift+A');
      await expect(bobDock).toContainText(/00:00:\d\d/);
      await expect(dock(alice)).toContainText(/00:00:\d\d/);

      // Audio both ways through rtpengine.
      await expectAudioFlowing(alice, 'alice');
      await expectAudioFlowing(bob, 'bob');
      await expectNoAxeViolations(alice, 'call dock with a connected call');

      // Hold: bob's audio no longer reaches alice; resume brings it back.
      await dock(alice).getByRole('button', { name: 'Hold' }).click();
      await expect(dock(alice)).toContainText('On hold');
      await expectAudioStopped(alice, 'alice while holding');
      await dock(alice).getByRole('button', { name: 'Resume' }).click();
      await expect(dock(alice).getByRole('button', { name: 'Hold' })).toBeVisible();
      await expectAudioFlowing(alice, 'alice after resume');

      // Mute by hotkey: alice's microphone track is switched off, then on again.
      await alice.keyboard.press('Control+Shift+M');
      await expect(dock(alice)).toContainText('Muted');
      await expect.poll(() => localAudioEnabled(alice)).toEqual([false]);
      await dock(alice).getByRole('button', { name: 'Unmute' }).click();
      await expect.poll(() => localAudioEnabled(alice)).toEqual([true]);

      // DTMF: from the dock keypad, then from the palette; played out in the audio stream.
      await recordDtmf(alice);
      await dock(alice).getByRole('button', { name: 'Keypad' }).click();
      const keypad = dock(alice).getByRole('group', { name: 'Keypad for the call with Bob Martinez' });
      for (const key of ['1', '2', '#']) await keypad.getByRole('button', { name: key, exact: true }).click();
      await expect.poll(() => dtmfSent(alice)).toBe('12#');
      await openPalette(alice);
      await alice.keyboard.type('send dtmf');
      await alice.keyboard.press('Enter');
      await alice.keyboard.type('34*');
      await alice.keyboard.press('Enter');
      await expect.poll(() => dtmfSent(alice)).toBe('12#34*');

      // Bob hangs up by hotkey; both docks say so, then the call leaves the dock after ~3 s.
      await bob.keyboard.press('Control+Shift+E');
      await expect(dock(alice)).toContainText('Call ended');
      await expect(dock(bob)).toContainText('Call ended');
      await expect(dock(alice)).toBeHidden({ timeout: 6000 });
      await expect(dock(bob)).toBeHidden({ timeout: 6000 });

      // The history's "call back" (c) now works through TelephonyApi: the newest call is Bob's.
      await alice.keyboard.press('g');
      await alice.keyboard.press('h');
      await expect(alice.getByRole('heading', { level: 1, name: 'Call history' })).toBeVisible();
      await expect(alice.getByRole('heading', { level: 2, name: /Bob Martinez/ })).toBeVisible();
      await alice.keyboard.press('c');
      await expect(dock(bob)).toContainText('Alice Nguyen');
      await alice.keyboard.press('Control+Shift+E');
      await expect(dock(bob)).toBeHidden({ timeout: 6000 });
    } finally {
      await aliceCtx.close();
      await bobCtx.close();
    }
  });

  // Other people than the first test: a closed tab's registration hold lasts up to 90 s.
  test('a second tab is told calling is active elsewhere, takes it over, and then the calls ring there', async ({ browser, baseURL }) => {
    const carolCtx = await phoneContext(browser, baseURL!);
    const oliviaCtx = await phoneContext(browser, baseURL!);
    const first = await carolCtx.newPage();
    const olivia = await oliviaCtx.newPage();
    try {
      await loginByKeyboard(first, 'carol');
      await first.goto('/calls');
      await expectPhoneReady(first);

      const second = await carolCtx.newPage();
      await second.goto('/calls');
      await expect(second.getByRole('region', { name: 'Notifications' }).getByText('Calling is active in another window')).toBeVisible({ timeout: 20_000 });
      await expect(second.getByRole('button', { name: 'Call', exact: true })).toBeDisabled();
      await expect(second.getByText('Calling is active in another window.').first()).toBeVisible();

      // "Use calling here" from the palette; the first tab learns it at once (same browser).
      await openPalette(second);
      await second.keyboard.type('use calling here');
      await expect(second.getByRole('option', { name: /^Use calling here/ })).toHaveAttribute('aria-selected', 'true');
      await second.keyboard.press('Enter');
      await expectPhoneReady(second);
      await expect(first.getByText('Calling moved to another window. This window no longer rings.')).toBeVisible();
      await expect(first.getByRole('button', { name: 'Call', exact: true })).toBeDisabled();

      // Olivia calls carol: it rings in the second tab only; carol declines by hotkey.
      await loginByKeyboard(olivia, 'olivia');
      await olivia.goto('/calls');
      await expectPhoneReady(olivia);
      await olivia.getByRole('textbox', { name: 'Number to call' }).fill('1003');
      await olivia.getByRole('textbox', { name: 'Number to call' }).press('Enter');
      await expect(dock(second)).toContainText('Olivia Bennett');
      await expect(dock(first)).toHaveCount(0);
      await second.keyboard.press('Control+Shift+D');
      await expect(dock(second)).toContainText('Declined');
      await expect(dock(olivia)).toHaveCount(0, { timeout: 10_000 });
    } finally {
      await carolCtx.close();
      await oliviaCtx.close();
    }
  });
});

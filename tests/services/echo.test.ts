/**
 * The echo test number (*43) through the real stack: a JsSIP phone in Debian's Chromium calls it
 * through Kamailio and rtpengine, the echo phone (baresip's echo module, server/services/echo.ts)
 * answers and plays back what it hears. What comes back is checked by ear, so to speak: the caller
 * sends a pure tone and hears that same tone; it changes the tone and hears the new one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kamailioRpc } from '../../server/services/kamailio-rpc';
import { ECHO_EXTENSION } from '../../src/wire/services';
import { startServicesApi, type ServicesApi } from './harness';
import { signedInPhones, type SignedInPhones, type SipPage } from './sip-page';

let api: ServicesApi;
let signedIn: SignedInPhones;
let alice: SipPage;

beforeAll(async () => {
  api = await startServicesApi();
  signedIn = await signedInPhones(api, ['alice']);
  alice = signedIn.phones.alice!;
});

afterAll(async () => {
  await signedIn?.close();
  await api?.close();
});

/** Polls until the loudest received frequency is `hz` (within one analyser bin and a half). */
async function hears(phone: SipPage, key: string, hz: number, timeoutMs = 10_000): Promise<{ hz: number; db: number }> {
  let last = { hz: 0, db: -Infinity };
  await expect
    .poll(
      async () => {
        last = await phone.receivedPeak(key);
        return Math.abs(last.hz - hz) < 18 && last.db > -70;
      },
      { timeout: timeoutMs, interval: 100 },
    )
    .toBe(true);
  return last;
}

describe('the echo test number', () => {
  it('answers, and returns the tone the caller sends, then the next tone', async () => {
    const key = await alice.call(ECHO_EXTENSION);
    const answered = await alice.waitFor(key, 'confirmed');
    expect(answered.ended).toBe(false);

    const first = await alice.waitForInboundBytes(key, 0);
    await alice.sendTone(key, 600);
    await hears(alice, key, 600);
    await alice.sendTone(key, 1500);
    await hears(alice, key, 1500);
    // Audio keeps arriving while the call lasts.
    expect(await alice.waitForInboundBytes(key, first)).toBeGreaterThan(first);
    // Not a call to anyone: Kamailio keeps no dialog for it, so nothing reaches the history.
    expect(JSON.stringify(await kamailioRpc(api.cfg, 'dlg.list', []))).not.toContain(answered.callId);

    await alice.hangup(key);
    const ended = await alice.waitFor(key, 'ended');
    expect(ended.endCause).toBe('Terminated');
  });
});

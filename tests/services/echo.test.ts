/**
 * The echo test number (*43) through the real stack: a JsSIP phone in Debian's Chromium calls it
 * through Kamailio and rtpengine, the echo phone (baresip's echo module, server/services/echo.ts)
 * answers and plays back what it hears. What comes back is checked by ear, so to speak: the caller
 * sends a pure tone and hears that same tone; it changes the tone and hears the new one.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kamailioRpc } from '../../server/services/kamailio-rpc';
import { serviceDirs } from '../../server/services/layout';
import { ECHO_EXTENSION } from '../../src/wire/services';
import { callHistoryOf, startServicesApi, type ServicesApi } from './harness';
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
    // Kamailio tracks it only to end it after ECHO_MAX_SECONDS.
    expect(JSON.stringify(await kamailioRpc(api.cfg, 'dlg.list', []))).toContain(answered.callId);

    const first = await alice.waitForInboundBytes(key, 0);
    await alice.sendTone(key, 600);
    await hears(alice, key, 600);
    await alice.sendTone(key, 1500);
    await hears(alice, key, 1500);
    // Audio keeps arriving while the call lasts.
    expect(await alice.waitForInboundBytes(key, first)).toBeGreaterThan(first);

    await alice.hangup(key);
    const ended = await alice.waitFor(key, 'ended');
    expect(ended.endCause).toBe('Terminated');
    // Not a call to anyone: once Kamailio has closed its dialog, the caller's history has nothing of
    // it, and Kamailio did not even try to report it (the API would refuse "*43" as a callee).
    await expect.poll(async () => JSON.stringify(await kamailioRpc(api.cfg, 'dlg.list', [])), { timeout: 10_000 }).not.toContain(answered.callId);
    expect(await callHistoryOf(api, await api.login('alice'), await api.userId('alice'), answered.callId)).toEqual([]);
    const kamailioLog = await readFile(path.join(serviceDirs(api.cfg.runtimeDir, 'kamailio').log, 'kamailio.log'), 'utf8');
    expect(kamailioLog.split('\n').filter((l) => l.includes(answered.callId) && /not recorded/.test(l))).toEqual([]);
  });
});

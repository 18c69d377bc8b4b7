import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { expect, request, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { readServicesConfig } from '../server/services/layout';
import { Baresip } from '../tests/services/peers/sip_baresip';
import { DEMO_PASSWORD, loginByKeyboard, openPalette } from './fixtures';
import { E2E_PORT_BASE } from './global-setup';

declare global {
  interface Window {
    __pcs: RTCPeerConnection[];
    __tones: string[];
  }
}

/**
 * Test-only init script: remembers every RTCPeerConnection the page creates, so the test can read
 * media statistics and DTMF events without any hook in the product.
 */
function recordPeerConnections(): void {
  window.__pcs = [];
  window.__tones = [];
  const Native = window.RTCPeerConnection;
  class Recorded extends Native {
    constructor(...args: ConstructorParameters<typeof RTCPeerConnection>) {
      super(...args);
      window.__pcs.push(this);
    }
  }
  window.RTCPeerConnection = Recorded;
}

let contexts = 0;

/** A browser context of its own (cookies, storage) whose pages record their peer connections. */
export async function phoneContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, locale: 'en-US', timezoneId: 'UTC' });
  await context.addInitScript(recordPeerConnections);
  // UC_E2E_SIP_DEBUG=1: JsSIP's own log of every page, for finding out why a call did what it did.
  if (process.env.UC_E2E_SIP_DEBUG) {
    const who = `ctx${++contexts}`;
    await context.addInitScript(() => localStorage.setItem('debug', 'JsSIP:*'));
    context.on('console', (m) => console.log(`[${who}] ${m.text()}`));
  }
  return context;
}

/** Audio bytes received so far over every open peer connection of the page. */
export function inboundAudioBytes(page: Page): Promise<number> {
  return page.evaluate(async () => {
    let bytes = 0;
    for (const pc of window.__pcs) {
      if (pc.signalingState === 'closed') continue;
      (await pc.getStats()).forEach((r: { type: string; kind?: string; bytesReceived?: number }) => {
        if (r.type === 'inbound-rtp' && r.kind === 'audio') bytes += r.bytesReceived ?? 0;
      });
    }
    return bytes;
  });
}

/** Waits until the received audio grows (media flows in). */
export async function expectAudioFlowing(page: Page, what: string): Promise<void> {
  const start = await inboundAudioBytes(page);
  await expect.poll(() => inboundAudioBytes(page), { message: `${what}: inbound audio grows`, timeout: 15_000 }).toBeGreaterThan(start);
}

/** Waits until two readings in a row are equal: nothing arrives any more (the far end is on hold). */
export async function expectAudioStopped(page: Page, what: string): Promise<void> {
  let previous = -1;
  await expect
    .poll(
      async () => {
        const now = await inboundAudioBytes(page);
        const same = now === previous;
        previous = now;
        return same;
      },
      { message: `${what}: inbound audio stops`, timeout: 15_000, intervals: [500] },
    )
    .toBe(true);
}

/** Whether the page's outgoing audio track is switched off (muted or held). */
export function localAudioEnabled(page: Page): Promise<boolean[]> {
  return page.evaluate(() =>
    window.__pcs
      .filter((pc) => pc.signalingState !== 'closed')
      .flatMap((pc) => pc.getSenders())
      .flatMap((s) => (s.track && s.track.kind === 'audio' ? [s.track.enabled] : [])),
  );
}

/** From now on, records each DTMF tone the page's audio senders play out (RFC 4733 events). */
export function recordDtmf(page: Page): Promise<void> {
  return page.evaluate(() => {
    window.__tones = [];
    for (const pc of window.__pcs) {
      if (pc.signalingState === 'closed') continue;
      for (const sender of pc.getSenders()) {
        sender.dtmf?.addEventListener('tonechange', (e) => {
          if ((e as RTCDTMFToneChangeEvent).tone) window.__tones.push((e as RTCDTMFToneChangeEvent).tone);
        });
      }
    }
  });
}

export function dtmfSent(page: Page): Promise<string> {
  return page.evaluate(() => window.__tones.join(''));
}

/** The phone is registered: on the calls screen, the dialpad's Call button is enabled. */
export async function expectPhoneReady(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Calls' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Call', exact: true })).toBeEnabled({ timeout: 20_000 });
}

export const dock = (page: Page) => page.getByRole('region', { name: 'Current calls' });

/** Energy of the audio received so far (inbound-rtp totalAudioEnergy): grows only with sound, not silence. */
export function inboundAudioEnergy(page: Page): Promise<number> {
  return page.evaluate(async () => {
    let energy = 0;
    for (const pc of window.__pcs) {
      if (pc.signalingState === 'closed') continue;
      (await pc.getStats()).forEach((r: { type: string; kind?: string; totalAudioEnergy?: number }) => {
        if (r.type === 'inbound-rtp' && r.kind === 'audio') energy += r.totalAudioEnergy ?? 0;
      });
    }
    return energy;
  });
}

/** Waits until sound (not just packets) keeps arriving. */
export async function expectSoundArriving(page: Page, what: string): Promise<void> {
  const start = await inboundAudioEnergy(page);
  await expect.poll(() => inboundAudioEnergy(page), { message: `${what}: inbound audio energy grows`, timeout: 15_000 }).toBeGreaterThan(start);
}

/**
 * One browser context per user, signed in by keyboard, on the Calls screen with the phone
 * registered. Close the contexts when done (`close()`).
 */
export async function readyPhones(browser: Browser, baseURL: string, users: readonly string[]): Promise<{ pages: Page[]; close(): Promise<void> }> {
  const contexts = await Promise.all(users.map(() => phoneContext(browser, baseURL)));
  const close = () => Promise.all(contexts.map((c) => c.close())).then(() => undefined);
  try {
    const pages = await Promise.all(contexts.map((c) => c.newPage()));
    for (const [i, page] of pages.entries()) await loginByKeyboard(page, users[i]!);
    for (const page of pages) {
      await page.goto('/calls');
      await expectPhoneReady(page);
    }
    return { pages, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** `caller` dials `number` on the Calls screen; `callee` sees `callerName` ring and answers by hotkey. */
export async function callAndAnswer(caller: Page, callee: Page, number: string, callerName: string): Promise<void> {
  await caller.getByRole('textbox', { name: 'Number to call' }).fill(number);
  await caller.getByRole('textbox', { name: 'Number to call' }).press('Enter');
  await expect(dock(callee)).toContainText(callerName);
  await callee.keyboard.press('Control+Shift+A');
  await expect(dock(callee)).toContainText(/00:00:\d\d/);
}

/** By keyboard: the palette, a command found by `query` (its option named `option`), then its one argument. */
export async function paletteCommandWithArg(page: Page, query: string, option: RegExp, arg: string): Promise<void> {
  await openPalette(page);
  await page.keyboard.type(query);
  await expect(page.getByRole('option', { name: option })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await page.keyboard.type(arg);
  await page.keyboard.press('Enter');
}

/**
 * A real desk phone (baresip over UDP) registered to `username`'s extension with that user's own
 * time-limited credentials from the API. It answers by itself unless `answer` is 'manual'. Stop it
 * with `stop()` (or `kill()`).
 */
export async function deskPhone(baseURL: string, username: string, answer: 'auto' | 'manual' = 'auto'): Promise<Baresip> {
  const api = await request.newContext({ baseURL });
  const ports = readServicesConfig({ UC_PORT_BASE: String(E2E_PORT_BASE) }).ports;
  const phone = await Baresip.start({
    dir: mkdtempSync(join('runtime', 'e2e-baresip-')),
    sipPort: ports.base + 90,
    ctrlPort: ports.base + 93,
    rtpPorts: [ports.base + 400, ports.base + 449],
    maxLifeSeconds: 120,
  });
  try {
    await api.post('/login', { data: { username, password: DEMO_PASSWORD } });
    const { access_token } = (await (await api.get('/v1/access-token')).json()) as { access_token: string };
    const creds = (await (await api.get('/v1/sip-credentials', { headers: { authorization: `Bearer ${access_token}` } })).json()) as { uri: string; authorization_user: string; password: string };
    await phone.register(creds.uri, creds.authorization_user, creds.password, `sip:127.0.0.1:${ports.sipUdp}`, 10_000, answer);
    return phone;
  } catch (err) {
    phone.kill();
    throw err;
  } finally {
    await api.dispose();
  }
}

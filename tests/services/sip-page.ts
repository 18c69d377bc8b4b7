/**
 * A JsSIP phone in Debian's Chromium for the SIP integration tests: the page is any URL of the API
 * server's own origin (the one Kamailio's WebSocket accepts), with JsSIP and
 * tests/services/peers/sip_page.ts bundled by esbuild and injected as a script.
 */
import { build } from 'esbuild';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/chromium';
import type { PageCredentials, PageSessionState } from './peers/sip_page';

export type { PageCredentials, PageSessionState };


let bundle: Promise<string> | null = null;

/** JsSIP + the page driver as one classic script. */
export function sipPageScript(): Promise<string> {
  bundle ??= build({
    entryPoints: [path.join(import.meta.dirname, 'peers', 'sip_page.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'SipPageBundle',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    logLevel: 'silent',
  }).then((r) => r.outputFiles[0]!.text);
  return bundle;
}

export interface LaunchedChromium {
  browser: Browser;
  /** The browser process (leader of its own process group). */
  pid: number;
  /** Closes the browser; kills its process group if anything of it is still alive. */
  close(): Promise<void>;
}

/** Debian's Chromium as a browser server we hold the PID of, connected over its WebSocket. */
export async function launchChromium(): Promise<LaunchedChromium> {
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const pid = server.process().pid;
  if (!pid) {
    await server.kill();
    throw new Error('Chromium started without a PID');
  }
  try {
    const browser = await chromium.connect(server.wsEndpoint());
    return {
      browser,
      pid,
      async close() {
        await browser.close().catch(() => undefined);
        await server.close().catch(() => undefined);
        killGroup(pid);
      },
    };
  } catch (err) {
    await server.kill();
    killGroup(pid);
    throw err;
  }
}

/** SIGKILL to a process group we started (Playwright starts the browser detached), if it is still there. */
export function killGroup(pid: number): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/** A driver for one JsSIP phone in its own browser context (own page, own UA). */
export class SipPage {
  private constructor(readonly page: Page) {}

  static async open(browser: Browser, origin: string): Promise<SipPage> {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/health`);
    await page.addScriptTag({ content: await sipPageScript() });
    return new SipPage(page);
  }

  register(creds: PageCredentials, timeoutMs = 10_000): Promise<void> {
    return this.page.evaluate(([c, t]) => window.sipPage.register(c, t), [creds, timeoutMs] as const);
  }

  call(target: string): Promise<string> {
    return this.page.evaluate((t) => window.sipPage.call(t), target);
  }

  waitFor(key: string, what: 'confirmed' | 'ended', timeoutMs = 15_000): Promise<PageSessionState> {
    return this.page.evaluate(([k, w, t]) => window.sipPage.waitFor(k, w, t), [key, what, timeoutMs] as const);
  }

  waitForIncoming(timeoutMs = 15_000): Promise<PageSessionState> {
    return this.page.evaluate((t) => window.sipPage.waitForIncoming(t), timeoutMs);
  }

  hold(key: string, on: boolean, timeoutMs = 10_000): Promise<void> {
    return this.page.evaluate(([k, o, t]) => window.sipPage.hold(k, o, t), [key, on, timeoutMs] as const);
  }

  registrations(): Promise<string[]> {
    return this.page.evaluate(() => window.sipPage.registrations());
  }

  sessions(): Promise<PageSessionState[]> {
    return this.page.evaluate(() => window.sipPage.sessions());
  }

  inboundBytes(key: string): Promise<number> {
    return this.page.evaluate((k) => window.sipPage.inboundBytes(k), key);
  }

  /** Polls the session's received audio bytes until they exceed `min`, or fails at the deadline. */
  async waitForInboundBytes(key: string, min = 0, timeoutMs = 10_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const bytes = await this.inboundBytes(key);
      if (bytes > min) return bytes;
      if (Date.now() > deadline) throw new Error(`session ${key}: inbound audio bytes still ${bytes} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  dtmf(key: string, tones: string): Promise<void> {
    return this.page.evaluate(([k, t]) => window.sipPage.dtmf(k, t), [key, tones] as const);
  }

  setIncoming(mode: 'answer' | 'busy' | 'decline' | 'ring'): Promise<void> {
    return this.page.evaluate((m) => window.sipPage.setIncoming(m), mode);
  }

  sendTone(key: string, hz: number): Promise<void> {
    return this.page.evaluate(([k, h]) => window.sipPage.sendTone(k, h), [key, hz] as const);
  }

  receivedPeak(key: string): Promise<{ hz: number; db: number }> {
    return this.page.evaluate((k) => window.sipPage.receivedPeak(k), key);
  }

  hangup(key: string): Promise<void> {
    return this.page.evaluate((k) => window.sipPage.hangup(k), key);
  }

  async close(): Promise<void> {
    await this.page.evaluate(() => window.sipPage.stop()).catch(() => undefined);
    await this.page.context().close();
  }
}

/** Phones of signed-in users in one Chromium: what the call tests start with. */
export interface SignedInPhones {
  phones: Record<string, SipPage>;
  tokens: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Signs `users` in to the API, and registers a phone for each of them (time-limited SIP
 * credentials from the API, JsSIP in its own page). `close` ends the pages and the browser.
 */
export async function signedInPhones(
  api: { origin: string; login(user: string): Promise<string>; get<T>(path: string, token: string): Promise<T> },
  users: readonly string[],
): Promise<SignedInPhones> {
  const chrome = await launchChromium();
  const phones: Record<string, SipPage> = {};
  const tokens: Record<string, string> = {};
  const close = async () => {
    for (const p of Object.values(phones)) await p.close().catch(() => undefined);
    await chrome.close();
    killGroup(chrome.pid);
  };
  try {
    for (const u of users) {
      tokens[u] = await api.login(u);
      const creds = await api.get<{ ws_url: string; uri: string; authorization_user: string; password: string }>('/v1/sip-credentials', tokens[u]!);
      const page = await SipPage.open(chrome.browser, api.origin);
      await page.register({ wsUrl: creds.ws_url, uri: creds.uri, authorization_user: creds.authorization_user, password: creds.password });
      phones[u] = page;
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { phones, tokens, close };
}

/**
 * echo_test_rtt_ms: the round trip that "Test connection" itself reports, on loopback, through the
 * real product: the built client served by the real API server, the real Kamailio, rtpengine and
 * echo phone (baresip's echo module), Debian's chromium. Alice runs Test connection from the palette
 * by keyboard; the figure is read from the result toast ("Round trip N ms"): how late the
 * microphone's sound (Chromium's fake device beeps) came back from the echo number, matched by
 * cross-correlating the two loudness envelopes on one audio clock. It includes both jitter buffers,
 * G.711 packetisation both ways and the echo phone's own buffering, which is most of it on loopback;
 * the network part (ICE currentRoundTripTime, browser ↔ rtpengine) reads 0–1 ms here. The median
 * over ROUNDS tests is printed. Measured 2026-11-27 (2 cores shared with other agents): 155–187 ms,
 * median 168. Ports: base 47000, API 47080 (UC_BENCH_ECHO_PORT_BASE
 * moves both).
 */
import { expect } from '@playwright/test';
import { login } from './calls';
import { percentile, round1 } from './measure';
import { withBenchStack } from './stack';

const ROUNDS = 5;
const PORT_BASE = Number(process.env.UC_BENCH_ECHO_PORT_BASE || 47000);
const API_PORT = PORT_BASE + 80;
const SERVICES = ['rtpengine', 'kamailio', 'echo'] as const;
const FIGURES = /Round trip ([\d.]+) ms, jitter ([\d.]+) ms, packet loss ([\d.]+)%/;

export async function benchEcho(): Promise<Record<string, number>> {
  return withBenchStack({ name: 'echo', portBase: PORT_BASE, apiPort: API_PORT, services: SERVICES }, async (stack) => {
    const page = await (await stack.newContext()).newPage();
    await login(page, 'alice');
    // Result toasts already read are marked, so that each round waits for its own.
    const fresh = page.getByRole('region', { name: 'Notifications' }).getByText(FIGURES).and(page.locator(':not([data-bench-read])'));
    const rtts: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      await page.keyboard.press('Control+k');
      await page.keyboard.type('test connection');
      await expect(page.getByRole('option', { name: /^Test connection/ })).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('Enter');
      await expect(fresh).toHaveCount(1, { timeout: 20_000 });
      const text = (await fresh.textContent()) ?? '';
      await fresh.evaluate((el) => el.setAttribute('data-bench-read', ''));
      const m = FIGURES.exec(text);
      if (!m) throw new Error(`Test connection reported no round trip: ${text}`);
      if (process.env.UC_BENCH_VERBOSE) console.log(`test connection ${i}: ${text}`);
      rtts.push(Number(m[1]));
    }
    return { echo_test_rtt_ms: round1(percentile(rtts, 50)) };
  });
}

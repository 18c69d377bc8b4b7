/**
 * Debian's Chromium (Playwright cannot download its own here) and the flags every launch needs:
 * fake media devices granted without a prompt (calls), and nothing that reaches for the network.
 * Shared by Playwright, the SIP integration tests and the benchmarks.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

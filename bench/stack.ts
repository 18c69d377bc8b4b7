/**
 * What a browser benchmark runs against: the client as it is now (built into a folder of its own),
 * the real servers it needs and the API server on the benchmark's own ports, and Debian's chromium.
 * Everything is stopped afterwards; the runtime folder (logs) is kept when something went wrong.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium';
import { readServicesConfig, removeRuntimeDir, type ServiceName } from '../server/services/layout';
import { startServices, stopServices } from '../server/services/manager';
import { startApi, stopApi } from './apiServer';

export interface BenchStackOptions {
  /** Names the folder under runtime/ (bench-<name>). */
  name: string;
  portBase: number;
  apiPort: number;
  services: readonly ServiceName[];
}

export interface BenchStack {
  origin: string;
  /** A browser context of its own (cookies, storage), with `init` run in every page before its scripts. */
  newContext(init?: string): Promise<BrowserContext>;
}

export async function withBenchStack<T>(o: BenchStackOptions, work: (stack: BenchStack) => Promise<T>): Promise<T> {
  const root = resolve(import.meta.dirname, '..');
  const benchDir = join(root, 'runtime', `bench-${o.name}`);
  const distDir = join(benchDir, 'dist');
  mkdirSync(benchDir, { recursive: true });
  // The client as it is now, built into a folder of its own (others may be using dist/).
  // UC_BENCH_NO_MINIFY=1: readable function names in CPU profiles (UC_BENCH_PROFILE).
  const minify = process.env.UC_BENCH_NO_MINIFY ? ['--minify', 'false'] : [];
  execFileSync('npx', ['vite', 'build', '--logLevel', 'error', '--outDir', distDir, '--emptyOutDir', ...minify], { cwd: root, stdio: 'inherit' });
  const runtimeDir = mkdtempSync(join(benchDir, 'run-'));
  const origin = `http://127.0.0.1:${o.apiPort}`;
  const cfg = readServicesConfig({ UC_PORT_BASE: String(o.portBase), UC_API_PORT: String(o.apiPort), UC_ORIGINS: origin }, runtimeDir);
  let api: ChildProcess | undefined;
  let browser: Browser | undefined;
  let ok = false;
  try {
    await startServices(cfg, o.services);
    api = await startApi({ root, runtimeDir, distDir, portBase: o.portBase, apiPort: o.apiPort });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const b = browser;
    const result = await work({
      origin,
      async newContext(init) {
        const c = await b.newContext({ baseURL: origin, locale: 'en-US', timezoneId: 'UTC' });
        if (init) await c.addInitScript({ content: init });
        return c;
      },
    });
    ok = true;
    return result;
  } finally {
    await browser?.close().catch(() => undefined);
    if (api) await stopApi(api);
    await stopServices(cfg, [...o.services]);
    if (ok) removeRuntimeDir(runtimeDir);
  }
}

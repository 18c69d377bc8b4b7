import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { E2E_PORT } from '../playwright.config';
import { readServicesConfig, SERVICE_NAMES, type ServiceName, type ServicesConfig } from '../server/services/layout';
import { startServices, stopServices } from '../server/services/manager';

const root = resolve(import.meta.dirname, '..');
/** Per port, so that two suites on different ports (UC_E2E_PORT, UC_E2E_PORT_BASE) never share it. */
export const STATE_FILE = join(root, 'runtime', `e2e-server-${E2E_PORT}.json`);
/** The e2e suite's own ports for ejabberd, Kamailio and rtpengine (product 15000, integration 25000). */
export const E2E_PORT_BASE = Number(process.env.UC_E2E_PORT_BASE ?? 26000);

/** UC_E2E_SERVICES: which real servers to start (comma-separated, `none` for none; default all). */
export function e2eServices(): ServiceName[] {
  const raw = process.env.UC_E2E_SERVICES;
  if (!raw) return [...SERVICE_NAMES];
  return raw.split(',').map((n) => n.trim()).filter((n): n is ServiceName => (SERVICE_NAMES as readonly string[]).includes(n));
}

/** The suite's environment for the servers: its ports and the page origins ejabberd must accept. */
function e2eEnv(): NodeJS.ProcessEnv {
  const origins = `http://127.0.0.1:${E2E_PORT},http://localhost:${E2E_PORT}`;
  // Store links for the mobile download page (the demo has no published app, so `npm start` sets none).
  const stores = { UC_MOBILE_IOS_URL: 'https://apps.apple.com/app/id000000000', UC_MOBILE_ANDROID_URL: 'https://play.google.com/store/apps/details?id=example.uc' };
  // UC_CLUSTER=1: the second nodes too, and an API that uses them (the cluster needs PostgreSQL, which this setup does not start yet).
  const cluster = process.env.UC_CLUSTER === '1' ? { UC_CLUSTER: '1' } : {};
  return { UC_PORT_BASE: String(E2E_PORT_BASE), UC_API_PORT: String(E2E_PORT), UC_ORIGINS: origins, ...stores, ...cluster };
}

/** The real servers' configuration exactly as the global setup started them (a test restarting one gets the same). */
export function e2eServicesConfig(runtimeDir: string): ServicesConfig {
  return readServicesConfig(e2eEnv(), runtimeDir);
}

export interface E2eState {
  pid: number;
  runtimeDir: string;
  portBase: number;
  services: ServiceName[];
  /** Started with UC_CLUSTER=1: the second nodes run too, and the teardown must stop them. */
  cluster?: boolean;
}

/**
 * Once for the whole suite: the real servers (ejabberd, Kamailio, rtpengine) and the real API
 * server, on their own ports on 127.0.0.1, with a fresh runtime folder and database.
 */
export default async function globalSetup(): Promise<void> {
  mkdirSync(join(root, 'runtime'), { recursive: true });
  const runtimeDir = mkdtempSync(join(root, 'runtime', 'e2e-'));
  const env = e2eEnv();
  const services = e2eServicesConfig(runtimeDir);
  const names = e2eServices();
  if (names.length) {
    await stopServices(services, names).catch(() => undefined);
    await startServices(services, names);
  }

  const log = openSync(join(runtimeDir, 'server.out'), 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env, UC_HOST: '127.0.0.1', UC_RUNTIME_DIR: runtimeDir, DATABASE_URL: '' },
    stdio: ['ignore', log, log],
    detached: true,
  });
  child.unref();
  const state: E2eState = { pid: child.pid!, runtimeDir, portBase: E2E_PORT_BASE, services: names, cluster: services.cluster };
  writeFileSync(STATE_FILE, JSON.stringify(state));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`API server exited with ${child.exitCode}; see ${runtimeDir}/server.out`);
    try {
      const res = await fetch(`http://127.0.0.1:${E2E_PORT}/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`API server not ready after 90 s; see ${runtimeDir}/server.out`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

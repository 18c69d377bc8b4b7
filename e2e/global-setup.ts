import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { E2E_PORT } from '../playwright.config';

const root = resolve(import.meta.dirname, '..');
export const STATE_FILE = join(root, 'runtime', 'e2e-server.json');

/** Starts the real API server (fresh database, own port, 127.0.0.1) once for the whole suite. */
export default async function globalSetup(): Promise<void> {
  mkdirSync(join(root, 'runtime'), { recursive: true });
  const runtimeDir = mkdtempSync(join(root, 'runtime', 'e2e-'));
  const log = openSync(join(runtimeDir, 'server.out'), 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, UC_API_PORT: String(E2E_PORT), UC_HOST: '127.0.0.1', UC_RUNTIME_DIR: runtimeDir, DATABASE_URL: '' },
    stdio: ['ignore', log, log],
    detached: true,
  });
  child.unref();
  writeFileSync(STATE_FILE, JSON.stringify({ pid: child.pid, runtimeDir }));
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

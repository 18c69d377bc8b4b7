import { readFileSync, rmSync } from 'node:fs';
import { STATE_FILE } from './global-setup';

/** Stops the suite's API server by its PID and removes its throwaway runtime folder. */
export default async function globalTeardown(): Promise<void> {
  let state: { pid: number; runtimeDir: string };
  try {
    state = JSON.parse(readFileSync(STATE_FILE, 'utf8')) as { pid: number; runtimeDir: string };
  } catch {
    return;
  }
  try {
    process.kill(state.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    try {
      process.kill(state.pid, 0);
      await new Promise((r) => setTimeout(r, 100));
    } catch {
      break;
    }
  }
  try {
    process.kill(state.pid, 'SIGKILL');
  } catch {
    /* stopped cleanly */
  }
  if (!process.env.UC_KEEP_E2E_RUNTIME) rmSync(state.runtimeDir, { recursive: true, force: true });
  rmSync(STATE_FILE, { force: true });
}

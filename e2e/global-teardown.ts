import { readFileSync, rmSync } from 'node:fs';
import { readServicesConfig, removeRuntimeDir } from '../server/services/layout';
import { stopServices } from '../server/services/manager';
import { STATE_FILE, type E2eState } from './global-setup';

/** Stops the suite's API server and real servers by their PIDs and removes the throwaway runtime folder. */
export default async function globalTeardown(): Promise<void> {
  let state: E2eState;
  try {
    state = JSON.parse(readFileSync(STATE_FILE, 'utf8')) as E2eState;
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
  if (state.services.length) await stopServices({ ...readServicesConfig({ UC_PORT_BASE: String(state.portBase) }, state.runtimeDir), cluster: !!state.cluster }, state.services);
  if (!process.env.UC_KEEP_E2E_RUNTIME) removeRuntimeDir(state.runtimeDir);
  rmSync(STATE_FILE, { force: true });
}

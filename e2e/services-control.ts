import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { serviceDirs, type ServiceName } from '../server/services/layout';
import { startServices } from '../server/services/manager';
import { isAlive, readPid } from '../server/services/proc';
import { e2eServicesConfig, STATE_FILE, type E2eState } from './global-setup';

/*
 * A journey that needs one of the suite's real servers to die and come back (a crash, an upgrade):
 * it is killed by the PID the project's scripts recorded and started again by the same manager, on
 * the same ports, with the same configuration and data. Nothing else is touched.
 */

function suite(): { state: E2eState; cfg: ReturnType<typeof e2eServicesConfig> } {
  const state = JSON.parse(readFileSync(STATE_FILE, 'utf8')) as E2eState;
  return { state, cfg: e2eServicesConfig(state.runtimeDir) };
}

/** The suite's real servers as configured (ports, XMPP domain): for a peer that talks to them directly. */
export const suiteServicesConfig = () => suite().cfg;

const groupAlive = (pgid: number) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * SIGKILL, as a crash or the OOM killer would (no clean shutdown), to the process group the scripts
 * started under the recorded PID: for ejabberd that is `ejabberdctl foreground` AND the Erlang VM
 * it runs, which is the server itself. Resolves once every process of the group is gone.
 */
export async function killService(name: ServiceName): Promise<number> {
  const { state, cfg } = suite();
  expect(state.services, `the suite started ${name}`).toContain(name);
  const pid = await readPid(join(serviceDirs(cfg.runtimeDir, name).run, `${name}.pid`));
  expect(pid, `${name} has a PID file`).toBeTruthy();
  process.kill(-pid!, 'SIGKILL');
  await expect.poll(() => isAlive(pid!) || groupAlive(pid!), { timeout: 10_000 }).toBe(false);
  return pid!;
}

/** Starts it again through the project's manager; resolves when it answers (its readiness probe). */
export async function startService(name: ServiceName): Promise<void> {
  const [status] = await startServices(suite().cfg, [name]);
  expect(status?.ready).toBe(true);
}

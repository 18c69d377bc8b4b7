import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { CLUSTER_ONLY_SERVICES, readServicesConfig, removeRuntimeDir, SERVICE_NAMES, type ServiceName, type ServicesConfig } from '../../server/services/layout';
import { startServices, stopServices } from '../../server/services/manager';
import { TEST_PORT_BASE } from '../../server/services/ports';

declare module 'vitest' {
  export interface ProvidedContext {
    servicesConfig: ServicesConfig;
  }
}

const root = path.resolve(import.meta.dirname, '..', '..');

/**
 * A run of only some servers (while working on one side) gets a port base and folder of its own,
 * so that two such runs side by side (SIP tests next to XMPP tests) never stop or wipe each other.
 */
function subsetPortBase(names: readonly ServiceName[]): number {
  if (SERVICE_NAMES.every((n) => names.includes(n))) return TEST_PORT_BASE;
  const mask = SERVICE_NAMES.reduce((m, n, i) => (names.includes(n) ? m | (1 << i) : m), 0);
  return 40_000 + mask * 1000;
}

/**
 * Fresh runtime folder, the test port plan, the services started and ready.
 * UC_TEST_PORT_BASE lets two runs coexist (each its own ports and folder); UC_TEST_SERVICES
 * (comma-separated) starts only some services while working on one.
 */
export default async function setup(project: TestProject) {
  const names = (process.env.UC_TEST_SERVICES || SERVICE_NAMES.join(',')).split(',').map((n) => n.trim()) as ServiceName[];
  const base = Number(process.env.UC_TEST_PORT_BASE || subsetPortBase(names));
  const runtimeDir = path.join(root, 'runtime', `test-services-${base}`);
  const cfg = readServicesConfig(
    {
      UC_PORT_BASE: String(base),
      UC_API_PORT: String(base + 80),
      UC_ORIGINS: `http://127.0.0.1:${base + 80},http://localhost:${base + 80}`,
    },
    runtimeDir,
  );
  // A previous run killed midway may have left servers behind: stop them by their PID files first,
  // the second nodes a cluster test started too (their PID files go with the folder below).
  await stopServices({ ...cfg, cluster: true }, [...names, ...CLUSTER_ONLY_SERVICES]).catch(() => undefined);
  removeRuntimeDir(runtimeDir);
  await startServices(cfg, names, (line) => console.log(`[services] ${line}`));
  project.provide('servicesConfig', cfg);
  return async () => {
    await stopServices(cfg, names);
  };
}

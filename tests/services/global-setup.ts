import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { readServicesConfig, SERVICE_NAMES, type ServiceName, type ServicesConfig } from '../../server/services/layout';
import { startServices, stopServices } from '../../server/services/manager';
import { TEST_PORT_BASE } from '../../server/services/ports';

declare module 'vitest' {
  export interface ProvidedContext {
    servicesConfig: ServicesConfig;
  }
}

const root = path.resolve(import.meta.dirname, '..', '..');

/**
 * Fresh runtime folder, the test port plan, the services started and ready.
 * UC_TEST_PORT_BASE lets two runs coexist (each its own ports and folder); UC_TEST_SERVICES
 * (comma-separated) starts only some services while working on one.
 */
export default async function setup(project: TestProject) {
  const base = Number(process.env.UC_TEST_PORT_BASE || TEST_PORT_BASE);
  const names = (process.env.UC_TEST_SERVICES || SERVICE_NAMES.join(',')).split(',').map((n) => n.trim()) as ServiceName[];
  const runtimeDir = path.join(root, 'runtime', `test-services-${base}`);
  const cfg = readServicesConfig(
    {
      UC_PORT_BASE: String(base),
      UC_API_PORT: String(base + 80),
      UC_ORIGINS: `http://127.0.0.1:${base + 80},http://localhost:${base + 80}`,
    },
    runtimeDir,
  );
  // A previous run killed midway may have left servers behind: stop them by their PID files first.
  await stopServices(cfg, names).catch(() => undefined);
  await rm(runtimeDir, { recursive: true, force: true });
  await startServices(cfg, names, (line) => console.log(`[services] ${line}`));
  project.provide('servicesConfig', cfg);
  return async () => {
    await stopServices(cfg, names);
  };
}

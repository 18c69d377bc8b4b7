/*
 * `npm run maintenance -- on [message]` / `npm run maintenance -- off`: switches the demo's
 * maintenance mode for the running API (the runtime folder's maintenance.json) and tells every
 * connected client to check at once. UC_RUNTIME_DIR and UC_PORT_BASE as for the server.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readServicesConfig } from '../services/layout';
import { broadcastMaintenanceCheck, writeMaintenance } from './maintenance';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const [mode, ...words] = process.argv.slice(2);
if (mode !== 'on' && mode !== 'off') {
  console.error('usage: npm run maintenance -- on [message] | off');
  process.exit(2);
}
const runtimeDir = path.resolve(process.env.UC_RUNTIME_DIR || path.join(repoRoot, 'runtime'));
await writeMaintenance(runtimeDir, mode === 'on', words.join(' ') || undefined);
console.log(`maintenance ${mode} (${path.join(runtimeDir, 'maintenance.json')})`);
try {
  const told = await broadcastMaintenanceCheck(readServicesConfig(process.env, runtimeDir));
  console.log(`told ${told} signed-in user(s) to check`);
} catch (err) {
  // The switch holds anyway: clients check at their next start.
  console.warn('could not reach ejabberd to tell the connected clients:', err instanceof Error ? err.message : err);
}

import { readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { HEADLINE_DELAY_MS, MAINTENANCE_SUBJECT } from '../../src/wire/frame';
import type { ServicesConfig } from '../services/layout';
import { xmppApi } from '../services/xmpp-api';

/**
 * Maintenance is a file in the runtime (data) folder: the command line writes it, the running API
 * reads it at each check, so no restart and no shared database connection are needed (PGlite
 * allows one process only).
 */
export const maintenanceFile = (runtimeDir: string) => path.join(runtimeDir, 'maintenance.json');

export const DEFAULT_MAINTENANCE_MESSAGE = 'The service is under maintenance. Please sign in again later.';

export interface MaintenanceState {
  message: string;
  since: string;
}

export async function readMaintenance(runtimeDir: string): Promise<MaintenanceState | null> {
  let text: string;
  try {
    text = await readFile(maintenanceFile(runtimeDir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  // A file edited by hand into something unreadable still means "under maintenance".
  try {
    const parsed = JSON.parse(text) as Partial<MaintenanceState>;
    return { message: typeof parsed.message === 'string' && parsed.message ? parsed.message : DEFAULT_MAINTENANCE_MESSAGE, since: String(parsed.since ?? '') };
  } catch {
    return { message: DEFAULT_MAINTENANCE_MESSAGE, since: '' };
  }
}

export async function writeMaintenance(runtimeDir: string, on: boolean, message = DEFAULT_MAINTENANCE_MESSAGE, now = new Date()): Promise<void> {
  if (!on) return rm(maintenanceFile(runtimeDir), { force: true });
  await mkdir(runtimeDir, { recursive: true });
  const state: MaintenanceState = { message, since: now.toISOString() };
  await writeFile(maintenanceFile(runtimeDir), JSON.stringify(state) + '\n');
}

/**
 * Tells every connected client to run its maintenance check: one XMPP headline per signed-in user
 * (ejabberd gives a headline to each of the user's connected resources), sent after the
 * specification's 666 ms broadcast delay. Answers how many users were told.
 */
export async function broadcastMaintenanceCheck(services: Pick<ServicesConfig, 'ports' | 'domain'>, delay = (ms: number) => new Promise((r) => setTimeout(r, ms))): Promise<number> {
  await delay(HEADLINE_DELAY_MS);
  const api = xmppApi(services);
  const sessions = await api.call<string[]>('connected_users');
  const users = [...new Set(sessions.map((jid) => jid.split('/')[0]!))];
  await Promise.all(users.map((to) => api.call('send_message', { type: 'headline', from: services.domain, to, subject: MAINTENANCE_SUBJECT, body: '{}' })));
  return users.length;
}

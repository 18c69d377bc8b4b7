import type { ClientLogStore } from './coreServices';

let store: Promise<ClientLogStore> | null = null;
// IndexedDB, redaction and the file format are a chunk of their own: the first screen carries only
// this handle, and lines logged meanwhile wait in log.ts.
const load = () => (store ??= import('./clientLogStore/start').then((m) => m.startClientLog()));

/**
 * The page's client log (the `LogStore` core service). `start()` loads the log chunk, after the
 * first screen; until then lines wait in memory. Any other call starts it too.
 */
export const clientLog: ClientLogStore & { start(): Promise<void> } = {
  start: () => load().then(() => undefined),
  settings: () => load().then((s) => s.settings()),
  setLevel: (level) => load().then((s) => s.setLevel(level)),
  setMaxSizeMb: (input) => load().then((s) => s.setMaxSizeMb(input)),
  download: () => load().then((s) => s.download()),
  clear: () => load().then((s) => s.clear()),
  persistent: () => load().then((s) => s.persistent()),
};

import { attachLogSink } from '../log';
import { idbBackend, memoryBackend, openIdb } from './backends';
import { browserSettingsStorage } from './settings';
import { createClientLog, type ClientLog } from './store';

/**
 * The page's client log: IndexedDB where the browser allows it, memory where it does not; the
 * lines logged before it was in are written first. Pending lines are written when the page goes
 * to the background or away, since a closed tab runs no timer.
 */
export async function startClientLog(factory: IDBFactory | undefined = globalThis.indexedDB): Promise<ClientLog> {
  const db = await openIdb(factory);
  const log = createClientLog({ backend: db ? idbBackend(db) : memoryBackend(), storage: browserSettingsStorage() });
  attachLogSink(log);
  if (typeof addEventListener === 'function') {
    addEventListener('pagehide', () => void log.flush());
    addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') void log.flush();
    });
  }
  return log;
}

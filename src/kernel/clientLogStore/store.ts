import type { ClientLogStore, LogSettings } from '../coreServices';
import type { LogEntry, LogLevel, LogSink } from '../log';
import type { LogBackend } from './backends';
import { formatLine, logFileName, toStoredLine, type StoredLine } from './line';
import { enteredMaxSizeMb, isLogLevel, LEVEL_KEY, levelRank, MAX_SIZE_KEY, storedLevel, storedMaxSizeMb, type SettingsStorage } from './settings';

/** How long lines wait in memory before they are written (one transaction a second at most). */
export const FLUSH_DELAY_MS = 1000;
/** Lines waiting past this (the database is stuck) lose their oldest. */
const PENDING_MAX = 5000;
const MB = 1024 * 1024;

export interface ClientLogOptions {
  backend: LogBackend;
  storage: SettingsStorage;
  now?: () => Date;
}

export type ClientLog = ClientLogStore & LogSink & { flush(): Promise<void> };

/** The client log: level filter, redaction, batched writes to the backend, the panel's calls. */
export function createClientLog({ backend, storage, now = () => new Date() }: ClientLogOptions): ClientLog {
  const read = (): LogSettings => ({ level: storedLevel(storage.getItem(LEVEL_KEY)), maxSizeMb: storedMaxSizeMb(storage.getItem(MAX_SIZE_KEY)) });
  let { level, maxSizeMb } = read();
  let pending: StoredLine[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let writing: Promise<void> = Promise.resolve();
  let warned = false;

  // The log's own trouble goes to the console only: through a Logger it would come back here.
  const warnOnce = (err: unknown) => {
    if (warned) return;
    warned = true;
    console.warn('client log: lines could not be kept', err);
  };

  const flush = (): Promise<void> => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const lines = pending;
    pending = [];
    const cap = maxSizeMb * MB;
    writing = writing.then(() => (lines.length ? backend.append(lines, cap).catch(warnOnce) : undefined));
    return writing;
  };

  return {
    write(entry: LogEntry) {
      if (levelRank(entry.level) < levelRank(level)) return;
      if (pending.push(toStoredLine(entry)) > PENDING_MAX) pending.shift();
      timer ??= setTimeout(() => void flush(), FLUSH_DELAY_MS);
    },
    flush,
    async settings() {
      return read();
    },
    async setLevel(next: LogLevel) {
      if (!isLogLevel(next)) throw new RangeError(`not a log level: ${String(next)}`);
      level = next;
      storage.setItem(LEVEL_KEY, next);
    },
    async setMaxSizeMb(input) {
      const mb = enteredMaxSizeMb(input);
      if (mb === null) throw new RangeError('the log size is a whole number of MB');
      maxSizeMb = mb;
      storage.setItem(MAX_SIZE_KEY, String(mb));
      await flush();
      await (writing = writing.then(() => backend.trim(mb * MB).catch(warnOnce)));
      return mb;
    },
    async download() {
      await flush();
      const lines = await backend.all();
      const text = lines.map((l) => `${formatLine(l)}\n`).join('');
      return new File([text], logFileName(now()), { type: 'text/plain;charset=utf-8' });
    },
    async clear() {
      pending = [];
      await flush();
      await (writing = writing.then(() => backend.clear().catch(warnOnce)));
    },
    async persistent() {
      return backend.persistent;
    },
  };
}

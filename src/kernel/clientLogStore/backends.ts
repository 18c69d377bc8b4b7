import type { StoredLine } from './line';

/** Where kept lines live. `append` and `trim` drop the oldest lines until the total fits `capBytes`. */
export interface LogBackend {
  readonly persistent: boolean;
  append(lines: readonly StoredLine[], capBytes: number): Promise<void>;
  trim(capBytes: number): Promise<void>;
  all(): Promise<StoredLine[]>;
  clear(): Promise<void>;
}

/** For a browser that keeps nothing (IndexedDB refused): the same cap, for this page only. */
export function memoryBackend(): LogBackend {
  let lines: StoredLine[] = [];
  let total = 0;
  const trim = (cap: number) => {
    let drop = 0;
    while (total > cap && drop < lines.length) total -= lines[drop++]!.size;
    if (drop) lines = lines.slice(drop);
  };
  return {
    persistent: false,
    async append(more, cap) {
      for (const l of more) {
        lines.push(l);
        total += l.size;
      }
      trim(cap);
    },
    async trim(cap) {
      trim(cap);
    },
    async all() {
      return [...lines];
    },
    async clear() {
      lines = [];
      total = 0;
    },
  };
}

const DB_NAME = 'uc-client-log';
const LINES = 'lines';
const META = 'meta';
const TOTAL = 'totalBytes';

const done = (tx: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });

/**
 * The database, or null where the browser refuses it (private modes, storage off, no IndexedDB).
 * Lines are keyed by an auto-increment number, so key order is the order they were written in and
 * the oldest are the first a cursor meets; the running byte total sits beside them in `meta`,
 * updated in the same transaction, so that several tabs writing at once keep it right.
 */
export function openIdb(factory: IDBFactory | undefined = globalThis.indexedDB, name = DB_NAME): Promise<IDBDatabase | null> {
  return new Promise((resolve) => {
    if (!factory) return resolve(null);
    let req: IDBOpenDBRequest;
    try {
      req = factory.open(name, 1);
    } catch {
      return resolve(null);
    }
    req.onupgradeneeded = () => {
      const db = req.result;
      db.createObjectStore(LINES, { autoIncrement: true });
      db.createObjectStore(META);
    };
    req.onsuccess = () => {
      const db = req.result;
      // A later version of the page wants the database: let it have it.
      db.onversionchange = () => db.close();
      resolve(db);
    };
    req.onerror = () => resolve(null);
    req.onblocked = () => resolve(null);
  });
}

export function idbBackend(db: IDBDatabase): LogBackend {
  /** Within `tx`: adds nothing, drops oldest lines while `total` is over the cap; answers the new total. */
  const dropOldest = (tx: IDBTransaction, total: number, cap: number, then: (total: number) => void) => {
    if (total <= cap) return then(total);
    const cursor = tx.objectStore(LINES).openCursor();
    cursor.onsuccess = () => {
      const c = cursor.result;
      if (!c || total <= cap) return then(Math.max(0, total));
      total -= (c.value as StoredLine).size;
      c.delete();
      c.continue();
    };
  };
  const write = (lines: readonly StoredLine[], cap: number) => {
    const tx = db.transaction([LINES, META], 'readwrite');
    const finished = done(tx);
    const meta = tx.objectStore(META);
    const get = meta.get(TOTAL);
    get.onsuccess = () => {
      let total = typeof get.result === 'number' ? get.result : 0;
      const store = tx.objectStore(LINES);
      for (const l of lines) {
        store.add(l);
        total += l.size;
      }
      dropOldest(tx, total, cap, (t) => meta.put(t, TOTAL));
    };
    return finished;
  };
  return {
    persistent: true,
    append: (lines, cap) => write(lines, cap),
    trim: (cap) => write([], cap),
    async all() {
      const tx = db.transaction(LINES, 'readonly');
      const req = tx.objectStore(LINES).getAll();
      await done(tx);
      return req.result as StoredLine[];
    },
    clear() {
      const tx = db.transaction([LINES, META], 'readwrite');
      tx.objectStore(LINES).clear();
      tx.objectStore(META).clear();
      return done(tx);
    },
  };
}

import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Db, Queryable } from './types';
import { acquireDirLock } from './dir-lock';

export const PGLITE_MEMORY = 'memory://';

/** Embedded Postgres: `memory://` for throwaway databases, otherwise a data folder on disk. */
export async function openPglite(dataDir: string): Promise<Db> {
  const inMemory = dataDir === PGLITE_MEMORY;
  // PGlite is single-process: a second server on the same folder would corrupt it.
  const releaseLock = inMemory ? async () => {} : await prepareFolder(dataDir);
  let pg: PGlite;
  try {
    pg = await PGlite.create({ dataDir: inMemory ? undefined : dataDir, extensions: { pg_trgm, btree_gin } });
  } catch (err) {
    await releaseLock();
    throw err;
  }
  const wrap = (target: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      const res = await target.query<T>(sql, params);
      return { rows: res.rows };
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
  });
  return {
    kind: 'pglite',
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    async close() {
      try {
        await pg.close();
      } finally {
        await releaseLock();
      }
    },
  };
}

async function prepareFolder(dataDir: string): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  return acquireDirLock(`${dataDir}.lock`);
}

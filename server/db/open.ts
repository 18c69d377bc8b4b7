import path from 'node:path';
import type { Db } from './types';
import { openPglite, PGLITE_MEMORY } from './pglite';
import { openPostgres } from './postgres';

/**
 * `DATABASE_URL` postgres://… → real PostgreSQL; `memory://` → throwaway PGlite;
 * unset → PGlite persisted under `<runtimeDir>/db/pglite`.
 */
export function openDb(opts: { databaseUrl?: string; runtimeDir: string }): Promise<Db> {
  const url = opts.databaseUrl?.trim();
  if (url === PGLITE_MEMORY) return openPglite(PGLITE_MEMORY);
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) throw new Error('DATABASE_URL must be postgres://…, postgresql://… or memory://');
    return openPostgres(url);
  }
  return openPglite(path.join(opts.runtimeDir, 'db', 'pglite'));
}

export type { Db, Queryable } from './types';

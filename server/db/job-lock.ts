import type { Db } from './types';

/** Keys of the jobs that must run on one API process at a time (PostgreSQL advisory locks, one key space). */
export const JOB_LOCKS = { feedRefresh: 7_312_101 } as const;

/**
 * Runs `work` unless another API process sharing the database is running the same job: then
 * answers null at once rather than waiting, as a timer's tick has nothing to add to one in progress.
 * The lock is PostgreSQL's (a transaction-level advisory lock held while `work` runs; `work` uses
 * the pool as usual), so a process that dies mid-job frees it with its connection. PGlite admits one
 * process, which holds every lock by definition (and its one connection cannot sit in a transaction
 * while `work` queries).
 */
export async function runAlone<T>(db: Db, key: number, work: () => Promise<T>): Promise<T | null> {
  if (db.kind === 'pglite') return work();
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS got', [key]);
    return rows[0]?.got ? work() : null;
  });
}

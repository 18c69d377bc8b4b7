import type { Queryable } from '../db/types';

/** Resolves when the database answers a trivial statement; rejects with the driver's error otherwise. */
export async function pingDatabase(db: Queryable): Promise<void> {
  await db.query('SELECT 1');
}

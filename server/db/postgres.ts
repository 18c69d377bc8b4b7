import pg from 'pg';
import type { Db, Queryable } from './types';

/** Real PostgreSQL through a pool; the same SQL as PGlite. */
export async function openPostgres(connectionString: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: 10, application_name: 'uc-api' });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  await pool.query('select 1');
  const wrap = (target: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      const res = await target.query(sql, params);
      return { rows: res.rows as T[] };
    },
    async exec(sql: string) {
      await target.query(sql);
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

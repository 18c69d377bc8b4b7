import { readFile } from 'node:fs/promises';
import pg from 'pg';

const SCHEMA = '/usr/share/ejabberd/sql/pg.sql';

export interface PgTarget {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
}

/**
 * With DATABASE_URL, ejabberd keeps its accounts, archive and rooms in PostgreSQL too, in a
 * database of its own next to the API's (`<name>_xmpp`): its schema is ejabberd's, not ours.
 */
export function ejabberdPgDatabase(databaseUrl: string): PgTarget {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres';
  return {
    host: url.hostname || '127.0.0.1',
    port: Number(url.port || 5432),
    database: `${name}_xmpp`,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  };
}

/** Creates ejabberd's database and loads Debian's schema into it the first time. */
export async function preparePgDatabase(databaseUrl: string): Promise<void> {
  const target = ejabberdPgDatabase(databaseUrl);
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [target.database]);
    if (!exists.rowCount) await admin.query(`CREATE DATABASE "${target.database.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(target.database)}`;
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  try {
    const has = await db.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'users'`);
    if (!has.rowCount) await db.query(await readFile(SCHEMA, 'utf8'));
  } finally {
    await db.end();
  }
}

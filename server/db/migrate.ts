import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Db } from './types';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const FILE_PATTERN = /^(\d{3})_([a-z0-9_]+)\.sql$/;
// Any constant works; it only has to be the same for every server copy migrating the same database.
const MIGRATION_LOCK_KEY = 7_312_001;

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const match = FILE_PATTERN.exec(file);
    if (!match) throw new Error(`Migration file name must be NNN_name.sql: ${file}`);
    const [, version, name] = match as unknown as [string, string, string];
    if (migrations.some((m) => m.version === version)) throw new Error(`Duplicate migration version ${version}`);
    migrations.push({ version, name, sql: await readFile(`${dir}/${file}`, 'utf8') });
  }
  return migrations;
}

/**
 * Applies pending migrations in order, each in its own transaction. The advisory lock makes
 * concurrent starts of several server copies wait for one another instead of racing.
 * Returns the versions applied by this call.
 */
export async function migrate(db: Db, migrations?: Migration[]): Promise<string[]> {
  const all = migrations ?? (await loadMigrations());
  const applied: string[] = [];
  for (const m of all) {
    const didApply = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version    text PRIMARY KEY,
        name       text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
      if (done.rows.length > 0) return false;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      return true;
    });
    if (didApply) applied.push(m.version);
  }
  return applied;
}

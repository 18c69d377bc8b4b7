import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../server/app';
import { migrate } from '../../server/db/migrate';
import { openPglite, PGLITE_MEMORY } from '../../server/db/pglite';
import { openPostgres } from '../../server/db/postgres';
import type { Db } from '../../server/db/types';
import { DEMO_PASSWORD, seedDemo } from '../../server/seed';

/**
 * Every suite runs on embedded PGlite, and on real PostgreSQL too when UC_TEST_DATABASE_URL is set.
 * UC_TEST_BACKENDS=postgres leaves PGlite out: the full test run has already been through it.
 */
export interface Backend {
  name: 'pglite' | 'postgres';
  open(): Promise<{ db: Db; dispose(): Promise<void> }>;
}

const pgliteBackend: Backend = {
  name: 'pglite',
  async open() {
    const db = await openPglite(PGLITE_MEMORY);
    return { db, dispose: () => db.close() };
  },
};

/** A database of its own per suite and run, so parallel files and repeated runs never see each other's rows. */
function postgresBackend(adminUrl: string): Backend {
  return {
    name: 'postgres',
    async open() {
      const name = `uc_test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const db = await openPostgres(url.toString());
      return {
        db,
        async dispose() {
          await db.close();
          const cleanup = new pg.Client({ connectionString: adminUrl });
          await cleanup.connect();
          await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await cleanup.end();
        },
      };
    },
  };
}

const chosen = process.env.UC_TEST_BACKENDS?.split(',').map((b) => b.trim());
export const backends: Backend[] = [
  pgliteBackend,
  ...(process.env.UC_TEST_DATABASE_URL ? [postgresBackend(process.env.UC_TEST_DATABASE_URL)] : []),
].filter((b) => !chosen || chosen.includes(b.name));
if (backends.length === 0) throw new Error(`UC_TEST_BACKENDS=${process.env.UC_TEST_BACKENDS} names no available backend`);

/** Seeded data is relative to this instant, so assertions never depend on the day the tests run. */
export const SEED_NOW = new Date('2026-03-20T15:00:00Z');

export interface TestServer {
  app: FastifyInstance;
  db: Db;
  runtimeDir: string;
  login(username: string, password?: string): Promise<string>;
  userId(username: string): Promise<number>;
  close(): Promise<void>;
}

export async function startTestServer(backend: Backend, opts: { seed?: boolean; app?: Partial<Omit<AppOptions, 'db' | 'runtimeDir'>> } = {}): Promise<TestServer> {
  const { db, dispose } = await backend.open();
  await migrate(db);
  if (opts.seed ?? true) await seedDemo(db, { now: SEED_NOW });
  const runtimeDir = await mkdtemp(path.join(tmpdir(), 'uc-api-test-'));
  const app = await buildApp({ ...opts.app, db, runtimeDir });
  return {
    app,
    db,
    runtimeDir,
    async login(username, password = DEMO_PASSWORD) {
      const res = await app.inject({ method: 'POST', url: '/login', payload: { username, password } });
      if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
      return res.json().access_token as string;
    },
    async userId(username) {
      const { rows } = await db.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [username]);
      if (!rows[0]) throw new Error(`no user ${username}`);
      return rows[0].id;
    },
    async close() {
      await app.close();
      await dispose();
      await rm(runtimeDir, { recursive: true, force: true });
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A 1×1 PNG: the smallest real image for upload tests. */
export const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

/** A multipart/form-data body with one file, as a browser's FormData would send it. */
export function multipart(field: string, filename: string, type: string, content: Buffer) {
  const boundary = '----uctest' + Math.random().toString(16).slice(2);
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
  const payload = Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

import cluster from 'node:cluster';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { apiProcessCount, apiProcessIndex, superviseApiProcesses } from './cluster';
import { migrate } from './db/migrate';
import { openDb, type Db } from './db/open';
import { seedDemo } from './seed';
import { seedDemoFrame } from './seed-frame';
import { seedDemoMeetings } from './seed-meetings';

const startedAt = performance.now();
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const env = process.env;

function readPort(value: string | undefined): number {
  const port = Number(value ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`UC_API_PORT must be a port number, got "${value}"`);
  return port;
}

let db: Db | undefined;
let app: FastifyInstance | undefined;

async function start() {
  const runtimeDir = path.resolve(env.UC_RUNTIME_DIR || path.join(repoRoot, 'runtime'));
  const host = env.UC_HOST || '127.0.0.1';
  const port = readPort(env.UC_API_PORT);
  const logFile = path.join(runtimeDir, 'logs', 'api.log');
  await mkdir(path.dirname(logFile), { recursive: true });

  db = await openDb({ databaseUrl: env.DATABASE_URL, runtimeDir });
  const migrated = await migrate(db);
  const seedStart = performance.now();
  const seed = await seedDemo(db);
  // A demo database seeded before meetings existed gets the demo meetings with their migration.
  if (!seed.seeded && migrated.includes('042')) await db.transaction((tx) => seedDemoMeetings(tx, Date.now()));
  if (!seed.seeded && migrated.includes('047')) await db.transaction((tx) => seedDemoFrame(tx));
  const seedMs = Math.round(performance.now() - seedStart);

  app = await buildApp({
    db,
    runtimeDir,
    logger: { level: env.UC_LOG_LEVEL || 'info', file: logFile },
    // UC_STATIC_DIR: another build (engineers testing side by side on one machine each build their own).
    staticDir: process.env.UC_STATIC_DIR ? path.resolve(process.env.UC_STATIC_DIR) : path.join(repoRoot, 'dist'),
    // The service phones (voicemail, click-dial) take one control connection each: of a cluster's
    // processes the first drives them.
    voicemail: apiProcessIndex(env) === 1,
  });
  await app.listen({ host, port });
  const address = app.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  console.log(`UC API listening on http://${shownHost}:${boundPort}`);
  app.log.info(
    { db: db.kind, migrated, seed: { ...seed, ms: seedMs }, startupMs: Math.round(performance.now() - startedAt) },
    'ready',
  );
}

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  // A hung close must not keep a supervisor waiting forever.
  setTimeout(() => process.exit(1), 10_000).unref();
  try {
    app?.log.info({ signal }, 'shutting down');
    await app?.close();
    await db?.close();
    process.exit(0);
  } catch (err) {
    console.error('UC API shutdown failed:', err);
    process.exit(1);
  }
}

let processes = 1;
try {
  processes = apiProcessCount(env);
} catch (err) {
  console.error('UC API failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
}

if (processes > 1 && cluster.isPrimary) {
  await superviseApiProcesses(processes);
} else {
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  try {
    await start();
  } catch (err) {
    console.error('UC API failed to start:', err instanceof Error ? err.message : err);
    app?.log.error({ err }, 'startup failed');
    await app?.close().catch(() => {});
    await db?.close().catch(() => {});
    process.exit(1);
  }
}

/**
 * A clone in a folder only root can enter: root's home (where a root user clones by default) or any
 * mkdtemp folder, mode 0700. ejabberd and PostgreSQL drop root's privileges, so their files cannot
 * be inside the clone: `npm start` stopped at "ejabberdctl: Permission denied" and `npm test` could
 * not start PostgreSQL. Here the project's own files are copied under a fresh 0700 folder and its
 * own scripts start the servers from there, on a port plan of their own, stopped by PID after.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_ONLY_SERVICES, readServicesConfig, removeRuntimeDir, SERVICE_NAMES, type ServicesConfig } from '../../server/services/layout';
import { servicesStatus } from '../../server/services/manager';
import { xmppApi } from '../../server/services/xmpp-api';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..', '..');
/** Its own ports (product 15000, services tests 25000, e2e 26000, benches 31000). */
const PORT_BASE = 27000;
const PG_PORT = 27432;

let home: string;
let clone: string;
let cfg: ServicesConfig;

/** The project's files as a clone has them (tracked and new ones; node_modules linked, not copied). */
async function copyProject(to: string): Promise<void> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, maxBuffer: 64 << 20 });
  for (const file of stdout.split('\0').filter(Boolean)) {
    const from = path.join(root, file);
    if (!(await stat(from).catch(() => null))?.isFile()) continue;
    await mkdir(path.dirname(path.join(to, file)), { recursive: true });
    await copyFile(from, path.join(to, file));
  }
  await symlink(path.join(root, 'node_modules'), path.join(to, 'node_modules'));
}

/** `npm run services -- <args>` in the copy, with nothing but the port plan set: its runtime folder is the clone's own. */
function servicesCli(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, UC_PORT_BASE: String(PORT_BASE), UC_API_PORT: String(PORT_BASE + 80) };
  delete env.UC_RUNTIME_DIR;
  return run(process.execPath, ['--import', 'tsx', 'server/services/cli.ts', ...args], { cwd: clone, env, timeout: 120_000 });
}

const pgTest = (action: string) => run('bash', [path.join(clone, 'scripts', 'pg-test.sh'), action], { env: { ...process.env, UC_TEST_PG_PORT: String(PG_PORT) }, timeout: 60_000 });

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'uc-home-'));
  clone = path.join(home, 'uc-client');
  await copyProject(clone);
  cfg = readServicesConfig({ UC_PORT_BASE: String(PORT_BASE), UC_API_PORT: String(PORT_BASE + 80) }, path.join(clone, 'runtime'));
}, 120_000);

afterAll(async () => {
  if (clone) {
    await servicesCli('stop').catch(() => undefined);
    await pgTest('stop').catch(() => undefined);
    removeRuntimeDir(path.join(clone, 'runtime'));
  }
  if (home) await rm(home, { recursive: true, force: true });
});

describe('a clone in a folder only root can enter (0700)', () => {
  it("the start script's servers come up, answer, and leave the user's folders as they were", async () => {
    expect((await stat(home)).mode & 0o777).toBe(0o700);
    await servicesCli('start');
    const status = await servicesStatus(cfg);
    expect(status.map((s) => [s.name, s.ready])).toEqual(SERVICE_NAMES.filter((n) => !CLUSTER_ONLY_SERVICES.has(n)).map((n) => [n, true]));
    // ejabberd answers its provisioning API, i.e. it read its configuration and opened its database.
    expect(await xmppApi(cfg).call<string>('status', {}, 2000)).toMatch(/is started/);
    // Nothing was loosened to get there.
    expect((await stat(home)).mode & 0o777).toBe(0o700);
    await servicesCli('stop');
    expect((await servicesStatus(cfg)).every((s) => !s.pid)).toBe(true);
  }, 180_000);

  it("the test suite's PostgreSQL starts from there and takes connections", async () => {
    await pgTest('start');
    const { stdout } = await pgTest('url');
    const client = new pg.Client({ connectionString: stdout.trim() });
    await client.connect();
    try {
      expect((await client.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }
    await pgTest('stop');
  });
});

/** The real API server for a browser benchmark: its own ports, runtime folder and built client; stopped by PID. */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { join } from 'node:path';

export interface BenchApiOptions {
  root: string;
  runtimeDir: string;
  distDir: string;
  portBase: number;
  apiPort: number;
  /** More environment for the server (DATABASE_URL for PostgreSQL, log level, …). */
  env?: Record<string, string>;
}

export async function startApi(o: BenchApiOptions): Promise<ChildProcess> {
  const origin = `http://127.0.0.1:${o.apiPort}`;
  const log = openSync(join(o.runtimeDir, 'server.out'), 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: o.root,
    env: {
      ...process.env,
      UC_PORT_BASE: String(o.portBase),
      UC_API_PORT: String(o.apiPort),
      UC_ORIGINS: origin,
      UC_HOST: '127.0.0.1',
      UC_RUNTIME_DIR: o.runtimeDir,
      UC_STATIC_DIR: o.distDir,
      DATABASE_URL: '',
      ...o.env,
    },
    stdio: ['ignore', log, log],
    detached: true,
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`API server exited with ${child.exitCode}; see ${o.runtimeDir}/server.out`);
    try {
      if ((await fetch(`${origin}/health`)).ok) return child;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`API server not ready after 90 s; see ${o.runtimeDir}/server.out`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function stopApi(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  process.kill(child.pid, 'SIGTERM');
  const timer = setTimeout(() => child.exitCode === null && child.pid !== undefined && process.kill(child.pid, 'SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}


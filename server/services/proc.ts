import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import dgram from 'node:dgram';
import net from 'node:net';

export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** stdout and stderr go here (appended). */
  logFile: string;
  /** Written by us with the PID of the process we started (its process group leader). */
  pidFile: string;
  /** Readiness probe, polled until it answers true. */
  ready: () => Promise<boolean>;
  /**
   * Ports it listens on. They must be free before the start: otherwise the probe could be
   * answered by whatever already holds them while our process dies unable to bind.
   */
  ports?: ReadonlyArray<{ port: number; proto: 'tcp' | 'udp'; host?: string }>;
  readyTimeoutMs?: number;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A process that has exited but was never reaped (its parent gone, and an init that does not reap
  // orphans, as on these machines) still answers signal 0: it is a zombie, dead for every purpose.
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    // /proc/<pid>/stat: "pid (comm) state …"; comm may hold spaces and parentheses, the state follows the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}

export async function readPid(pidFile: string): Promise<number | null> {
  try {
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    return Number.isInteger(pid) && pid > 1 ? pid : null;
  } catch {
    return null;
  }
}

/** The PID in `pidFile` if that process still runs (a stale file after a crash or SIGKILL reads as null). */
export async function runningPid(pidFile: string): Promise<number | null> {
  const pid = await readPid(pidFile);
  return pid && isAlive(pid) ? pid : null;
}

/**
 * Starts `spec` in its own process group (so stopping it takes its children too), records its PID
 * and waits for the readiness probe. A process that exits before it is ready fails the start with
 * the tail of its log.
 */
export async function startProcess(spec: ProcessSpec): Promise<number> {
  const existing = await runningPid(spec.pidFile);
  if (existing) {
    if (await spec.ready().catch(() => false)) return existing;
    await stopProcess(spec.pidFile);
  }
  await reapOrphans(spec.pidFile);
  for (const { port, proto, host = '127.0.0.1' } of spec.ports ?? []) {
    if (await portTaken(port, proto, host)) throw new Error(`${spec.name}: ${host}:${port}/${proto} is already in use by another program (another copy of the product? see UC_PORT_BASE)`);
  }
  const fd = openSync(spec.logFile, 'a');
  const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env ?? process.env, stdio: ['ignore', fd, fd], detached: true });
  closeSync(fd);
  child.unref();
  const pid = child.pid;
  if (!pid) throw new Error(`${spec.name}: could not start ${spec.command}`);
  await writeFile(spec.pidFile, `${pid}\n`);
  let exited: number | string | null = null;
  child.on('exit', (code, signal) => (exited = code ?? signal));
  const deadline = Date.now() + (spec.readyTimeoutMs ?? 30_000);
  for (;;) {
    if (exited !== null) throw new Error(`${spec.name} exited (${exited}) before it was ready:\n${await tail(spec.logFile)}`);
    if (await spec.ready().catch(() => false)) return pid;
    if (Date.now() > deadline) {
      await stopProcess(spec.pidFile);
      throw new Error(`${spec.name} not ready after ${spec.readyTimeoutMs ?? 30_000} ms:\n${await tail(spec.logFile)}`);
    }
    await sleep(100);
  }
}

/** SIGTERM to the process group, SIGKILL after `graceMs`; waits until the leader is gone. */
export async function stopProcess(pidFile: string, graceMs = 10_000): Promise<boolean> {
  const pid = await runningPid(pidFile);
  if (!pid) {
    await rm(pidFile, { force: true });
    return false;
  }
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      try {
        process.kill(pid, sig);
      } catch {
        /* already gone */
      }
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) || groupAlive(pid)) {
    if (Date.now() > deadline) {
      signal('SIGKILL');
      await sleep(100);
      if (Date.now() > deadline + 5000) break;
    } else await sleep(50);
  }
  await rm(pidFile, { force: true });
  return true;
}

/**
 * After a SIGKILL of the leader its children (Kamailio's workers, say) may still hold the ports:
 * they are in the leader's process group, which we started, so they go with it.
 */
async function reapOrphans(pidFile: string): Promise<void> {
  const pid = await readPid(pidFile);
  if (!pid || isAlive(pid) || !groupAlive(pid)) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    return;
  }
  const deadline = Date.now() + 5000;
  while (groupAlive(pid) && Date.now() < deadline) await sleep(50);
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function tail(file: string, lines = 30): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** True when something accepts TCP connections on 127.0.0.1:`port`. */
export function tcpOpen(port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** True when `host`:`port` cannot be bound (TCP: something listens; UDP: a socket holds it). */
export function portTaken(port: number, proto: 'tcp' | 'udp', host = '127.0.0.1'): Promise<boolean> {
  if (proto === 'tcp') return tcpOpen(port, host);
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4');
    socket.once('error', () => {
      socket.close();
      resolve(true);
    });
    socket.bind(port, host, () => socket.close(() => resolve(false)));
  });
}

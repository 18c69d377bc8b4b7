import cluster, { type Worker } from 'node:cluster';
import { isPhoneMessage, type PhoneMessage } from './cluster-phones';

/**
 * `UC_API_PROCESSES=n` (n > 1): the API runs as n processes of Node's cluster module sharing one
 * port. They share what makes a request's answer: PostgreSQL (sessions, throttles, single-use codes,
 * job locks) and the runtime folder (the JWT key, recordings). PGlite is one process's database.
 */
export function apiProcessCount(env: NodeJS.ProcessEnv): number {
  const raw = env.UC_API_PROCESSES?.trim();
  if (!raw) return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new Error(`UC_API_PROCESSES must be a whole number from 1 to 64, got "${raw}"`);
  if (n > 1 && !/^postgres(ql)?:\/\//.test(env.DATABASE_URL?.trim() ?? '')) {
    throw new Error(`UC_API_PROCESSES=${n} needs PostgreSQL (DATABASE_URL=postgres://…): the embedded database (PGlite) admits one process`);
  }
  return n;
}

/** Which of the cluster's processes this is: 1 when there is no cluster. */
export const apiProcessIndex = (env: NodeJS.ProcessEnv): number => Number(env.UC_API_PROCESS_INDEX || 1);

/**
 * The primary: starts the workers one after the other (the first migrates and seeds alone), starts
 * again one that dies, and on SIGTERM/SIGINT stops them all and exits once they have.
 */
export async function superviseApiProcesses(n: number): Promise<void> {
  // The processes accept connections from the one listening socket themselves. Round robin (the
  // primary accepts and hands each connection over) loses a connection handed to a process that
  // has just died: it hangs until the client gives up. Accepting in the processes, a dead one's
  // waiting connections stay in the socket's queue for the other, and only requests it was
  // answering fail (a reset), which the client retries when they are reads (kernel/api.ts).
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  let stopping = false;
  const workers = new Map<number, Worker>();

  const fork = (index: number) =>
    new Promise<void>((resolve, reject) => {
      const worker = cluster.fork({ UC_API_PROCESS_INDEX: String(index) });
      let listened = false;
      workers.set(index, worker);
      worker.on('message', (m: unknown) => relayPhones(m));
      worker.once('listening', () => {
        listened = true;
        resolve();
      });
      worker.once('exit', (code, signal) => {
        workers.delete(index);
        if (stopping) {
          if (!workers.size) process.exit(exitCode);
        } else if (!listened) {
          reject(new Error(`UC API process ${index} ended before listening (${signal ?? code})`));
        } else {
          console.error(`UC API process ${index} (pid ${worker.process.pid}) ended (${signal ?? code}); starting it again`);
          void fork(index).catch((err: unknown) => fail(err));
        }
      });
    });

  // The service phones are the first process's; the others' calls and its answers pass through here.
  const relayPhones = (m: unknown) => {
    if (!isPhoneMessage(m)) return;
    if (m.uc === 'phone-call') {
      const first = workers.get(1);
      if (first?.isConnected()) first.send(m);
      else workers.get(m.from)?.send({ uc: 'phone-result', id: m.id, to: m.from, ok: false, error: 'the first API process is not running' } satisfies PhoneMessage);
    } else if (m.uc === 'phone-result') workers.get(m.to)?.send(m);
    else for (const [i, w] of workers) if (i !== 1 && w.isConnected()) w.send(m);
  };

  const fail = (err: unknown) => {
    console.error('UC API failed to start:', err instanceof Error ? err.message : err);
    stop(1);
  };
  let exitCode = 0;
  const stop = (code = 0) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    if (!workers.size) process.exit(code);
    for (const w of workers.values()) w.process.kill('SIGTERM');
    setTimeout(() => process.exit(1), 15_000).unref();
  };
  process.on('SIGTERM', () => stop());
  process.on('SIGINT', () => stop());

  for (let i = 1; i <= n; i++) {
    try {
      await fork(i);
    } catch (err) {
      return fail(err);
    }
  }
  console.log(`UC API: ${n} processes (pids ${[...workers.values()].map((w) => w.process.pid).join(', ')})`);
}

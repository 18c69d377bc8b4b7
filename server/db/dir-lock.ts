import { readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A pid file that refuses a second live owner. A stale file (its process is gone, e.g. after a crash)
 * is taken over, so a killed server never blocks the next start.
 */
export async function acquireDirLock(file: string): Promise<() => Promise<void>> {
  const lockFile = path.resolve(file);
  if (heldHere.has(lockFile)) throw new Error(`Database folder is already open in this process (lock ${lockFile})`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lockFile, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      heldHere.add(lockFile);
      return async () => {
        heldHere.delete(lockFile);
        await unlink(lockFile).catch(() => {});
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number((await readFile(lockFile, 'utf8').catch(() => '')).trim());
      // Our own pid in a file we do not hold is stale (a container restart reuses small pids).
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new Error(`Database folder is in use by process ${owner} (lock ${lockFile})`);
      }
      await unlink(lockFile).catch(() => {});
    }
  }
  throw new Error(`Could not lock ${lockFile}`);
}

const heldHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

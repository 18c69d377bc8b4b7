import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isAlive } from './proc';

describe('isAlive', () => {
  it('reads a zombie (exited, never reaped: its parent does not wait) as dead, a running process as alive', async () => {
    // The shell starts a short sleep in the background and becomes `sleep`, which never reaps it.
    const parent = spawn('sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const pid = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()))));
      await expect.poll(() => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0]).toBe('Z');
      expect(() => process.kill(pid, 0)).not.toThrow();
      expect(isAlive(pid)).toBe(false);
      expect(isAlive(parent.pid!)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});

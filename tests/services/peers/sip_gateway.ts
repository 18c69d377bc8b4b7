/**
 * The external-number gateway of the SIP tests: sipp (Debian's sip-tester) as a UAS on the
 * gateway address Kamailio routes 6+-digit numbers to, running sip_gateway_uas.xml for one call,
 * echoing RTP, and logging every SIP message it sees.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const SCENARIO = path.join(import.meta.dirname, 'sip_gateway_uas.xml');

export interface GatewayUas {
  pid: number;
  /** Resolves with sipp's exit code once it has handled its one call (0 = the scenario passed). */
  exited: Promise<number | null>;
  /** Every SIP message sipp sent or received so far. */
  messages(): Promise<string>;
  kill(): void;
}

/** True when some process has a UDP socket bound to 127.0.0.1:`port` (read from /proc, so probing never takes the port). */
async function udpPortTaken(port: number): Promise<boolean> {
  const table = await readFile('/proc/net/udp', 'utf8');
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return table.split('\n').some((line) => line.trim().split(/\s+/)[1] === local);
}

export async function startGatewayUas(opts: { port: number; mediaPort: number; dir: string; timeoutMs?: number }): Promise<GatewayUas> {
  const messageFile = path.join(opts.dir, `sipp-gateway-${Date.now()}.log`);
  const child: ChildProcess = spawn(
    'sipp',
    ['-sf', SCENARIO, '-i', '127.0.0.1', '-p', String(opts.port), '-mp', String(opts.mediaPort), '-rtp_echo', '-m', '1', '-nostdin', '-trace_msg', '-message_file', messageFile, '-timeout', '60s', '-timeout_error'],
    { stdio: ['ignore', 'ignore', 'ignore'], cwd: opts.dir },
  );
  const pid = child.pid;
  if (!pid) throw new Error('sipp did not start');
  let done = false;
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      done = true;
      resolve(code);
    });
  });
  const kill = () => {
    if (done) return;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  };
  const deadline = Date.now() + (opts.timeoutMs ?? 5000);
  while (!(await udpPortTaken(opts.port))) {
    if (done) throw new Error(`sipp exited before listening on ${opts.port}`);
    if (Date.now() > deadline) {
      kill();
      throw new Error(`sipp not listening on ${opts.port} after ${opts.timeoutMs ?? 5000} ms`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    pid,
    exited,
    messages: () => readFile(messageFile, 'utf8').catch(() => ''),
    kill,
  };
}

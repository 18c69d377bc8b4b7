/**
 * Drives tests/services/peers/xmpp_peer.py (slixmpp, plain TCP c2s): an XMPP client that shares
 * no code with ours. Commands go in as JSON lines; every event it prints is kept, so a test can wait
 * for one that arrived before it started waiting.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

const SCRIPT = path.join(import.meta.dirname, 'xmpp_peer.py');
/** Debian's interpreter: python3-slixmpp is installed for it, not for any other python. */
const PYTHON = '/usr/bin/python3';

export interface PeerEvent {
  event: string;
  re?: number | null;
  [key: string]: unknown;
}

interface Waiter {
  match: (e: PeerEvent) => boolean;
  resolve: (e: PeerEvent) => void;
}

export class SlixmppPeer {
  readonly events: PeerEvent[] = [];
  private stderr = '';
  private waiters: Waiter[] = [];
  private seq = 0;
  private exited: Promise<void>;

  private constructor(private readonly proc: ChildProcessWithoutNullStreams) {
    createInterface({ input: proc.stdout }).on('line', (line) => {
      let e: PeerEvent;
      try {
        e = JSON.parse(line) as PeerEvent;
      } catch {
        e = { event: 'unparsed', line };
      }
      this.events.push(e);
      const hit = this.waiters.filter((w) => w.match(e));
      this.waiters = this.waiters.filter((w) => !hit.includes(w));
      for (const w of hit) w.resolve(e);
    });
    proc.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4000);
    });
    this.exited = new Promise((resolve) => proc.once('exit', () => resolve()));
  }

  static start(): SlixmppPeer {
    return new SlixmppPeer(spawn(PYTHON, ['-u', SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] }));
  }

  /** The first event (already printed or still to come) that matches, or a rejection after `timeoutMs`. */
  waitFor(match: (e: PeerEvent) => boolean, timeoutMs = 10_000, what = 'event'): Promise<PeerEvent> {
    const seen = this.events.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        match,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`slixmpp peer: no ${what} within ${timeoutMs} ms; events: ${JSON.stringify(this.events.slice(-5))}; stderr: ${this.stderr.slice(-800)}`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Sends a command and resolves with the event that answers it. */
  request(cmd: Record<string, unknown>, timeoutMs = 15_000): Promise<PeerEvent> {
    const seq = ++this.seq;
    const answer = this.waitFor((e) => e.re === seq, timeoutMs, `answer to ${String(cmd.cmd)}`);
    this.proc.stdin.write(`${JSON.stringify({ ...cmd, seq })}\n`);
    return answer;
  }

  async connect(opts: { jid: string; password: string; port: number }): Promise<PeerEvent> {
    return this.request({ cmd: 'connect', host: '127.0.0.1', ...opts });
  }

  send(to: string, body: string, type: 'chat' | 'groupchat' = 'chat'): Promise<PeerEvent> {
    return this.request({ cmd: 'send', to, body, type });
  }

  /** Ends the script (it disconnects first) and waits for the process to exit; kills it after 5 s. */
  async close(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    this.proc.stdin.end();
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 5000);
    await this.exited;
    clearTimeout(timer);
  }
}

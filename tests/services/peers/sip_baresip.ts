/**
 * A real SIP phone for tests: one baresip process (Debian's), UDP only, on 127.0.0.1, driven over
 * its `ctrl_tcp` module (netstring-framed JSON; one control connection only). Plays a WAV through
 * `aufile` so that the far end receives real RTP; auto-answers incoming calls.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BaresipControl, baresipConfig, type BaresipEvent } from '../../../server/services/baresip-control';

export type { BaresipEvent };

export interface BaresipOptions {
  /** Folder for its config, WAV and log (created). */
  dir: string;
  sipPort: number;
  /** Not the SIP port + 1: baresip's SIP-TLS listener takes that one. */
  ctrlPort: number;
  rtpPorts: [number, number];
  /** baresip quits by itself after this long (default 300 s). */
  maxLifeSeconds?: number;
}

/** 16-bit mono PCM WAV of a 440 Hz tone: the rate and channels match `ausrc_srate`/`ausrc_channels`. */
function toneWav(rate: number, seconds: number): Buffer {
  const n = rate * seconds;
  const buf = Buffer.alloc(44 + n * 2);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(36 + n * 2, 4);
  buf.write('WAVE', 8);
  buf.write('fmt ', 12);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(n * 2, 40);
  for (let i = 0; i < n; i++) buf.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return buf;
}

export class Baresip {
  private child: ChildProcess | null = null;
  private control: BaresipControl | null = null;
  private exited = false;

  private constructor(private readonly opts: BaresipOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Every event seen, oldest first. */
  get events(): readonly BaresipEvent[] {
    return this.control?.events ?? [];
  }

  static async start(opts: BaresipOptions, timeoutMs = 10_000): Promise<Baresip> {
    const b = new Baresip(opts);
    try {
      await b.launch(timeoutMs);
    } catch (err) {
      b.kill();
      throw err;
    }
    return b;
  }

  private async launch(timeoutMs: number): Promise<void> {
    const { dir, sipPort, ctrlPort, rtpPorts } = this.opts;
    await mkdir(dir, { recursive: true });
    const wav = path.join(dir, 'tone.wav');
    await writeFile(wav, toneWav(8000, 60));
    const config = baresipConfig({ sipPort, ctrlPort, rtpPorts, audioSourceWav: wav, srate: 8000 });
    await writeFile(path.join(dir, 'config'), config);
    // Accounts are added at run time (`uanew`) so that their registration events reach us.
    await writeFile(path.join(dir, 'accounts'), '');
    const log = openSync(path.join(dir, 'baresip.log'), 'a');
    // -t: a hard cap on its life, should the test process die without stopping it.
    this.child = spawn('baresip', ['-f', dir, '-t', String(this.opts.maxLifeSeconds ?? 300)], { stdio: ['ignore', log, log] });
    closeSync(log);
    this.child.on('exit', () => (this.exited = true));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.exited) throw new Error(`baresip exited at start; see ${path.join(dir, 'baresip.log')}`);
      this.control = await BaresipControl.connect(ctrlPort);
      if (this.control) return;
      if (Date.now() > deadline) throw new Error(`baresip control port ${ctrlPort} not open after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Sends a command; resolves with its answer (`ok` false is an error). */
  command(command: string, params = '', timeoutMs = 5000): Promise<string> {
    if (!this.control) return Promise.reject(new Error('baresip is not running'));
    return this.control.command(command, params, timeoutMs);
  }

  /** The first event (already seen after `since`, or to come) that matches. */
  waitEvent(match: (e: BaresipEvent) => boolean, timeoutMs: number, since = 0): Promise<BaresipEvent> {
    if (!this.control) return Promise.reject(new Error('baresip is not running'));
    return this.control.waitEvent(match, timeoutMs, since);
  }

  /**
   * Adds an account and waits until the registrar accepts it. It answers calls by itself unless
   * `answer` is 'manual' (then a call rings until `accept`, like a desk phone nobody has picked up).
   */
  async register(aor: string, authUser: string, password: string, outbound: string, timeoutMs = 10_000, answer: 'auto' | 'manual' = 'auto'): Promise<void> {
    const since = this.events.length;
    await this.command('uanew', `<${aor}>;auth_user=${authUser};auth_pass=${password};outbound="${outbound}";regint=300;answermode=${answer}`);
    const e = await this.waitEvent((e) => e.class === 'register' && (e.type === 'REGISTER_OK' || e.type === 'REGISTER_FAIL'), timeoutMs, since);
    if (e.type !== 'REGISTER_OK') throw new Error(`baresip registration failed: ${e.param ?? ''}`);
  }

  /** Stops the process (SIGTERM, then SIGKILL); safe to call twice. */
  kill(): void {
    this.control?.close();
    this.control = null;
    const child = this.child;
    if (!child?.pid || this.exited) return;
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }

  async stop(timeoutMs = 3000): Promise<void> {
    const child = this.child;
    this.control?.close();
    this.control = null;
    if (!child?.pid || this.exited) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => this.kill(), timeoutMs);
    await gone;
    clearTimeout(timer);
  }
}

import net from 'node:net';
import path from 'node:path';
import type { ServiceDirs } from './layout';
import type { ProcessSpec } from './proc';

/**
 * baresip (Debian's) as a phone we drive: its configuration, and a client of its `ctrl_tcp` module: netstring-framed JSON commands with their answers, and
 * the events baresip reports (registrations, calls). baresip takes one control connection only.
 * Used by the voicemail phone (server/voicemail) and by the tests' SIP phone.
 */
export interface BaresipEvent {
  event: true;
  class: string;
  type: string;
  /** The account the event is about (for the voicemail phone: the mailbox). */
  accountaor?: string;
  direction?: string;
  peeruri?: string;
  peerdisplayname?: string;
  /** For call events: the SIP Call-ID. */
  id?: string;
  param?: string;
}

interface BaresipResponse {
  response: true;
  ok: boolean;
  data?: string;
  token?: string;
}

/** What differs between our baresip phones (the voicemail phone, the tests' desk phone). */
export interface BaresipConfigOptions {
  sipPort: number;
  /** Not the SIP port + 1: baresip's SIP-TLS listener takes that one. */
  ctrlPort: number;
  rtpPorts: readonly [number, number];
  /** The WAV that is the phone's microphone; its rate and channels must be `srate` and mono. */
  audioSourceWav: string;
  srate: number;
  /** Calls at once (baresip's default is 4). */
  maxCalls?: number;
}

/**
 * A headless baresip on loopback, driven over `ctrl_tcp`: G.711 only, a WAV as the microphone and no
 * sound card (aubridge plays into nothing), accounts added at run time (`uanew`, a menu command).
 */
export function baresipConfig(o: BaresipConfigOptions): string {
  return [
    'poll_method epoll',
    `sip_listen 127.0.0.1:${o.sipPort}`,
    // The interface by address: by name ("lo") baresip finds no network address.
    'net_interface 127.0.0.1',
    `rtp_ports ${o.rtpPorts[0]}-${o.rtpPorts[1]}`,
    ...(o.maxCalls ? [`call_max_calls ${o.maxCalls}`] : []),
    'audio_player aubridge,nowhere',
    `audio_source aufile,${o.audioSourceWav}`,
    'audio_alert aubridge,nowhere',
    `ausrc_srate ${o.srate}`,
    'ausrc_channels 1',
    'module_path /usr/lib/baresip/modules',
    'module g711.so',
    'module aufile.so',
    'module aubridge.so',
    'module_app account.so',
    'module_app menu.so',
    'module_app ctrl_tcp.so',
    `ctrl_tcp_listen 127.0.0.1:${o.ctrlPort}`,
    '',
  ].join('\n');
}

export class BaresipControl {
  private buffer = Buffer.alloc(0);
  private readonly pending = new Map<string, (r: BaresipResponse) => void>();
  private readonly listeners = new Set<(e: BaresipEvent) => void>();
  private readonly closeListeners = new Set<() => void>();
  /** Every event seen, oldest first (kept for tests; `keepEvents: false` for a long-lived client). */
  readonly events: BaresipEvent[] = [];
  private tokens = 0;
  private closed = false;

  private constructor(
    private readonly socket: net.Socket,
    private readonly keepEvents: boolean,
  ) {
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
      for (const l of [...this.closeListeners]) l();
    });
  }

  /** One attempt to connect; null when nothing listens (yet). */
  static connect(port: number, opts: { keepEvents?: boolean } = {}): Promise<BaresipControl | null> {
    return new Promise((resolve) => {
      const s = net.connect({ host: '127.0.0.1', port });
      s.once('connect', () => resolve(new BaresipControl(s, opts.keepEvents ?? true)));
      s.once('error', () => resolve(null));
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private read(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const colon = this.buffer.indexOf(0x3a);
      if (colon < 0) return;
      const len = Number(this.buffer.subarray(0, colon).toString());
      if (this.buffer.length < colon + 1 + len + 1) return;
      const json = this.buffer.subarray(colon + 1, colon + 1 + len).toString();
      this.buffer = this.buffer.subarray(colon + 1 + len + 1);
      try {
        this.dispatch(JSON.parse(json) as BaresipEvent | BaresipResponse);
      } catch {
        /* not JSON: nothing we asked for */
      }
    }
  }

  private dispatch(msg: BaresipEvent | BaresipResponse): void {
    if ('response' in msg) {
      const waiter = msg.token ? this.pending.get(msg.token) : undefined;
      if (waiter && msg.token) {
        this.pending.delete(msg.token);
        waiter(msg);
      }
      return;
    }
    if (this.keepEvents) this.events.push(msg);
    for (const l of [...this.listeners]) l(msg);
  }

  onEvent(listener: (e: BaresipEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Sends a command; resolves with its answer (`ok` false is an error). */
  async command(command: string, params = '', timeoutMs = 5000): Promise<string> {
    if (this.closed) throw new Error('baresip control connection is closed');
    const token = `t${++this.tokens}`;
    const body = Buffer.from(JSON.stringify({ command, params, token }));
    const answer = new Promise<BaresipResponse>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(token);
        reject(new Error(`baresip did not answer "${command}" within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(token, (r) => {
        clearTimeout(timer);
        resolve(r);
      });
    });
    this.socket.write(Buffer.concat([Buffer.from(`${body.length}:`), body, Buffer.from(',')]));
    const r = await answer;
    if (!r.ok) throw new Error(`baresip "${command} ${params}" failed: ${r.data ?? ''}`);
    return r.data ?? '';
  }

  /** The first event (already seen after `since`, or to come) that matches. */
  waitEvent(match: (e: BaresipEvent) => boolean, timeoutMs: number, since = 0): Promise<BaresipEvent> {
    const seen = this.events.slice(since).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const off = this.onEvent((e) => {
        if (!match(e)) return;
        clearTimeout(timer);
        off();
        resolve(e);
      });
      const timer = setTimeout(() => {
        off();
        reject(new Error(`no matching baresip event within ${timeoutMs} ms; seen: ${this.events.map((e) => e.type).join(', ')}`));
      }, timeoutMs);
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

/**
 * How the project runs each of its baresip phones (voicemail, echo, click-dial): the config folder
 * written by the caller, the log and PID files of its service folders, ready once it answers SIP
 * OPTIONS, and its SIP (and control) ports free before it starts.
 */
export function baresipProcess(name: string, dirs: ServiceDirs, o: { pidFile: string; ready: () => Promise<boolean>; sipPort: number; ctrlPort?: number }): ProcessSpec {
  return {
    name,
    command: 'baresip',
    args: ['-f', dirs.conf],
    cwd: dirs.run,
    logFile: path.join(dirs.log, 'baresip.log'),
    pidFile: o.pidFile,
    ready: o.ready,
    ports: [{ port: o.sipPort, proto: 'udp' }, ...(o.ctrlPort === undefined ? [] : [{ port: o.ctrlPort, proto: 'tcp' as const }])],
    readyTimeoutMs: 15_000,
  };
}

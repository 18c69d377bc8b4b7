import bencode from 'bencode';
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';

export type NgValue = string | number | NgValue[] | { [key: string]: NgValue };
export type NgResponse = { result: string; 'error-reason'?: string; [key: string]: unknown };

/** bencode decodes strings as bytes; the ng protocol's answers are text all the way down. */
function toText(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (Array.isArray(value)) return value.map(toText);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toText(v)]));
  return value;
}

/**
 * Client of rtpengine's control protocol ("ng": a cookie, a space, a bencoded dictionary, over UDP).
 * One socket, answers matched to requests by cookie.
 */
export class NgClient {
  private readonly socket = dgram.createSocket('udp4');
  private readonly pending = new Map<string, { resolve: (r: NgResponse) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();

  constructor(
    private readonly port: number,
    private readonly host = '127.0.0.1',
  ) {
    this.socket.on('message', (msg) => {
      const space = msg.indexOf(0x20);
      if (space < 0) return;
      const cookie = msg.subarray(0, space).toString();
      const waiter = this.pending.get(cookie);
      if (!waiter) return;
      this.pending.delete(cookie);
      clearTimeout(waiter.timer);
      try {
        waiter.resolve(toText(bencode.decode(msg.subarray(space + 1))) as NgResponse);
      } catch (err) {
        waiter.reject(err as Error);
      }
    });
    this.socket.unref();
  }

  command(command: string, args: Record<string, NgValue> = {}, timeoutMs = 2000): Promise<NgResponse> {
    const cookie = randomBytes(8).toString('hex');
    const payload = Buffer.concat([Buffer.from(`${cookie} `), Buffer.from(bencode.encode({ command, ...args }))]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(cookie);
        reject(new Error(`rtpengine did not answer "${command}" within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(cookie, { resolve, reject, timer });
      this.socket.send(payload, this.port, this.host, (err) => {
        if (!err) return;
        clearTimeout(timer);
        this.pending.delete(cookie);
        reject(err);
      });
    });
  }

  async ping(timeoutMs = 500): Promise<boolean> {
    const res = await this.command('ping', {}, timeoutMs).catch(() => null);
    return res?.result === 'pong';
  }

  close(): void {
    for (const { timer, reject } of this.pending.values()) {
      clearTimeout(timer);
      reject(new Error('ng client closed'));
    }
    this.pending.clear();
    this.socket.close();
  }
}

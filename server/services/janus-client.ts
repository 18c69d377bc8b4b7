import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';

/** A message of Janus's JSON API (https://janus.conf.meetecho.com/docs/rest.html), as far as we read it. */
export interface JanusMessage {
  janus: string;
  transaction?: string;
  session_id?: number;
  sender?: number;
  data?: { id?: number };
  error?: { code: number; reason: string };
  plugindata?: { plugin: string; data: Record<string, unknown> & { error_code?: number; error?: string } };
  [key: string]: unknown;
}

export const JANUS_PROTOCOL = 'janus-protocol';

/** Keepalives keep a session that has nothing else to say (Janus ends it after 60 s of silence). */
const KEEPALIVE_MS = 25_000;

const transactionId = () => randomBytes(9).toString('base64url');

/**
 * One WebSocket to Janus with request/response matching by transaction. Janus first answers some
 * requests with an `ack` and the result later; the ack is skipped. Events without a transaction
 * of ours are ignored: the API server only asks, it does not take part in rooms.
 */
export class JanusConnection {
  private readonly pending = new Map<string, { resolve: (m: JanusMessage) => void; reject: (e: Error) => void }>();
  readonly opened: Promise<void>;
  closed = false;

  constructor(
    url: string,
    private readonly ws = new WebSocket(url, JANUS_PROTOCOL),
  ) {
    this.opened = new Promise((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    // Every caller awaits it through send(); this only keeps a refused connection from counting as unhandled.
    this.opened.catch(() => undefined);
    ws.on('message', (raw) => {
      let msg: JanusMessage;
      try {
        msg = JSON.parse(String(raw)) as JanusMessage;
      } catch {
        return;
      }
      if (msg.janus === 'ack' || !msg.transaction) return;
      const waiter = this.pending.get(msg.transaction);
      if (!waiter) return;
      this.pending.delete(msg.transaction);
      waiter.resolve(msg);
    });
    ws.on('error', () => undefined);
    ws.on('close', () => {
      this.closed = true;
      for (const w of this.pending.values()) w.reject(new Error('Janus closed the connection'));
      this.pending.clear();
      for (const f of this.closeListeners) f();
    });
  }

  private readonly closeListeners: (() => void)[] = [];

  /** Called once the WebSocket is closed, by us or by Janus (which closes its sessions with it). */
  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  async send(msg: Omit<JanusMessage, 'transaction'>, timeoutMs = 10_000): Promise<JanusMessage> {
    await this.opened;
    const transaction = transactionId();
    return new Promise<JanusMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(transaction);
        reject(new Error(`Janus did not answer ${msg.janus} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(transaction, {
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.ws.send(JSON.stringify({ ...msg, transaction }));
    });
  }

  close(): void {
    this.ws.terminate();
  }
}

/** One request on a connection of its own (readiness probes, one-off questions). */
export async function janusRequest(url: string, msg: Omit<JanusMessage, 'transaction'>, timeoutMs = 5000): Promise<JanusMessage> {
  const socket = new JanusConnection(url);
  const timer = setTimeout(() => socket.close(), timeoutMs);
  try {
    return await socket.send(msg, timeoutMs);
  } finally {
    clearTimeout(timer);
    socket.close();
  }
}

/** A videoroom plugin error (`plugindata.data.error_code`): 426 no such room, 427 room exists, 433 unauthorized. */
export class VideoRoomError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The API server's own session with the videoroom plugin (or the audiobridge: the same requests
 * and errors), opened on first use and opened again after Janus restarted (its sessions die with
 * it). Requests that Janus answers at once (`create`, `destroy`, `exists`, `kick`, `moderate`) only.
 */
export class VideoRoomAdmin {
  private link: Promise<{ socket: JanusConnection; session: number; handle: number; keepalive: NodeJS.Timeout }> | null = null;

  constructor(
    private readonly url: string,
    private readonly plugin: 'janus.plugin.videoroom' | 'janus.plugin.audiobridge' = 'janus.plugin.videoroom',
  ) {}

  private connect() {
    const existing = this.link;
    if (existing) return existing;
    const opening = (async () => {
      const socket = new JanusConnection(this.url);
      try {
        const created = await socket.send({ janus: 'create' });
        const session = created.data?.id;
        if (created.janus !== 'success' || !session) throw new Error(`Janus refused a session: ${created.error?.reason ?? created.janus}`);
        const attached = await socket.send({ janus: 'attach', session_id: session, plugin: this.plugin });
        const handle = attached.data?.id;
        if (attached.janus !== 'success' || !handle) throw new Error(`Janus refused ${this.plugin}: ${attached.error?.reason ?? attached.janus}`);
        const keepalive = setInterval(() => void socket.send({ janus: 'keepalive', session_id: session }).catch(() => undefined), KEEPALIVE_MS);
        keepalive.unref();
        return { socket, session, handle, keepalive };
      } catch (err) {
        socket.close();
        throw err;
      }
    })();
    this.link = opening;
    opening.catch(() => {
      if (this.link === opening) this.link = null;
    });
    return opening;
  }

  /** Sends a videoroom request; resolves with its data, rejects with a VideoRoomError on a plugin error. */
  async request(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    let link = await this.connect();
    if (link.socket.closed) {
      this.drop(link);
      link = await this.connect();
    }
    let res: JanusMessage;
    try {
      res = await link.socket.send({ janus: 'message', session_id: link.session, handle_id: link.handle, body });
    } catch (err) {
      this.drop(link);
      throw err;
    }
    if (res.janus === 'error') {
      // 458: the session is gone (Janus restarted under the same socket address); the next request opens another.
      if (res.error?.code === 458 || res.error?.code === 459) this.drop(link);
      throw new Error(`Janus: ${res.error?.reason ?? 'error'} (${res.error?.code})`);
    }
    const data = res.plugindata?.data ?? {};
    if (typeof data.error_code === 'number') throw new VideoRoomError(data.error_code, String(data.error ?? 'videoroom error'));
    return data;
  }

  private drop(link: Awaited<NonNullable<VideoRoomAdmin['link']>>): void {
    clearInterval(link.keepalive);
    link.socket.close();
    this.link = null;
  }

  async close(): Promise<void> {
    const link = await this.link?.catch(() => null);
    if (link) this.drop(link);
  }
}

/**
 * SIP registration through the project's real Kamailio (auth_ephemeral) over WebSocket.
 *
 * - sip_register_p50_ms: JsSIP (in Node, over the `ws` package with the page's Origin) sends
 *   REGISTER, gets the 401 challenge, sends REGISTER with the API's kind of time-limited
 *   credentials, gets 200: median over 60 registrations on one open WebSocket (each followed by an
 *   un-REGISTER so that the next one is a fresh registration), after 5 warm-up rounds.
 * - sip_register_p95_ms: the same, 95th percentile.
 *
 * Starts its own rtpengine + Kamailio (port base 28000, a fresh runtime folder under
 * runtime/bench-sip) with the project's service manager, and stops them by PID when done.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import JsSIP from 'jssip';
import { WebSocket as WsWebSocket } from 'ws';
import { sipEphemeralSecret } from '../server/services/kamailio';
import { readServicesConfig, removeRuntimeDir } from '../server/services/layout';
import { startServices, stopServices } from '../server/services/manager';
import { mintSipCredentials } from '../server/services/sip-credentials';
import { percentile, round1 } from './measure';

const ROUNDS = 60;
const WARMUP = 5;
const ORIGIN = 'http://127.0.0.1:28080';


function once(ua: JsSIP.UA, ok: 'registered' | 'unregistered' | 'connected' | 'disconnected', timeoutMs = 5000): Promise<void> {
  return new Promise((resolve, reject) => {
    const onFailed = (e: { cause?: unknown; response?: { status_code?: number } | null }) => {
      done();
      reject(new Error(`registration failed: ${String(e.cause)} ${e.response?.status_code ?? ''}`));
    };
    const onOk = () => {
      done();
      resolve();
    };
    const done = () => {
      clearTimeout(timer);
      ua.removeListener(ok, onOk);
      ua.removeListener('registrationFailed', onFailed);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no "${ok}" within ${timeoutMs} ms`));
    }, timeoutMs);
    ua.on(ok, onOk);
    if (ok === 'registered') ua.on('registrationFailed', onFailed);
  });
}

export async function benchSip(): Promise<Record<string, number>> {
  const root = path.resolve(import.meta.dirname, '..');
  await mkdir(path.join(root, 'runtime', 'bench-sip'), { recursive: true });
  const runtimeDir = await mkdtemp(path.join(root, 'runtime', 'bench-sip', 'run-'));
  const cfg = readServicesConfig({ UC_PORT_BASE: '28000', UC_API_PORT: '28080', UC_ORIGINS: ORIGIN }, runtimeDir);
  const g = globalThis as { WebSocket?: unknown };
  const savedWebSocket = g.WebSocket;
  let ok = false;
  try {
    await startServices(cfg, ['rtpengine', 'kamailio']);
    const creds = mintSipCredentials(await sipEphemeralSecret(cfg), '1001', cfg.domain);
    // Challenges seen: proof that every measured registration did the full 401 round trip.
    let challenges = 0;
    g.WebSocket = class extends WsWebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols, { origin: ORIGIN });
        this.on('message', (data) => {
          const text = data.toString();
          if (text.startsWith('SIP/2.0 401') && /^CSeq: *\d+ REGISTER/im.test(text)) challenges++;
        });
      }
    };
    const ua = new JsSIP.UA({
      sockets: [new JsSIP.WebSocketInterface(`ws://127.0.0.1:${cfg.ports.sipWs}/`)],
      uri: creds.uri,
      authorization_user: creds.authorization_user,
      password: creds.password,
      register: false,
      register_expires: 300,
    });
    const connected = once(ua, 'connected');
    ua.start();
    await connected;
    const samples: number[] = [];
    try {
      for (let i = 0; i < WARMUP + ROUNDS; i++) {
        const registered = once(ua, 'registered');
        const before = challenges;
        const t0 = performance.now();
        ua.register();
        await registered;
        const ms = performance.now() - t0;
        if (challenges !== before + 1) throw new Error(`registration ${i} saw ${challenges - before} challenges, expected 1`);
        if (i >= WARMUP) samples.push(ms);
        const unregistered = once(ua, 'unregistered');
        ua.unregister();
        await unregistered;
      }
    } finally {
      const disconnected = once(ua, 'disconnected').catch(() => undefined);
      ua.stop();
      await disconnected;
    }
    ok = true;
    return { sip_register_p50_ms: round1(percentile(samples, 50)), sip_register_p95_ms: round1(percentile(samples, 95)) };
  } finally {
    g.WebSocket = savedWebSocket;
    await stopServices(cfg, ['rtpengine', 'kamailio']);
    // Logs are kept when something went wrong.
    if (ok) removeRuntimeDir(runtimeDir);
  }
}

/**
 * Chat latency on the real server: its own ejabberd (the project's config and manager, ports 27xxx,
 * a fresh runtime folder), two accounts logged in with the API's JWTs, two Strophe clients over
 * WebSocket as the browser uses them.
 *
 * - xmpp_rtt_p50_ms: A sends a 1:1 message to B's bare JID, B's handler answers, A receives the
 *   answer; median over 200 sequential round trips after 20 warm-up ones. Both messages are
 *   archived (MAM, SQLite), as every chat message is. Budget ≤ 5 ms (issue 18).
 * - xmpp_loadavg: the machine's 1-minute load average when the rounds ended (the figure's context).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { readServicesConfig, removeRuntimeDir } from '../server/services/layout';
import { startServices, stopServices } from '../server/services/manager';
import { tcpOpen } from '../server/services/proc';
import { ensureXmppAccount } from '../server/services/xmpp-provision';
import { mintXmppToken } from '../server/services/xmpp-token';
import { StropheClient } from '../tests/services/peers/xmpp_strophe';
import { median, round1 } from './measure';

const WARMUP = 20;
const ROUNDS = 200;
const root = path.resolve(import.meta.dirname, '..');


export async function benchXmpp(): Promise<Record<string, number>> {
  const parent = path.join(root, 'runtime', 'bench-xmpp');
  await mkdir(parent, { recursive: true });
  const runtimeDir = await mkdtemp(path.join(parent, 'run-'));
  const cfg = readServicesConfig({ UC_PORT_BASE: '27000', UC_API_PORT: '27080' }, runtimeDir);
  // Another ejabberd on these ports would answer instead of ours (and ours would never get ready).
  if (await tcpOpen(cfg.ports.xmppC2s)) throw new Error(`bench xmpp: port ${cfg.ports.xmppC2s} is in use (a previous bench still running?)`);

  const clients: StropheClient[] = [];
  try {
    await startServices(cfg, ['ejabberd']);
    const wsUrl = `ws://127.0.0.1:${cfg.ports.xmppHttp}/ws`;
    for (const username of ['bench.a', 'bench.b']) {
      await ensureXmppAccount(cfg, username);
      const t = await mintXmppToken(cfg, { username, subject: `user:${username}` });
      clients.push(await StropheClient.connect(wsUrl, `${t.jid}/bench`, t.token));
    }
    const [a, b] = clients as [StropheClient, StropheClient];
    b.onMessage = (m) => {
      if (m.body?.startsWith('ping ')) b.sendChat(m.from.split('/')[0]!, `pong ${m.body.slice(5)}`);
    };
    // Only the answer to the current round is waited for; old messages pile up in `received`.
    const bareB = b.jid.split('/')[0]!;
    const times: number[] = [];
    for (let i = 0; i < WARMUP + ROUNDS; i++) {
      const reply = a.waitForMessage((m) => m.body === `pong ${i}`, 5000, `pong ${i}`);
      const t0 = performance.now();
      a.sendChat(bareB, `ping ${i}`);
      await reply;
      if (i >= WARMUP) times.push(performance.now() - t0);
      a.received.length = 0;
    }
    return { xmpp_rtt_p50_ms: round1(median(times)), xmpp_loadavg: Math.round(loadavg()[0]! * 100) / 100 };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await stopServices(cfg, ['ejabberd']);
    removeRuntimeDir(runtimeDir);
  }
}

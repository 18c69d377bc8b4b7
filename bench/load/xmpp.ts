/**
 * XMPP load on the real ejabberd (the project's config: MAM on, SQLite; port base 41000, a fresh
 * runtime folder under runtime/bench-load-xmpp), the generator a small Node client on the real
 * protocol: Strophe.js over WebSocket as the browser uses it (tests/services/peers/xmpp_strophe.ts),
 * each session logged in with its own JWT, bound, present, answering pings.
 *
 * - xmpp_sessions_held: sessions open at once at the last level (every one answered a ping at the
 *   end); SESSION_LEVELS is the bench's ceiling, not the server's: ejabberd's memory per session says
 *   how far this machine's RAM goes.
 * - xmpp_msgs_per_s: 1:1 chat messages between held sessions at fixed rates (each archived twice by
 *   MAM), the highest rate with ≥ 99 % delivered within LATE_MS and the generator keeping up; latency send →
 *   receipt p50/p99 at each rate. One Node process sends and receives everything: its own CPU is
 *   printed, and at 100 % the generator, not ejabberd, is the limit.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readServicesConfig, removeRuntimeDir } from '../../server/services/layout';
import { servicesStatus, startServices, stopServices } from '../../server/services/manager';
import { sleep, tcpOpen } from '../../server/services/proc';
import { ensureXmppAccount } from '../../server/services/xmpp-provision';
import { mintXmppToken } from '../../server/services/xmpp-token';
import { StropheClient } from '../../tests/services/peers/xmpp_strophe';
import { percentile, round1 } from '../measure';
import { measureGroups, waitTcpPortsFree, type GroupSample } from './procStat';
import { highestPassingRate, ramp, type StepResult } from './ramp';

const PORT_BASE = 41000;
export const SESSION_LEVELS = [250, 2500];
export const MESSAGE_RATES = [100, 300, 500, 700, 1000, 2000];
/** A chat message later than this has not kept up: it counts as failed. */
export const LATE_MS = 1000;
const MESSAGE_STEP_S = 5;
const CONNECT_CONCURRENCY = 25;

export interface SessionLevel {
  sessions: number;
  connectP50Ms: number;
  connectP99Ms: number;
  pingP99Ms: number;
  ejabberd: GroupSample;
  /** ejabberd's resident memory per session above the empty server. */
  kbPerSession: number;
}

export interface MessageStep extends StepResult {
  p50Ms: number;
  p99Ms: number;
  ejabberd: GroupSample;
  generatorCpu: number;
}

async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

export async function benchXmppLoad(log: (line: string) => void): Promise<{ figures: Record<string, number>; table: string[] }> {
  const root = resolve(import.meta.dirname, '..', '..');
  const parent = join(root, 'runtime', 'bench-load-xmpp');
  mkdirSync(parent, { recursive: true });
  const runtimeDir = mkdtempSync(join(parent, 'run-'));
  const cfg = readServicesConfig({ UC_PORT_BASE: String(PORT_BASE), UC_API_PORT: String(PORT_BASE + 80) }, runtimeDir);
  if (await tcpOpen(cfg.ports.xmppC2s)) throw new Error(`bench:load xmpp: port ${cfg.ports.xmppC2s} is in use`);
  const clients: StropheClient[] = [];
  let ok = false;
  try {
    await waitTcpPortsFree([cfg.ports.xmppC2s, cfg.ports.xmppHttp, cfg.ports.xmppApi, cfg.ports.xmppErlDist]);
    await startServices(cfg, ['ejabberd']);
    const [status] = await servicesStatus(cfg, ['ejabberd']);
    const group = { ejabberd: status!.pid! };
    const empty = measureGroups(group).stop().ejabberd!.rssMb;
    const wsUrl = `ws://127.0.0.1:${cfg.ports.xmppHttp}/ws`;

    const levels: SessionLevel[] = [];
    for (const target of SESSION_LEVELS) {
      const names = Array.from({ length: target - clients.length }, (_, i) => `load.${clients.length + i}`);
      const connectMs: number[] = [];
      await forEachLimit(names, CONNECT_CONCURRENCY, async (username) => {
        await ensureXmppAccount(cfg, username);
        const t = await mintXmppToken(cfg, { username, subject: `user:${username}` });
        const t0 = performance.now();
        clients.push(await StropheClient.connect(wsUrl, `${t.jid}/load`, t.token, { timeoutMs: 30_000 }));
        connectMs.push(performance.now() - t0);
      });
      // Held: every session still answers (a sample's round trips are the figure, all must answer).
      const m = measureGroups(group);
      const pings: number[] = [];
      await forEachLimit(clients, 50, async (c) => {
        const t0 = performance.now();
        await c.ping();
        pings.push(performance.now() - t0);
      });
      const ejabberd = m.stop().ejabberd!;
      const level = {
        sessions: clients.length,
        connectP50Ms: round1(percentile(connectMs, 50)),
        connectP99Ms: round1(percentile(connectMs, 99)),
        pingP99Ms: round1(percentile(pings, 99)),
        ejabberd,
        kbPerSession: Math.round(((ejabberd.rssMb - empty) * 1000) / clients.length),
      };
      levels.push(level);
      log(`xmpp ${clients.length} sessions: ${JSON.stringify(level)}`);
    }

    // Pairs across the held sessions: the first half sends, the second half receives.
    const half = Math.floor(clients.length / 2);
    const latencies: number[] = [];
    let delivered = 0;
    let onTime = 0;
    for (let i = 0; i < half; i++) {
      clients[half + i]!.onMessage = (msg) => {
        const sent = Number(msg.body?.split(' ')[1]);
        if (Number.isFinite(sent)) {
          const ms = performance.now() - sent;
          latencies.push(ms);
          delivered++;
          if (ms <= LATE_MS) onTime++;
        }
      };
    }
    const bare = clients.map((c) => c.jid.split('/')[0]!);
    const steps = await ramp(MESSAGE_RATES, async (rate): Promise<MessageStep> => {
      latencies.length = 0;
      delivered = 0;
      onTime = 0;
      for (const c of clients) c.received.length = 0;
      const total = rate * MESSAGE_STEP_S;
      const m = measureGroups(group);
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      let sent = 0;
      // Paced in 10 ms slices: each slice sends what the rate owes so far (a late timer catches up).
      while (sent < total) {
        const owed = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * rate));
        for (; sent < owed; sent++) clients[sent % half]!.sendChat(bare[half + (sent % half)]!, `m ${performance.now()}`);
        await sleep(10);
      }
      const sendSeconds = (performance.now() - t0) / 1000;
      const deadline = performance.now() + LATE_MS + 4000;
      while (delivered < total && performance.now() < deadline) await sleep(20);
      const cpu = process.cpuUsage(cpu0);
      const step: MessageStep = {
        rate,
        attempted: total,
        failed: total - onTime,
        achievedRate: total / Math.max(sendSeconds, MESSAGE_STEP_S),
        p50Ms: round1(percentile(latencies, 50)),
        p99Ms: round1(percentile(latencies, 99)),
        ejabberd: m.stop().ejabberd!,
        generatorCpu: Math.round(((cpu.user + cpu.system) / 1000 / (performance.now() - t0)) * 100),
      };
      log(`xmpp ${rate} msgs/s: ${JSON.stringify(step)}`);
      return step;
    });
    const best = highestPassingRate(steps);
    const top = levels[levels.length - 1]!;
    const at = steps.find((s) => s.rate === best);
    ok = true;
    return {
      figures: {
        xmpp_sessions_held: top.sessions,
        xmpp_kb_per_session: top.kbPerSession,
        xmpp_msgs_per_s: best,
        ...(at ? { xmpp_msg_p50_ms_at_best: at.p50Ms, xmpp_msg_p99_ms_at_best: at.p99Ms, xmpp_cpu_ejabberd_percent_at_best: at.ejabberd.cpu } : {}),
      },
      table: [
        '| XMPP sessions held | connect p50 / p99 | ping p99 | ejabberd RSS | per session |',
        '|---|---|---|---|---|',
        ...levels.map((l) => `| ${l.sessions} | ${l.connectP50Ms} / ${l.connectP99Ms} ms | ${l.pingP99Ms} ms | ${l.ejabberd.rssMb} MB | ${l.kbPerSession} kB |`),
        '',
        `| messages/s (over ${half} pairs) | delivered within ${LATE_MS} ms | p50 / p99 | ejabberd CPU | generator CPU |`,
        '|---|---|---|---|---|',
        ...steps.map((s) => `| ${s.rate} | ${(100 * (1 - s.failed / s.attempted)).toFixed(1)} % | ${s.p50Ms} / ${s.p99Ms} ms | ${s.ejabberd.cpu} % | ${s.generatorCpu} % |`),
      ],
    };
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await stopServices(cfg, ['ejabberd']);
    if (ok) removeRuntimeDir(runtimeDir);
  }
}

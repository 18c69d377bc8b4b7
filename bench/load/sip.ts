/**
 * SIP load on the real Kamailio + rtpengine + API (PGlite, the demo organisation), sipp as the
 * generator, all on loopback (port base 40000, a fresh runtime folder under runtime/bench-load-sip):
 *
 * - sip_registrations_per_s: REGISTER → 401 → REGISTER with the API's ephemeral credentials → 200,
 *   spread over the demo's users (credentials from GET /v1/sip-credentials after each signs in);
 *   the highest rate of the ramp with < 1 % failed.
 * - sip_calls_per_s_with_media: a call (INVITE → 407 → INVITE with credentials → Kamailio asks the
 *   API for the callee's rule → rings the callee's registered sipp → 200 → ACK) with G.711 RTP both
 *   ways through rtpengine (the caller plays sipp's pcap, the callee echoes it) for HOLD_MS, then
 *   BYE; Kamailio reports start and end to the API, which files them in the history. A call
 *   rtpengine found no media ports for counts as failed (Kamailio relays it anyway, unanchored).
 *
 * Generator limits: one sipp per side, single-threaded for SIP; the callers' RTP is sipp's pcap
 * player (a thread per call), the callee's its RTP echo. rtpengine runs in userspace (no kernel
 * forwarding here) with the project's 500 media ports: four per call (two legs, RTP and RTCP).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { internalApiSecret } from '../../server/services/kamailio';
import { readServicesConfig, serviceDirs } from '../../server/services/layout';
import { servicesStatus, startServices, stopServices } from '../../server/services/manager';
import { sleep } from '../../server/services/proc';
import { DEMO_PASSWORD, asciiUsername } from '../../server/seed';
import { ACME_CORE, ACME_STAFF } from '../../server/seed-data';
import { startApi, stopApi } from '../apiServer';
import { measureGroups, udpDrops as socketDrops, type GroupSample } from './procStat';
import { highestPassingRate, ramp, type StepResult } from './ramp';
import { callScenario, registerScenario, runSipp, startAnswerer } from './sipp';

const PORT_BASE = 40000;
const API_PORT = 40080;
const SIPP_UAC_PORT = 40500;
const SIPP_UAS_PORT = 40501;
const SIPP_UAC_MEDIA = 40600;
const SIPP_UAS_MEDIA = 40610;
export const REGISTER_RATES = [250, 500, 1000, 2500, 5000, 10000];
export const REGISTER_STEP_S = 5;
export const CALL_RATES = [4, 10, 20, 40, 60, 80];
export const CALL_STEP_S = 8;
export const HOLD_MS = 3000;

export interface SipStep extends StepResult {
  servers: Record<string, GroupSample>;
  sippCpu: number;
  errors: Record<string, number>;
  /** Datagrams the kernel dropped at Kamailio's UDP socket during the step (its receive buffer full). */
  udpDrops: number;
  /** Calls rtpengine found no media ports for (counted as failed: their media bypassed it). */
  unanchored: number;
}

/**
 * Calls rtpengine could not anchor, from its log: out of media ports it answers Kamailio with an
 * error, and Kamailio relays the call anyway with the phones' own SDP, so sipp sees a good call
 * whose RTP never went through rtpengine.
 */
export const unanchoredCalls = (rtpengineLog: string) => rtpengineLog.split('Error allocating media ports').length - 1;

export interface SipLoad {
  registrations: SipStep[];
  calls: SipStep[];
  figures: Record<string, number>;
}

interface Account {
  extension: string;
  username: string;
  password: string;
}

/** Every demo user of Acme signs in and fetches SIP credentials, as the client does. */
async function credentialsFromApi(origin: string): Promise<Account[]> {
  const usernames = [...ACME_CORE, ...ACME_STAFF].map((p) => p.username ?? asciiUsername(p.first, p.last));
  const out: Account[] = [];
  for (const username of usernames) {
    const login = await fetch(`${origin}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: DEMO_PASSWORD }) });
    if (!login.ok) throw new Error(`sign-in of ${username}: ${login.status}`);
    const { access_token } = (await login.json()) as { access_token: string };
    const r = await fetch(`${origin}/v1/sip-credentials`, { headers: { authorization: `Bearer ${access_token}` } });
    if (!r.ok) throw new Error(`SIP credentials of ${username}: ${r.status}`);
    const c = (await r.json()) as { uri: string; authorization_user: string; password: string };
    out.push({ extension: /^sip:(\d+)@/.exec(c.uri)![1]!, username: c.authorization_user, password: c.password });
  }
  return out;
}

export async function benchSipLoad(log: (line: string) => void): Promise<SipLoad> {
  const root = resolve(import.meta.dirname, '..', '..');
  const parent = join(root, 'runtime', 'bench-load-sip');
  mkdirSync(parent, { recursive: true });
  const runtimeDir = mkdtempSync(join(parent, 'run-'));
  const staticDir = join(runtimeDir, 'static');
  mkdirSync(staticDir);
  const origin = `http://127.0.0.1:${API_PORT}`;
  const cfg = readServicesConfig({ UC_PORT_BASE: String(PORT_BASE), UC_API_PORT: String(API_PORT), UC_ORIGINS: origin }, runtimeDir);
  const target = `127.0.0.1:${cfg.ports.sipUdp}`;
  const names = ['rtpengine', 'kamailio'] as const;
  let api: ChildProcess | undefined;
  let answerer: ChildProcess | undefined;
  let ok = false;
  try {
    await startServices(cfg, names);
    api = await startApi({ root, runtimeDir, distDir: staticDir, portBase: PORT_BASE, apiPort: API_PORT, env: { UC_XMPP_PROVISIONING: 'off', UC_LOG_LEVEL: 'warn' } });
    const pids = Object.fromEntries((await servicesStatus(cfg, names)).map((s) => [s.name, s.pid!]));
    const groups = { ...pids, api: api.pid! };
    const accounts = await credentialsFromApi(origin);
    // sipp answers challenges with one account per run (-au/-ap): the first user registers (every
    // registration of the ramp a fresh transaction and Call-ID) and places every call.
    const me = accounts[0]!;
    const auth = { username: me.username, password: me.password };

    const registrations = await ramp(REGISTER_RATES, async (rate): Promise<SipStep> => {
      const calls = rate * REGISTER_STEP_S;
      const m = measureGroups(groups);
      const drops = socketDrops(cfg.ports.sipUdp);
      const r = await runSipp({ dir: runtimeDir, name: `register-${rate}`, scenario: registerScenario(cfg.domain, 'self'), target, localPort: SIPP_UAC_PORT, mediaPort: SIPP_UAC_MEDIA, injection: [me.extension], auth, rate, calls, timeoutS: 10 });
      const step = { rate, attempted: r.created, failed: r.created - r.successful, achievedRate: r.created / Math.max(r.seconds - 0.5, calls / rate), servers: m.stop(), sippCpu: r.sippCpu, errors: r.errors, udpDrops: socketDrops(cfg.ports.sipUdp) - drops, unanchored: 0 };
      log(`register ${rate}/s: ${r.successful}/${r.created} ok, ${r.seconds.toFixed(1)} s, CPU ${JSON.stringify(step.servers)}, sipp ${r.sippCpu} %, UDP drops ${step.udpDrops}${r.failed ? `, failures ${JSON.stringify(r.errors)}` : ''}`);
      return step;
    });

    // The callees: the users whose own rule is to ring (no do-not-disturb or forward in the demo
    // data), each registered with its own credentials at the answering sipp.
    const internal = await internalApiSecret(cfg);
    const callees: Account[] = [];
    for (const a of accounts.slice(1)) {
      const r = await fetch(`${origin}/internal/sip/route?callee=${a.extension}`, { headers: { 'X-UC-Internal': internal } });
      if (r.ok && (await r.text()) === 'ring') callees.push(a);
    }
    if (callees.length === 0) throw new Error('no demo user whose calls ring');
    answerer = startAnswerer(runtimeDir, target, SIPP_UAS_PORT, SIPP_UAS_MEDIA);
    for (const c of callees) {
      const reg = await runSipp({ dir: runtimeDir, name: 'register-callee', scenario: registerScenario(cfg.domain, SIPP_UAS_PORT), target, localPort: SIPP_UAC_PORT, mediaPort: SIPP_UAC_MEDIA, injection: [c.extension], auth: { username: c.username, password: c.password }, rate: 10, calls: 1, timeoutS: 5 });
      if (reg.successful !== 1) throw new Error(`callee ${c.extension} did not register`);
    }
    const callInjection = callees.map((c) => `${me.extension};${c.extension}`);

    const rtpengineLog = join(serviceDirs(cfg.runtimeDir, 'rtpengine').log, 'rtpengine.log');
    const calls = await ramp(CALL_RATES, async (rate): Promise<SipStep> => {
      const n = rate * CALL_STEP_S;
      const unanchored0 = unanchoredCalls(readFileSync(rtpengineLog, 'utf8'));
      const m = measureGroups(groups);
      const drops = socketDrops(cfg.ports.sipUdp);
      const r = await runSipp({ dir: runtimeDir, name: `call-${rate}`, scenario: callScenario(cfg.domain, HOLD_MS), target, localPort: SIPP_UAC_PORT, mediaPort: SIPP_UAC_MEDIA, injection: callInjection, auth, rate, calls: n, timeoutS: 15 });
      const unanchored = unanchoredCalls(readFileSync(rtpengineLog, 'utf8')) - unanchored0;
      const step = { rate, attempted: r.created, failed: r.created - r.successful + unanchored, achievedRate: r.created / Math.max(r.seconds - HOLD_MS / 1000 - 1, n / rate), servers: m.stop(), sippCpu: r.sippCpu, errors: unanchored ? { ...r.errors, 'no rtpengine ports': unanchored } : r.errors, udpDrops: socketDrops(cfg.ports.sipUdp) - drops, unanchored };
      log(`calls ${rate}/s: ${r.successful}/${r.created} ok, ${r.seconds.toFixed(1)} s, CPU ${JSON.stringify(step.servers)}, sipp ${r.sippCpu} %, UDP drops ${step.udpDrops}${r.failed ? `, failures ${JSON.stringify(r.errors)}` : ''}`);
      // The next step starts with no call of this one still open (sipp's timewait, rtpengine's delete).
      await sleep(1000);
      return step;
    });

    const atBest = (steps: SipStep[], best: number, prefix: string) => {
      const s = steps.find((x) => x.rate === best);
      return s ? Object.fromEntries(Object.entries(s.servers).map(([k, v]) => [`${prefix}_cpu_${k}_percent`, v.cpu])) : {};
    };
    const bestReg = highestPassingRate(registrations);
    const bestCall = highestPassingRate(calls);
    ok = true;
    return {
      registrations,
      calls,
      figures: {
        sip_registrations_per_s: bestReg,
        ...atBest(registrations, bestReg, 'sip_registrations'),
        sip_calls_per_s_with_media: bestCall,
        sip_calls_concurrent_at_best: Math.round((bestCall * (HOLD_MS + 200)) / 1000),
        ...atBest(calls, bestCall, 'sip_calls'),
      },
    };
  } finally {
    if (answerer?.pid && answerer.exitCode === null) {
      answerer.kill('SIGTERM');
      await new Promise((r) => answerer!.once('exit', r));
    }
    if (api) await stopApi(api);
    await stopServices(cfg, [...names]);
    // The sipp error files say why the last step failed: kept (the API's database is not).
    if (ok) rmSync(join(runtimeDir, 'db'), { recursive: true, force: true });
    log(`SIP logs and sipp error files: ${runtimeDir}`);
  }
}

/**
 * Two Kamailios and two rtpengines (issue 25's cluster, UC_CLUSTER=1): registrations shared over DMQ,
 * calls between users registered on different Kamailios with real media through either rtpengine,
 * and what happens when one rtpengine or one Kamailio dies. This file replaces the run's single
 * Kamailio and rtpengine by the cluster's four servers, and puts them back when it is done.
 */
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { recordingDirs } from '../../server/calls/live-recordings';
import { startRecording, stopRecording } from '../../server/services/recording';
import { internalApiSecret, kamailio, kamailioNode, sipWsUrls, type KamailioNode } from '../../server/services/kamailio';
import type { ServiceName, ServicesConfig } from '../../server/services/layout';
import { isBrowserContact, registeredContacts } from '../../server/services/kamailio-rpc';
import { servicesStatus, startServices, stopServices } from '../../server/services/manager';
import { NgClient } from '../../server/services/ng';
import { readPid } from '../../server/services/proc';
import { rtpengine, rtpengine2 } from '../../server/services/rtpengine';
import type { SipCredentialsResponse } from '../../src/wire/services';
import { callHistoryOf, startServicesApi, type ServicesApi } from './harness';
import { killGroup, launchChromium, SipPage, type LaunchedChromium } from './sip-page';

const CLUSTER: ServiceName[] = ['rtpengine', 'rtpengine2', 'kamailio', 'kamailio2'];

let base: ServicesConfig;
let cfg: ServicesConfig;
/** The run's own SIP servers that were up before this file, started again after it. */
let restore: ServiceName[] = [];
let api: ServicesApi;
let chrome: LaunchedChromium;
let ws1: string;
let ws2: string;
const phones: Record<string, SipPage> = {};
const tokens: Record<string, string> = {};
/** Seconds measured here, printed at the end (docs/SCALING.md quotes them). */
const measured: Record<string, number> = {};

beforeAll(async () => {
  base = inject('servicesConfig');
  cfg = { ...base, cluster: true };
  restore = (await servicesStatus(base, ['rtpengine', 'kamailio'])).filter((s) => s.pid).map((s) => s.name);
  await stopServices(base, ['kamailio', 'rtpengine']);
  await startServices(cfg, CLUSTER);
  [ws1, ws2] = sipWsUrls(cfg) as [string, string];
  api = await startServicesApi({ cfg });
  chrome = await launchChromium();
  const browserPid = chrome.pid;
  // A run stopped midway (no afterAll) must not leave the browser behind.
  process.once('exit', () => killGroup(browserPid));
}, 120_000);

afterAll(async () => {
  for (const p of Object.values(phones)) await p.close().catch(() => undefined);
  if (chrome) {
    await chrome.close();
    killGroup(chrome.pid);
  }
  await api?.close();
  await stopServices(cfg, CLUSTER);
  if (restore.length) await startServices(base, restore);
  console.log(`[sip-cluster] measured: ${JSON.stringify(measured)}`);
}, 120_000);

/** A signed-in user's browser phone on the cluster's WebSockets, the first given the higher weight. */
async function phone(user: string, preferred: string, other: string): Promise<SipPage> {
  const token = await api.login(user);
  tokens[user] = token;
  const creds = await api.get<SipCredentialsResponse>('/v1/sip-credentials', token);
  expect(creds.ws_urls).toEqual([ws1, ws2]);
  const config = await api.get<{ sip: { ws_url: string; ws_urls?: string[] } }>('/v1/ucc-config', token);
  expect(config.sip).toEqual(expect.objectContaining({ ws_url: ws1, ws_urls: [ws1, ws2] }));
  const page = await SipPage.open(chrome.browser, api.origin);
  phones[user] = page;
  await page.register({
    wsUrl: creds.ws_url,
    sockets: [
      { url: preferred, weight: 2 },
      { url: other, weight: 1 },
    ],
    uri: creds.uri,
    authorization_user: creds.authorization_user,
    password: creds.password,
  });
  return page;
}

/** Which rtpengine (1 or 2) anchors this call, by asking each over ng; 0: neither. */
async function rtpengineOf(callId: string): Promise<0 | 1 | 2> {
  for (const [n, port] of [
    [1, cfg.ports.rtpengineNg],
    [2, cfg.ports.rtpengine2Ng],
  ] as const) {
    const ng = new NgClient(port);
    try {
      const res = await ng.command('query', { 'call-id': callId }, 500).catch(() => null);
      if (res?.result === 'ok') return n;
    } finally {
      ng.close();
    }
  }
  return 0;
}

/** Kamailio's RPC on one node's WebSocket listener (from loopback with the internal secret). */
async function rpc(node: KamailioNode, method: string, params: unknown[] = []): Promise<unknown> {
  const { host, sipWs } = kamailioNode(cfg, node);
  const res = await fetch(`http://${host}:${sipWs}/RPC`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-uc-internal': await internalApiSecret(cfg), connection: 'close' },
    body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }),
  });
  return ((await res.json()) as { result: unknown }).result;
}

/** The AoRs a node has in its location table (its own registrations and the replicated ones). */
async function registeredOn(node: KamailioNode): Promise<string[]> {
  const dump = (await rpc(node, 'ul.dump')) as { Domains?: Array<{ Domain: { AoRs: Array<{ Info: { AoR: string } }> } }> };
  return (dump.Domains ?? []).flatMap((d) => d.Domain.AoRs.map((a) => a.Info.AoR));
}

/** Places a call, waits until both sides are up and hear each other; returns the Call-ID and setup time. */
async function callWithAudio(from: SipPage, to: SipPage, target: string): Promise<{ callId: string; setupMs: number; key: string; incoming: string }> {
  const t0 = performance.now();
  const key = await from.call(target);
  const out = await from.waitFor(key, 'confirmed');
  expect(out.endCause).toBeNull();
  const setupMs = performance.now() - t0;
  const incoming = (await to.sessions()).find((s) => s.callId === out.callId);
  expect(incoming).toBeTruthy();
  await to.waitFor(incoming!.key, 'confirmed');
  await from.waitForInboundBytes(key, 2000);
  await to.waitForInboundBytes(incoming!.key, 2000);
  return { callId: out.callId, setupMs, key, incoming: incoming!.key };
}

async function hangUp(from: SipPage, to: SipPage, call: { key: string; incoming: string }): Promise<void> {
  await from.hangup(call.key);
  await from.waitFor(call.key, 'ended');
  await to.waitFor(call.incoming, 'ended');
}

async function kill(pidFile: string): Promise<void> {
  const pid = await readPid(pidFile);
  expect(pid).toBeTruthy();
  killGroup(pid!);
}

describe('SIP on two Kamailios and two rtpengines', () => {
  it('a user registered on Kamailio 1 calls one registered on Kamailio 2, audio both ways, calls spread over both rtpengines', async () => {
    const alice = await phone('alice', ws1, ws2);
    const bob = await phone('bob', ws2, ws1);
    expect(await alice.registrations()).toEqual([ws1]);
    expect(await bob.registrations()).toEqual([ws2]);
    // Each node knows both users: its own registration and the other's, replicated over DMQ.
    const t0 = performance.now();
        await expect.poll(() => registeredOn(1), { timeout: 5000 }).toEqual(expect.arrayContaining(['1001', '1002']));
    await expect.poll(() => registeredOn(2), { timeout: 5000 }).toEqual(expect.arrayContaining(['1001', '1002']));
    measured.registrationsVisibleOnBothMs = Math.round(performance.now() - t0);

    // Each call goes to one rtpengine of the set (chosen by its Call-ID): a few calls, both ways,
    // until each rtpengine has carried one (at most 12: a chance of 1 in 2048 of missing one).
    const seen = new Set<number>();
    const setup: number[] = [];
    const fromNode2: string[] = [];
    for (let i = 0; i < 12 && seen.size < 2; i++) {
      const [from, to, target] = i % 2 === 0 ? [alice, bob, '1002'] : [bob, alice, '1001'];
      const call = await callWithAudio(from, to, target);
      setup.push(call.setupMs);
      if (from === bob) fromNode2.push(call.callId);
      const node = await rtpengineOf(call.callId);
      expect(node).not.toBe(0);
      // Recording works wherever the call is: the API asks both rtpengines, the one with the call records.
      if (!seen.has(node)) {
        await startRecording(cfg, call.callId);
        await stopRecording(cfg, call.callId);
        await expect.poll(async () => (await readdir(recordingDirs(cfg.runtimeDir).pcaps).catch(() => [])).some((f) => f.startsWith(call.callId))).toBe(true);
      }
      seen.add(node);
      await hangUp(from, to, call);
      // The call is gone from its rtpengine with the BYE: nothing left behind on either.
      await expect.poll(() => rtpengineOf(call.callId), { timeout: 5000 }).toBe(0);
    }
    expect([...seen].sort()).toEqual([1, 2]);
    // Kamailio 2 reports its calls to the API like Kamailio 1, and the node that only hands a call
    // to its browser reports nothing: one history row for the callee, answered.
    const aliceId = await api.userId('alice');
    for (const callId of fromNode2) {
      await expect
        .poll(async () => (await callHistoryOf(api, tokens.alice!, aliceId, callId)).map((r) => [r.direction, r.disposition]), { timeout: 10_000 })
        .toEqual([['inbound', 'ANSWERED']]);
    }

    // Each side puts the call on hold and back (re-INVITEs through both nodes, media renegotiated
    // by the caller's node): the call goes on with audio both ways.
    const call = await callWithAudio(alice, bob, '1002');
    await bob.hold(call.incoming, true);
    await bob.hold(call.incoming, false);
    await alice.hold(call.key, true);
    await alice.hold(call.key, false);
    const [a0, b0] = [await alice.inboundBytes(call.key), await bob.inboundBytes(call.incoming)];
    await alice.waitForInboundBytes(call.key, a0 + 2000);
    await bob.waitForInboundBytes(call.incoming, b0 + 2000);
    await hangUp(alice, bob, call);
    measured.callSetupMedianMs = Math.round(setup.sort((a, b) => a - b)[Math.floor(setup.length / 2)]!);
  }, 120_000);

  it('with one rtpengine hung, then killed, new calls still get media through the other', async () => {
    const [alice, bob] = [phones.alice!, phones.bob!];
    // Hung first (stopped: its port is open but nothing answers, as with a machine gone silent), so
    // that Kamailio has to wait out its timeout rather than be told at once that nobody listens.
    const pid = (await readPid(rtpengine2.pidFile(cfg)))!;
    process.kill(-pid, 'SIGSTOP');
    // Calls until the Kamailio of the caller has tried the dead one and set it aside (the Call-ID
    // decides which one a call tries first); every call must connect with media through rtpengine 1.
    let disabled = false;
    const setup: number[] = [];
    for (let i = 0; i < 8 && !disabled; i++) {
      const call = await callWithAudio(alice, bob, '1002');
      setup.push(call.setupMs);
      expect(await rtpengineOf(call.callId)).toBe(1);
      await hangUp(alice, bob, call);
      const show = JSON.stringify(await rpc(1, 'rtpengine.show', ['all']));
      disabled = new RegExp(`udp:127\\.0\\.0\\.1:${cfg.ports.rtpengine2Ng}[^}]*"disabled":1`).test(show);
    }
    expect(disabled).toBe(true);
    measured.callSetupWithHungRtpengineMaxMs = Math.round(Math.max(...setup));
    killGroup(pid);
    const call = await callWithAudio(alice, bob, '1002');
    expect(await rtpengineOf(call.callId)).toBe(1);
    await hangUp(alice, bob, call);
  }, 90_000);

  it('with Kamailio 1 killed, its user registers on Kamailio 2 and can be called there', async () => {
    const [alice, bob] = [phones.alice!, phones.bob!];
    await kill(kamailio.pidFile(cfg));
    const t0 = performance.now();
    await expect.poll(() => alice.registrations(), { timeout: 40_000, interval: 100 }).toEqual([ws1, ws2]);
    measured.reRegisterAfterKamailioDeathS = Math.round((performance.now() - t0) / 100) / 10;
    // The API's view of a user's phones (Kamailio's RPC) still answers: from the remaining node.
    // The registration on Kamailio 2 replaced the one made on Kamailio 1 (same contact): one phone.
    const contacts = await registeredContacts(cfg, '1001');
    expect(contacts).toHaveLength(1);
    expect(isBrowserContact(contacts[0]!.address)).toBe(true);
    const call = await callWithAudio(bob, alice, '1001');
    await hangUp(bob, alice, call);
  }, 90_000);
});

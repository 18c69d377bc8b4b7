/**
 * ejabberd as a real two-node cluster (issue 25): both nodes started by the project's own service
 * manager with UC_CLUSTER=1 on a throwaway PostgreSQL (scripts/pg-test.sh), a user on each node
 * chatting both ways, a group with members on both nodes, then the first node SIGKILLed: its user
 * moves to the second node and finds everything (offline delivery, the archive), the API still
 * provisions through the second node, the product's own chat engine (the browser client's) moves to
 * the second node by itself, and the first node comes back into the cluster.
 *
 * The suite's own (single, SQLite) ejabberd holds the first node's ports: it steps aside for this
 * file and is started again after it, with its data untouched (its folder is not this file's).
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ChatRoom } from '../../src/wire/chatRooms';
import { XmppTokenResponse } from '../../src/wire/services';
import { xmppProvisioning } from '../../server/chat/routes';
import { parseSlot, slotRequest } from '../../src/plugins/messaging/engine/mediaStanzas';
import { clusterOf, ejabberd, ejabberd2, mucHost, uploadHost } from '../../server/services/ejabberd';
import { ejabberdNodes, ejabberdWsUrls } from '../../server/services/ejabberd-nodes';
import { removeRuntimeDir, type ServicesConfig } from '../../server/services/layout';
import { startServices, stopServices } from '../../server/services/manager';
import { isAlive, readPid, runningPid } from '../../server/services/proc';
import { xmppApi, xmppNodeApi } from '../../server/services/xmpp-api';
import { startServicesApi, type ServicesApi } from './harness';
import { StropheClient } from './peers/xmpp_strophe';
import { Connections } from '../../src/shell/connections';
import { ChatEngine } from '../../src/plugins/messaging/engine/ChatEngine';
import { testEngineDeps } from '../../src/plugins/messaging/engine/testEngineDeps';
import { chat, resetChat } from '../../src/plugins/messaging/state';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..', '..');
const suite = inject('servicesConfig');
/** The throwaway PostgreSQL's port: base+432 (36432 for base 36000) unless UC_TEST_PG_PORT says. */
const pgPort = process.env.UC_TEST_PG_PORT || String(suite.ports.base + 432);

let cfg: ServicesConfig | undefined;
let api: ServicesApi | undefined;
let adminUrl = '';
let dbName = '';
let startedPg = false;
let suiteEjabberdStopped = false;
const clients: StropheClient[] = [];
let engine: ChatEngine | null = null;
/** Measured figures, printed at the end (docs/SCALING.md quotes them). */
const figures: Record<string, number> = {};

const pgTest = async (action: string) =>
  (await run('bash', [path.join(root, 'scripts', 'pg-test.sh'), action], { cwd: root, env: { ...process.env, UC_TEST_PG_PORT: pgPort }, timeout: 120_000 })).stdout.trim();

async function adminQuery(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

const nonce = () => randomUUID().slice(0, 8);
const jidOf = (user: string) => `${user}@${cfg!.domain}`;

async function tokenFor(user: string): Promise<XmppTokenResponse> {
  return XmppTokenResponse.parse(await api!.get('/v1/xmpp-token', await api!.login(user)));
}

/** Signs `user` in on node `index` (0 or 1) of the list the API hands out. */
async function signIn(user: string, index: number): Promise<StropheClient> {
  const t = await tokenFor(user);
  const urls = t.ws_urls ?? [t.ws_url];
  const c = await StropheClient.connect(urls[index]!, `${t.jid}/cluster-${nonce()}`, t.token);
  clients.push(c);
  return c;
}

/** The Erlang node each of the user's sessions lives on, as the cluster sees it. */
async function sessionNodes(user: string, resource = /./): Promise<string[]> {
  const infos = await xmppApi(cfg!).call<Array<{ node: string; resource: string }>>('user_sessions_info', { user, host: cfg!.domain });
  return infos
    .filter((i) => resource.test(i.resource))
    .map((i) => i.node)
    .sort();
}

/**
 * The product's own chat engine (the browser client's, with its real connection banner and retry
 * schedule) signed in as `user`, its API calls answered by the API server of this file.
 */
async function productClient(user: string): Promise<ChatEngine> {
  const token = await api!.login(user);
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => {
    const res = await api!.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { payload: body as object }) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode}`);
    return res.body ? res.json() : null;
  };
  resetChat();
  const e = new ChatEngine(
    testEngineDeps({
      api: { get: (url: string) => call('GET', url), post: (url: string, b?: unknown) => call('POST', url, b), put: (url: string, b?: unknown) => call('PUT', url, b), delete: (url: string) => call('DELETE', url) } as never,
      connections: new Connections(),
      mucDomain: mucHost(cfg!),
      pingTimeoutMs: 10_000,
      createConnection: undefined,
    }),
  );
  e.start();
  return e;
}

beforeAll(async () => {
  if (process.env.UC_TEST_DATABASE_URL) adminUrl = process.env.UC_TEST_DATABASE_URL;
  else {
    // pg-test.sh keeps one cluster per clone: one already running (on whatever port) is not ours to stop.
    const running = await pgTest('status').then(
      () => true,
      () => false,
    );
    if (running) throw new Error('a test PostgreSQL of this clone already runs (scripts/pg-test.sh status): give its URL as UC_TEST_DATABASE_URL');
    await pgTest('start');
    startedPg = true;
    adminUrl = await pgTest('url');
  }
  dbName = `uc_cluster_${Date.now().toString(36)}`;
  await adminQuery(`CREATE DATABASE ${dbName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  cfg = { ...suite, runtimeDir: path.join(root, 'runtime', `test-xmpp-cluster-${suite.ports.base}`), databaseUrl: url.toString(), cluster: true };

  suiteEjabberdStopped = (await runningPid(ejabberd.pidFile(suite))) !== null;
  await stopServices(suite, ['ejabberd']);
  // A run killed midway may have left this file's nodes behind.
  await stopServices(cfg, ['ejabberd', 'ejabberd2']);
  removeRuntimeDir(cfg.runtimeDir);
  const lines: string[] = [];
  const started = performance.now();
  await startServices(cfg, ['ejabberd', 'ejabberd2'], (l) => lines.push(l));
  figures.clusterStartMs = Math.round(performance.now() - started);
  console.log(`[xmpp-cluster] ${lines.join('; ')}`);

  api = await startServicesApi({ cfg, voicemail: false });
  const report = await xmppProvisioning(api.app);
  expect(report?.failures ?? ['no report'], 'provisioning through the cluster').toEqual([]);
}, 180_000);

afterAll(async () => {
  engine?.dispose();
  for (const c of clients) await c.close().catch(() => undefined);
  await api?.close().catch(() => undefined);
  if (cfg) {
    await stopServices(cfg, ['ejabberd', 'ejabberd2']);
    removeRuntimeDir(cfg.runtimeDir);
  }
  if (dbName) for (const db of [`${dbName}_xmpp`, dbName]) await adminQuery(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`).catch(() => undefined);
  if (startedPg) await pgTest('stop');
  if (suiteEjabberdStopped) await startServices(suite, ['ejabberd']);
  console.log(`[xmpp-cluster] figures ${JSON.stringify(figures)}`);
}, 180_000);

describe('ejabberd as two nodes (UC_CLUSTER=1, shared PostgreSQL)', () => {
  let alice: StropheClient;
  let bob: StropheClient;
  let room = '';
  const said: string[] = [];
  const saidInRoom: string[] = [];

  it('are one cluster, and the API hands out both nodes, the first first', async () => {
    const [one, two] = ejabberdNodes(cfg!);
    expect((await clusterOf(one!)).sort()).toEqual([one!.erlangNode, two!.erlangNode].sort());
    expect((await clusterOf(two!)).sort()).toEqual([one!.erlangNode, two!.erlangNode].sort());
    const t = await tokenFor('alice');
    expect(t.ws_urls).toEqual(ejabberdWsUrls(cfg!));
    expect(t.ws_url).toBe(t.ws_urls![0]);
  });

  it('lets a user on node 1 and a user on node 2 chat, both ways', async () => {
    alice = await signIn('alice', 0);
    bob = await signIn('bob', 1);
    const [one, two] = ejabberdNodes(cfg!);
    expect(await sessionNodes('alice')).toEqual([one!.erlangNode]);
    expect(await sessionNodes('bob')).toEqual([two!.erlangNode]);

    const toBob = `1→2 ${nonce()}`;
    alice.sendChat(jidOf('bob'), toBob);
    await bob.waitForMessage((m) => m.body === toBob, 10_000, 'message from node 1');
    const toAlice = `2→1 ${nonce()}`;
    bob.sendChat(jidOf('alice'), toAlice);
    await alice.waitForMessage((m) => m.body === toAlice, 10_000, 'message from node 2');
    said.push(toBob, toAlice);
  });

  it('runs a group whose members are on both nodes', async () => {
    const res = await api!.app.inject({
      method: 'POST',
      url: '/v1/chat/rooms',
      headers: { authorization: `Bearer ${await api!.login('alice')}` },
      payload: { subject: `Across ${nonce()}`, member_ids: [await api!.userId('bob')] },
    });
    expect(res.statusCode, res.body).toBe(201);
    room = ChatRoom.parse(res.json()).jid;
    expect((await xmppApi(cfg!).call<string[]>('get_subscribers', { name: room.split('@')[0], service: mucHost(cfg!) })).length).toBe(2);

    const fromOne = `room from node 1 ${nonce()}`;
    alice.sendChat(room, fromOne, 'groupchat');
    await bob.waitForMessage((m) => m.mucsub && m.body === fromOne, 10_000, 'room message from node 1');
    const fromTwo = `room from node 2 ${nonce()}`;
    bob.sendChat(room, fromTwo, 'groupchat');
    await alice.waitForMessage((m) => m.mucsub && m.body === fromTwo, 10_000, 'room message from node 2');
    saidInRoom.push(fromOne, fromTwo);
  });

  it('keeps chat files in one folder: a slot handed out by node 2 is PUT there and read through either node', async () => {
    const [one, two] = ejabberdNodes(cfg!);
    const bytes = Buffer.from(`file ${nonce()}`);
    const slot = parseSlot(await bob.iq(slotRequest(uploadHost(cfg!), { name: 'note.txt', size: bytes.length, type: 'text/plain' })))!;
    expect(new URL(slot.put).port).toBe(String(two!.http));
    expect((await fetch(slot.put, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'Content-Type': 'text/plain' } })).status).toBe(201);
    expect(Buffer.from(await (await fetch(slot.get)).arrayBuffer())).toEqual(bytes);
    const viaOne = new URL(slot.get);
    viaOne.port = String(one!.http);
    expect(Buffer.from(await (await fetch(viaOne)).arrayBuffer())).toEqual(bytes);
  });

  it('loses nothing when node 1 is SIGKILLed: its user moves to node 2, gets what was sent meanwhile and the whole archive', async () => {
    expect(room, 'the group of the previous test').not.toBe('');
    const [one, two] = ejabberdNodes(cfg!);
    // Carol in the browser client (the product's engine: its first address is node 1). Another user
    // than alice, whose messages sent meanwhile must wait for her in offline storage.
    engine = await productClient('carol');
    await expect.poll(() => chat.status, { timeout: 15_000 }).toBe('connected');
    expect(await sessionNodes('carol', /^uc-/)).toEqual([one!.erlangNode]);

    const pid = await readPid(ejabberd.pidFile(cfg!));
    expect(pid).toBeTruthy();
    const killedAt = performance.now();
    process.kill(pid!, 'SIGKILL');
    // Watched from now on: how long the browser client takes to be back, on node 2.
    const clientMoved = expect
      .poll(() => sessionNodes('carol', /^uc-/), { timeout: 20_000, interval: 50 })
      .toEqual([two!.erlangNode])
      .then(() => (figures.clientReconnectMs = Math.round(performance.now() - killedAt)));
    clientMoved.catch(() => undefined);
    await expect.poll(() => isAlive(pid!), { timeout: 10_000 }).toBe(false);
    // The WebSocket closes with the VM: the client sees its node gone.
    await expect.poll(() => alice.conn.connected, { timeout: 10_000 }).toBe(false);
    figures.dropSeenMs = Math.round(performance.now() - killedAt);
    // node 2 notices node 1's loss (Erlang distribution) and carries on alone.
    await expect.poll(() => clusterOf(two!), { timeout: 10_000 }).toEqual([two!.erlangNode]);

    // Meanwhile: a 1:1 message and a group message to alice, who is offline.
    const away = `while node 1 is down ${nonce()}`;
    bob.sendChat(jidOf('alice'), away);
    const awayInRoom = `room while node 1 is down ${nonce()}`;
    bob.sendChat(room, awayInRoom, 'groupchat');
    await bob.waitForMessage((m) => m.mucsub && m.body === awayInRoom, 10_000, 'own room message echoed by node 2');
    said.push(away);
    saidInRoom.push(awayInRoom);

    // The API provisions through node 2 (node 1 refuses connections) and hands out both addresses:
    // alice's client takes the next one.
    const again = await signIn('alice', 1);
    figures.reconnectMs = Math.round(performance.now() - killedAt);
    expect(await sessionNodes('alice')).toEqual([two!.erlangNode]);
    await again.waitForMessage((m) => m.body === away, 10_000, '1:1 message sent while away (offline storage)');
    await again.waitForMessage((m) => m.mucsub && m.body === awayInRoom, 10_000, 'group message sent while away');
    // The browser client moved by itself, on its retry schedule, to the next address: node 2.
    await clientMoved;
    await expect.poll(() => chat.status, { timeout: 10_000 }).toBe('connected');

    // The archive (MAM, in PostgreSQL) has the whole conversation and the group's, from node 2.
    const history = await again.mam({ with: jidOf('bob'), max: 50 });
    expect(history.messages.map((m) => m.body)).toEqual(said);
    const roomHistory = await again.mam({ archive: room, max: 50 });
    expect(roomHistory.messages.map((m) => m.body)).toEqual(saidInRoom);

    // Node 1 comes back by the project's start and rejoins the cluster by itself.
    const restarted = performance.now();
    await startServices(cfg!, ['ejabberd']);
    figures.rejoinMs = Math.round(performance.now() - restarted);
    expect((await clusterOf(two!)).sort()).toEqual([one!.erlangNode, two!.erlangNode].sort());
    expect(await xmppNodeApi(one!.api).call<string>('status', {}, 2000)).toMatch(/is started/);
    const carol = await signIn('carol', 0);
    const back = `from node 1 again ${nonce()}`;
    carol.sendChat(jidOf('alice'), back);
    await again.waitForMessage((m) => m.body === back, 10_000, 'message from the restarted node 1');
  });

  it('brings node 2 back after a SIGKILL through the project script (UC_CLUSTER=1), into the cluster, and lists both nodes', async () => {
    const [one, two] = ejabberdNodes(cfg!);
    const pid = await readPid(ejabberd2.pidFile(cfg!));
    expect(pid).toBeTruthy();
    process.kill(pid!, 'SIGKILL');
    await expect.poll(() => isAlive(pid!), { timeout: 10_000 }).toBe(false);
    await expect.poll(() => clusterOf(one!), { timeout: 10_000 }).toEqual([one!.erlangNode]);
    const env = {
      ...process.env,
      UC_RUNTIME_DIR: cfg!.runtimeDir,
      UC_PORT_BASE: String(cfg!.ports.base),
      UC_ORIGINS: cfg!.origins.join(','),
      UC_SIP_GATEWAY: cfg!.gateway,
      UC_API_PORT: new URL(cfg!.apiUrl).port,
      UC_CLUSTER: '1',
      DATABASE_URL: cfg!.databaseUrl,
    };
    const cli = async (...args: string[]) => (await run(process.execPath, ['--import', 'tsx', 'server/services/cli.ts', ...args], { cwd: root, env, timeout: 90_000 })).stdout;
    expect(await cli('start', 'ejabberd2')).toMatch(/ejabberd2 ready/);
    expect((await clusterOf(one!)).sort()).toEqual([one!.erlangNode, two!.erlangNode].sort());
    const status = await cli('status', 'ejabberd', 'ejabberd2');
    expect(status).toMatch(/^ejabberd +running \(PID \d+\), ready$/m);
    expect(status).toMatch(/^ejabberd2 +running \(PID \d+\), ready$/m);
  });

  it('refuses a cluster without PostgreSQL, saying why', async () => {
    await expect(ejabberd2.prepare({ ...cfg!, databaseUrl: undefined })).rejects.toThrow(/UC_CLUSTER=1 needs DATABASE_URL/);
  });
});

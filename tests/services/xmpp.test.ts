/**
 * Chat against the real ejabberd of this run: the API's login tokens, accounts and rooms made by the
 * provisioning sweep, 1:1 between our client (Strophe over WebSocket) and an independent one
 * (slixmpp over TCP), MucSub delivery to an offline member, MAM paging.
 */
import { randomUUID } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { decodeJwt, jwtVerify } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { XmppTokenResponse } from '../../src/wire/services';
import { buildApp } from '../../server/app';
import { hashPassword } from '../../server/auth/passwords';
import { xmppProvisioning } from '../../server/chat/routes';
import { mucHost, xmppJwtSecret } from '../../server/services/ejabberd';
import { serviceDirs } from '../../server/services/layout';
import { xmppApi } from '../../server/services/xmpp-api';
import { provisionAll } from '../../server/services/xmpp-provision';
import { mintXmppToken } from '../../server/services/xmpp-token';
import { startServicesApi, type ServicesApi } from './harness';
import { SlixmppPeer } from './peers/xmpp_slixmpp';
import { StropheClient, XmppConnectError } from './peers/xmpp_strophe';

let api: ServicesApi;
const cleanups: Array<() => Promise<void>> = [];
/** Registers something to close after the current test, pass or fail. */
function own<T extends { close(): Promise<void> }>(x: T): T {
  cleanups.push(() => x.close());
  return x;
}

const wsUrl = () => `ws://127.0.0.1:${api.cfg.ports.xmppHttp}/ws`;
const jidOf = (username: string) => `${username}@${api.cfg.domain}`;
/** Unique text per run, so a message from an earlier test or run can never satisfy a wait. */
const nonce = () => randomUUID().slice(0, 8);

async function tokenFor(username: string): Promise<XmppTokenResponse> {
  return XmppTokenResponse.parse(await api.get('/v1/xmpp-token', await api.login(username)));
}

async function strophe(username: string): Promise<StropheClient> {
  const t = await tokenFor(username);
  return own(await StropheClient.connect(wsUrl(), `${t.jid}/strophe-${nonce()}`, t.token));
}

async function slixmpp(username: string): Promise<SlixmppPeer> {
  const t = await tokenFor(username);
  const peer = own(SlixmppPeer.start());
  const res = await peer.connect({ jid: `${t.jid}/slixmpp`, password: t.token, port: api.cfg.ports.xmppC2s });
  expect(res.event).toBe('session_start');
  return peer;
}

async function roomJid(subject: string): Promise<string> {
  const { rows } = await api.db.query<{ jid_local: string }>('SELECT jid_local FROM chat_rooms WHERE subject = $1', [subject]);
  if (!rows[0]) throw new Error(`no room ${subject}`);
  return `${rows[0].jid_local}@${mucHost(api.cfg)}`;
}

beforeAll(async () => {
  api = await startServicesApi();
  // The API server provisions in the background once ready; everything below relies on it.
  const report = await xmppProvisioning(api.app);
  expect(report?.rooms, 'rooms provisioned by the startup sweep').toBe(2);
});

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

afterAll(async () => {
  await api?.close();
});

describe('GET /v1/xmpp-token', () => {
  it('answers the JID of the user and a 10-minute HS256 token signed with the key ejabberd reads', async () => {
    const before = Math.floor(Date.now() / 1000);
    const t = await tokenFor('alice');
    expect(t.jid).toBe(jidOf('alice'));
    expect(t.ws_url).toMatch(/^wss?:\/\/[^/]+\/ws$/);
    const claims = decodeJwt(t.token);
    expect(claims.jid).toBe(jidOf('alice'));
    expect(typeof claims.exp).toBe('number');
    expect(claims.exp! - before).toBeGreaterThanOrEqual(600 - 2);
    expect(claims.exp! - before).toBeLessThanOrEqual(600 + 2);
    expect(claims.sub).toBe(`user:${await api.userId('alice')}`);
    expect(typeof claims.iat).toBe('number');
    expect(new Date(t.expires_at).getTime()).toBe(claims.exp! * 1000);
    await expect(jwtVerify(t.token, await xmppJwtSecret(api.cfg), { algorithms: ['HS256'] })).resolves.toBeTruthy();
  });

  it('refuses limited-access users (403) and callers without a bearer token (401)', async () => {
    const dave = await api.app.inject({ method: 'GET', url: '/v1/xmpp-token', headers: { authorization: `Bearer ${await api.login('dave')}` } });
    expect(dave.statusCode).toBe(403);
    expect(dave.json()).toMatchObject({ error: 'forbidden', message: 'Chat is not available for your role' });
    const anonymous = await api.app.inject({ method: 'GET', url: '/v1/xmpp-token' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('is accepted by ejabberd, and an expired one is refused (AUTHFAIL)', async () => {
    const t = await tokenFor('alice');
    const ok = own(await StropheClient.connect(wsUrl(), `${t.jid}/fresh`, t.token));
    expect(ok.jid).toBe(`${jidOf('alice')}/fresh`);

    const expired = await mintXmppToken(api.cfg, { username: 'alice', subject: 'user:test', ttlSeconds: -60 });
    const failure = await StropheClient.connect(wsUrl(), `${expired.jid}/expired`, expired.token).then(
      (c) => (own(c), null),
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(XmppConnectError);
    expect((failure as XmppConnectError).status).toBe('AUTHFAIL');
  });

  it('works at once for a user created after the startup sweep', async () => {
    const username = `newcomer${nonce()}`;
    await api.db.query(
      `INSERT INTO users (organization_id, username, password_hash, first_name, last_name, email, role_id, level)
       SELECT organization_id, $1, $2, 'New', 'Comer', $1 || '@acme.example', 3, 'customer' FROM users WHERE username = 'olivia'`,
      [username, await hashPassword('Newcomer-pass-1')],
    );
    const t = XmppTokenResponse.parse(await api.get('/v1/xmpp-token', await api.login(username, 'Newcomer-pass-1')));
    expect(await xmppApi(api.cfg).call<string[]>('registered_users', { host: api.cfg.domain })).toContain(username);
    const client = own(await StropheClient.connect(wsUrl(), `${t.jid}/first`, t.token));
    expect(client.jid).toBe(`${jidOf(username)}/first`);
  });

  it('answers 503 xmpp_unavailable when ejabberd cannot be reached', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as net.AddressInfo;
        srv.close(() => resolve(port));
      });
    });
    const cfg = { ...api.cfg, ports: { ...api.cfg.ports, xmppApi: closedPort } };
    const app = await buildApp({ db: api.db, runtimeDir: cfg.runtimeDir, services: cfg });
    try {
      const res = await app.inject({ method: 'GET', url: '/v1/xmpp-token', headers: { authorization: `Bearer ${await api.login('alice')}` } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: 'xmpp_unavailable', message: 'Chat server is not reachable' });
    } finally {
      await app.close();
    }
  });
});

describe('1:1 chat', () => {
  it('alice (Strophe, WebSocket) and bob (slixmpp, TCP) reach each other with the exact text', async () => {
    const bob = await slixmpp('bob');
    const alice = await strophe('alice');

    const toBob = `Hi Bob <${nonce()}> & "quotes" ünïcødé 👋\nsecond line`;
    alice.sendChat(jidOf('bob'), toBob);
    const got = await bob.waitFor((e) => e.event === 'message' && e.body === toBob, 10_000, 'message from alice');
    expect(got).toMatchObject({ type: 'chat', body: toBob });
    expect(String(got.from)).toMatch(new RegExp(`^${jidOf('alice')}/`));

    const toAlice = `Hello Alice ${nonce()} – 日本語`;
    await bob.send(jidOf('alice'), toAlice);
    const back = await alice.waitForMessage((m) => m.body === toAlice, 10_000, 'message from bob');
    expect(back.type).toBe('chat');
    expect(back.from).toBe(`${jidOf('bob')}/slixmpp`);
  });
});

describe('group chat (MucSub)', () => {
  it('delivers a room message to a subscribed member who was offline when it was sent', async () => {
    const room = await roomJid('Sales team');
    const text = `Sales update ${nonce()}`;

    // alice never joins: as a provisioned subscriber she may post, and gets her own post back wrapped.
    const alice = await strophe('alice');
    alice.sendChat(room, text, 'groupchat');
    const echo = await alice.waitForMessage((m) => m.mucsub && m.body === text, 10_000, 'own room message (MucSub echo)');
    expect(echo.type).toBe('groupchat');

    // bob has never been online in this room and is offline now: offline storage holds it for him.
    const bob = await slixmpp('bob');
    const got = await bob.waitFor((e) => e.event === 'mucsub' && e.body === text, 10_000, 'MucSub room message');
    expect(got).toMatchObject({ node: 'urn:xmpp:mucsub:nodes:messages', room, type: 'groupchat', from: `${room}/alice`, delay: true });
  });
});

describe('message archive (MAM)', () => {
  it('pages 30 messages back as 25 (incomplete) then 5 (complete) with RSM first/last', async () => {
    const carol = await strophe('carol');
    const alice = await strophe('alice');
    const tag = nonce();
    const bodies = Array.from({ length: 30 }, (_, i) => `mam ${tag} ${i + 1}`);
    for (const b of bodies) alice.sendChat(jidOf('carol'), b);
    // Archived before delivery, so once carol has the last one all 30 are in her archive.
    await carol.waitForMessage((m) => m.body === bodies[29], 15_000, 'last of the 30');
    expect(carol.received.filter((m) => m.body?.startsWith(`mam ${tag} `)).map((m) => m.body)).toEqual(bodies);

    const newest = await carol.mam({ with: jidOf('alice'), max: 25 });
    expect(newest.messages.map((m) => m.body)).toEqual(bodies.slice(5));
    expect(newest.complete).toBe(false);
    expect(newest.first).toBe(newest.messages[0]!.id);
    expect(newest.last).toBe(newest.messages[24]!.id);
    expect(newest.count).toBe(30);

    const older = await carol.mam({ with: jidOf('alice'), max: 25, before: newest.first! });
    expect(older.messages.map((m) => m.body)).toEqual(bodies.slice(0, 5));
    expect(older.complete).toBe(true);
    expect(older.first).toBe(older.messages[0]!.id);
    expect(older.last).toBe(older.messages[4]!.id);
  });

  it('is written in SQLite WAL mode with synchronous=NORMAL: a message is one append, no fsync in its delivery', async () => {
    const dirs = serviceDirs(api.cfg.runtimeDir, 'ejabberd');
    const header = Buffer.alloc(20);
    const db = await open(path.join(dirs.data, 'ejabberd.db'), 'r');
    await db.read(header, 0, 20, 0).finally(() => db.close());
    // File format write/read versions: 2 = WAL (1 = the rollback journal, SQLite's default).
    expect([header[18], header[19]]).toEqual([2, 2]);
    // synchronous is per connection, not in the file: the module reports what it read back.
    expect(await readFile(path.join(dirs.log, 'ejabberd.log'), 'utf8')).toContain('mod_uc_sqlite: journal_mode=wal synchronous=1');
  });
});

describe('provisioning', () => {
  const ejabberd = () => xmppApi(api.cfg);
  const service = () => mucHost(api.cfg);

  async function owners(room: string): Promise<string[]> {
    const affs = await ejabberd().call<Array<{ username: string; affiliation: string }>>('get_room_affiliations', { name: room.split('@')[0], service: service() });
    return affs.filter((a) => a.affiliation === 'owner').map((a) => a.username).sort();
  }
  async function subscribers(room: string): Promise<string[]> {
    const subs = await ejabberd().call<string[]>('get_subscribers', { name: room.split('@')[0], service: service() });
    return subs.map((j) => j.split('@')[0]!).sort();
  }

  it('is idempotent and gives an account to every user of the organisation except limited-access ones', async () => {
    const first = await provisionAll(api.cfg, api.db);
    const second = await provisionAll(api.cfg, api.db);
    expect(first.accountsCreated).toBe(0); // the startup sweep already made them
    expect(first.failures).toEqual([]);
    expect(second).toMatchObject({ accountsCreated: 0, accounts: first.accounts, rooms: 2, failures: [] });

    const registered = new Set(await ejabberd().call<string[]>('registered_users', { host: api.cfg.domain }));
    const { rows } = await api.db.query<{ username: string; role_id: number }>(
      `SELECT u.username, u.role_id FROM users u WHERE u.organization_id = (SELECT organization_id FROM users WHERE username = 'olivia')`,
    );
    const chat = rows.filter((u) => u.role_id !== 4).map((u) => u.username.toLowerCase());
    const limited = rows.filter((u) => u.role_id === 4).map((u) => u.username.toLowerCase());
    expect(chat.length).toBeGreaterThan(40);
    expect(limited).toContain('dave');
    expect(chat.filter((u) => !registered.has(u))).toEqual([]);
    expect(limited.filter((u) => registered.has(u))).toEqual([]);

    const sales = await roomJid('Sales team');
    expect(await owners(sales)).toEqual(['alice', 'bob', 'carol', 'olivia']);
    expect(await subscribers(sales)).toEqual(['alice', 'bob', 'carol', 'olivia']);
    const support = await roomJid('Support');
    expect(await owners(support)).toEqual(['aiko.tanaka', 'alice', 'bob', 'priya.raman']);
  });

  it('takes a removed member out of the room (affiliation none, no subscription) and puts them back when re-added', async () => {
    const support = await roomJid('Support');
    const priya = await api.userId('priya.raman');
    const roomId = (await api.db.query<{ id: number }>('SELECT id FROM chat_rooms WHERE subject = $1', ['Support'])).rows[0]!.id;
    await api.db.query('DELETE FROM chat_room_members WHERE room_id = $1 AND user_id = $2', [roomId, priya]);
    try {
      await provisionAll(api.cfg, api.db);
      expect(await owners(support)).toEqual(['aiko.tanaka', 'alice', 'bob']);
      expect(await subscribers(support)).toEqual(['aiko.tanaka', 'alice', 'bob']);
    } finally {
      await api.db.query('INSERT INTO chat_room_members (room_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [roomId, priya]);
      await provisionAll(api.cfg, api.db);
    }
    expect(await owners(support)).toEqual(['aiko.tanaka', 'alice', 'bob', 'priya.raman']);
    expect(await subscribers(support)).toEqual(['aiko.tanaka', 'alice', 'bob', 'priya.raman']);
  });
});

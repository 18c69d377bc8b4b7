import type { FastifyInstance } from 'fastify';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';
import { buildApp } from '../../server/app';
import { migrate } from '../../server/db/migrate';
import { openPglite, PGLITE_MEMORY } from '../../server/db/pglite';
import type { Db } from '../../server/db/types';
import { DEMO_PASSWORD, seedDemo } from '../../server/seed';
import type { ServicesConfig } from '../../server/services/layout';
import { readUccSettings } from '../../server/settings';
import type { HistoryPageWire } from '../../src/wire/history';
import { Baresip } from './peers/sip_baresip';

/**
 * The real API server next to the real ejabberd, Kamailio and rtpengine of this run: its own
 * embedded database (seeded), the services' runtime folder (so both read the same secrets), and
 * listening on the one page origin the servers accept (`http://127.0.0.1:<base+80>`), so that a
 * browser page served from it may open their WebSockets.
 */
export interface ServicesApi {
  cfg: ServicesConfig;
  app: FastifyInstance;
  db: Db;
  /** `http://127.0.0.1:<base+80>` */
  origin: string;
  login(username: string, password?: string): Promise<string>;
  /** GET/POST with a bearer token; parses JSON, throws on a non-2xx with the body in the message. */
  get<T>(path: string, token: string): Promise<T>;
  post<T>(path: string, token: string, body?: unknown): Promise<T>;
  userId(username: string): Promise<number>;
  close(): Promise<void>;
}

export const apiPort = (cfg: ServicesConfig) => cfg.ports.base + 80;

/**
 * `smtpUrl`: where this API server sends voicemail e-mails (UC_SMTP_URL), e.g. a test's own SMTP server.
 * `cluster`: the API of a cluster (UC_CLUSTER=1): it uses the second nodes, which the test starts itself.
 * `cfg`: another set of servers than the suite's (a test that runs its own cluster nodes).
 */
export async function startServicesApi(opts: { now?: Date; smtpUrl?: string; cluster?: boolean; cfg?: ServicesConfig; voicemail?: boolean } = {}): Promise<ServicesApi> {
  const cfg = opts.cfg ?? { ...inject('servicesConfig'), ...(opts.cluster ? { cluster: true } : {}) };
  const db = await openPglite(PGLITE_MEMORY);
  await migrate(db);
  await seedDemo(db, opts.now ? { now: opts.now } : {});
  // The WebSocket addresses handed to clients are the test servers', not the product's.
  const settings = { ...readUccSettings({ UC_PORT_BASE: String(cfg.ports.base), ...(cfg.cluster ? { UC_CLUSTER: '1' } : {}) }), smtpUrl: opts.smtpUrl };
  const app = await buildApp({ db, runtimeDir: cfg.runtimeDir, services: cfg, settings, voicemail: opts.voicemail ?? true });
  await app.listen({ host: '127.0.0.1', port: apiPort(cfg) });
  const origin = `http://127.0.0.1:${apiPort(cfg)}`;
  async function call<T>(method: 'GET' | 'POST', url: string, token: string, body?: unknown): Promise<T> {
    const res = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as T;
  }
  return {
    cfg,
    app,
    db,
    origin,
    async login(username, password = DEMO_PASSWORD) {
      const res = await app.inject({ method: 'POST', url: '/login', payload: { username, password } });
      if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
      return res.json().access_token as string;
    },
    get: (url, token) => call('GET', url, token),
    post: (url, token, body) => call('POST', url, token, body),
    async userId(username) {
      const { rows } = await db.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [username]);
      if (!rows[0]) throw new Error(`no user ${username}`);
      return rows[0].id;
    },
    async close() {
      await app.close();
      await db.close();
    },
  };
}

/** PUT as a user, through the app (no network): the call settings the tests change. */
export function putAs(api: Pick<ServicesApi, 'app'>, token: string, url: string, body: unknown) {
  return api.app.inject({ method: 'PUT', url, headers: { authorization: `Bearer ${token}` }, payload: body as object });
}

/** A user's history rows for one SIP call, as the history screen gets them. */
export async function callHistoryOf(api: Pick<ServicesApi, 'get' | 'db'>, token: string, userId: number, callId: string): Promise<HistoryPageWire['items']> {
  const page = await api.get<HistoryPageWire>(`/v2/users/${userId}/call-history?offset=0&limit=50`, token);
  const { rows } = await api.db.query<{ id: number }>('SELECT id FROM call_history WHERE user_id = $1 AND sip_call_id = $2', [userId, callId]);
  return page.items.filter((r) => rows.some((x) => x.id === r.id));
}

/**
 * A desk phone (baresip over UDP) registered to the user of `token` with that user's own
 * time-limited credentials; it answers by itself unless `answer` is 'manual'. One port plan for
 * every test file (they take turns): SIP base+90, control base+93, media base+400–449.
 */
export async function deskPhoneFor(api: Pick<ServicesApi, 'cfg' | 'get'>, token: string, answer: 'auto' | 'manual' = 'auto'): Promise<Baresip> {
  const { ports } = api.cfg;
  const phone = await Baresip.start({
    dir: await mkdtemp(path.join(api.cfg.runtimeDir, 'desk-')),
    sipPort: ports.base + 90,
    ctrlPort: ports.base + 93,
    rtpPorts: [ports.base + 400, ports.base + 449],
    maxLifeSeconds: 180,
  });
  const creds = await api.get<{ uri: string; authorization_user: string; password: string }>('/v1/sip-credentials', token);
  await phone.register(creds.uri, creds.authorization_user, creds.password, `sip:127.0.0.1:${ports.sipUdp}`, 10_000, answer);
  return phone;
}

import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/types';
import { ROLE } from '../../src/wire/profile';
import { mucHost, type ServicesConfig } from './layout';
import { xmppApi, XmppApiError, type XmppApi } from './xmpp-api';
import { xmppJid, xmppLocalPart } from './xmpp-token';

/** Limited-access users (role 4) get no chat at all: no account, no rooms. */
const LIMITED_ACCESS_ROLE = ROLE.LIMITED_ACCESS;
/** ejabberd handles a few requests at once well; more only queue inside it. */
const DEFAULT_CONCURRENCY = 6;
/** Everything a member hears about without having joined (MucSub, urn:xmpp:mucsub:0). */
export const MUCSUB_NODES = [
  'urn:xmpp:mucsub:nodes:messages',
  'urn:xmpp:mucsub:nodes:affiliations',
  'urn:xmpp:mucsub:nodes:subject',
  'urn:xmpp:mucsub:nodes:presence',
] as const;

export interface ProvisionOptions {
  api?: XmppApi;
  concurrency?: number;
  /** Checked between requests: a closing server stops the sweep at the next step. */
  signal?: AbortSignal;
}

export interface ProvisionReport {
  /** Accounts made by this sweep (the others already existed). */
  accountsCreated: number;
  accounts: number;
  rooms: number;
  /** What ejabberd refused (one bad username or room must not stop everyone else's chat). */
  failures: string[];
  ms: number;
}

/** "Already there" answers: HTTP 409 for `register`, 400 "Room already exists" for rooms. */
function isAlreadyThere(err: unknown): boolean {
  return err instanceof XmppApiError && (err.status === 409 || /conflict|already/i.test(err.body));
}

/** Runs `fn` over `items` with at most `limit` in flight; the first failure rejects (the rest still settle). */
async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>, signal?: AbortSignal): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      signal?.throwIfAborted();
      await fn(items[next++]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/**
 * Makes the account exist in ejabberd's SQL store (offline storage and MucSub only know registered
 * users, so this cannot wait for a first login). The password is random and thrown away: logins are
 * by JWT. Returns false when the account was already there.
 */
export async function ensureXmppAccount(cfg: ServicesConfig, username: string, api: XmppApi = xmppApi(cfg)): Promise<boolean> {
  try {
    await api.call('register', { user: xmppLocalPart(username), host: cfg.domain, password: randomBytes(24).toString('base64url') });
    return true;
  } catch (err) {
    if (isAlreadyThere(err)) return false;
    throw err;
  }
}

export interface RoomSpec {
  /** Local part of the room JID. */
  jidLocal: string;
  subject: string;
  /** API usernames of the members (limited-access users already left out). */
  members: string[];
}

interface Affiliation {
  username: string;
  domain: string;
  affiliation: string;
}

/**
 * Creates the room if needed and makes ejabberd's members match `room.members`: each member is an
 * owner (members added get owner affiliation, members removed get `none`) and
 * subscribed to the MucSub nodes, so room messages reach them while they are offline or not joined.
 * Anyone affiliated but no longer a member gets `none` and loses the subscription.
 */
export async function ensureRoom(cfg: ServicesConfig, room: RoomSpec, opts: ProvisionOptions = {}): Promise<void> {
  const api = opts.api ?? xmppApi(cfg);
  const service = mucHost(cfg);
  const roomJid = `${room.jidLocal}@${service}`;
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  try {
    // The subject can only be given at creation (change_room_option has no `subject`).
    await api.call('create_room_with_opts', {
      name: room.jidLocal,
      service,
      host: cfg.domain,
      options: [
        ['persistent', 'true'],
        ['members_only', 'true'],
        ['mam', 'true'],
        ['allow_subscription', 'true'],
        ['public', 'false'],
        ['public_list', 'false'],
        ['title', room.subject],
        ['subject', room.subject],
      ].map(([name, value]) => ({ name, value })),
    });
  } catch (err) {
    if (!isAlreadyThere(err)) throw err;
  }

  const wanted = new Map(room.members.map((u) => [xmppJid(cfg, u), xmppLocalPart(u)] as const));
  const current = await api.call<Affiliation[]>('get_room_affiliations', { name: room.jidLocal, service });
  const affiliation = new Map(current.map((a) => [`${a.username}@${a.domain}`.toLowerCase(), a.affiliation]));
  const subscribed = new Set((await api.call<string[]>('get_subscribers', { name: room.jidLocal, service })).map((j) => j.toLowerCase()));

  const steps: Array<() => Promise<unknown>> = [];
  for (const [jid, nick] of wanted) {
    steps.push(async () => {
      // Affiliation first: the room is members-only.
      if (affiliation.get(jid) !== 'owner') await api.call('set_room_affiliation', { name: room.jidLocal, service, jid, affiliation: 'owner' });
      if (!subscribed.has(jid)) await api.call('subscribe_room', { user: jid, nick, room: roomJid, nodes: MUCSUB_NODES.join(',') });
    });
  }
  for (const [jid, aff] of affiliation) {
    if (wanted.has(jid) || aff === 'none' || aff === 'outcast') continue;
    steps.push(async () => {
      await api.call('set_room_affiliation', { name: room.jidLocal, service, jid, affiliation: 'none' });
      if (subscribed.has(jid)) await api.call('unsubscribe_room', { user: jid, room: roomJid });
    });
  }
  await forEachLimit(steps, concurrency, (step) => step().then(() => undefined), opts.signal);
}

/** Accounts for every user of the organisation but the limited-access ones, then its rooms. */
export async function provisionOrganisation(cfg: ServicesConfig, db: Queryable, organizationId: number, opts: ProvisionOptions = {}): Promise<ProvisionReport> {
  const started = performance.now();
  const api = opts.api ?? xmppApi(cfg);
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  const users = await db.query<{ username: string }>(
    'SELECT username FROM users WHERE organization_id = $1 AND role_id <> $2 ORDER BY id',
    [organizationId, LIMITED_ACCESS_ROLE],
  );
  let accountsCreated = 0;
  const failures: string[] = [];
  // ejabberd refusing one item is recorded and skipped; not reaching it at all throws (the caller retries).
  const refused = (what: string, err: unknown) => {
    if (!(err instanceof XmppApiError)) throw err;
    failures.push(`${what}: ${err.message}`);
  };
  await forEachLimit(
    users.rows,
    concurrency,
    async (u) => {
      try {
        if (await ensureXmppAccount(cfg, u.username, api)) accountsCreated++;
      } catch (err) {
        refused(`account ${u.username}`, err);
      }
    },
    opts.signal,
  );

  const rooms = await db.query<{ jid_local: string; subject: string; members: string[] }>(
    `SELECT r.jid_local, r.subject,
            coalesce(array_agg(u.username ORDER BY u.id) FILTER (WHERE u.id IS NOT NULL), '{}') AS members
       FROM chat_rooms r
       LEFT JOIN chat_room_members m ON m.room_id = r.id
       LEFT JOIN users u ON u.id = m.user_id AND u.role_id <> $2
      WHERE r.organization_id = $1
      GROUP BY r.id ORDER BY r.id`,
    [organizationId, LIMITED_ACCESS_ROLE],
  );
  // Rooms one after another: each already spreads its members' requests over `concurrency`.
  for (const r of rooms.rows) {
    opts.signal?.throwIfAborted();
    try {
      await ensureRoom(cfg, { jidLocal: r.jid_local, subject: r.subject, members: r.members }, { ...opts, api });
    } catch (err) {
      refused(`room ${r.jid_local}`, err);
    }
  }
  return { accountsCreated, accounts: users.rows.length, rooms: rooms.rows.length, failures, ms: Math.round(performance.now() - started) };
}

/** The whole sweep: every organisation. Idempotent; what already matches costs one read per room. */
export async function provisionAll(cfg: ServicesConfig, db: Queryable, opts: ProvisionOptions = {}): Promise<ProvisionReport> {
  const started = performance.now();
  const api = opts.api ?? xmppApi(cfg);
  const orgs = await db.query<{ id: number }>('SELECT id FROM organizations ORDER BY id');
  const total: ProvisionReport = { accountsCreated: 0, accounts: 0, rooms: 0, failures: [], ms: 0 };
  for (const org of orgs.rows) {
    const r = await provisionOrganisation(cfg, db, org.id, { ...opts, api });
    total.accountsCreated += r.accountsCreated;
    total.accounts += r.accounts;
    total.rooms += r.rooms;
    total.failures.push(...r.failures);
  }
  total.ms = Math.round(performance.now() - started);
  return total;
}

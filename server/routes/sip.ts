import type { FastifyInstance } from 'fastify';
import {
  REG_CLIENT,
  REG_HOLD_SECONDS,
  RegActiveResponse,
  RegReserveRequest,
  SIP_NOT_CONFIGURED,
  type SipCredentialsResponse,
} from '../../src/wire/services';
import type { Queryable } from '../db/types';
import { ApiError, parseOrThrow, unauthorized } from '../errors';
import { sipEphemeralSecret } from '../services/kamailio';
import type { ServicesConfig } from '../services/layout';
import { mintSipCredentials, SIP_CREDENTIAL_TTL_SECONDS } from '../services/sip-credentials';
import type { RouteContext } from './context';

/** Extensions Kamailio routes to registered users (1–5 digits); anything else cannot register. */
const EXTENSION = /^[0-9]{1,5}$/;

const sipNotConfigured = () => new ApiError(404, SIP_NOT_CONFIGURED, 'Calling is not configured for this user');

/** The caller's extension, or 404 `sip_not_configured` when the user has none. */
export async function extensionOf(db: Queryable, userId: number): Promise<string> {
  const { rows } = await db.query<{ extension: string | null }>('SELECT extension FROM users WHERE id = $1', [userId]);
  const user = rows[0];
  if (!user) throw unauthorized('User no longer exists');
  if (!user.extension || !EXTENSION.test(user.extension)) throw sipNotConfigured();
  return user.extension;
}

interface HolderRow {
  peer: string;
  client: string;
  expires_at: Date | string;
  granted?: boolean;
}

const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

function toActive(row: HolderRow | undefined, granted?: boolean): RegActiveResponse {
  const out: RegActiveResponse = row
    ? { peer: row.peer, client: REG_CLIENT, expires_at: iso(row.expires_at) }
    : { peer: null, client: null, expires_at: null };
  if (granted !== undefined) out.granted = granted;
  return out;
}

/** The peer holding the user's registration now (an expired hold is nobody's). */
export async function activeRegistration(db: Queryable, userId: number): Promise<RegActiveResponse> {
  const { rows } = await db.query<HolderRow>(
    'SELECT peer, client, expires_at FROM sip_registration_holders WHERE user_id = $1 AND expires_at > now()',
    [userId],
  );
  return toActive(rows[0]);
}

/**
 * Compare-and-set of the user's registration hold, in ONE statement so that racing tabs (or
 * racing API copies) cannot both win: the upsert takes the row when it is free (no row, or
 * expired), already this peer's (a renewal), or `takeover` is asked; otherwise it changes nothing
 * and the statement answers the current holder with `granted = false`. Under concurrency Postgres
 * serialises the conflicting upserts on the row and re-checks the WHERE against the winner's row.
 */
export async function reserveRegistration(
  db: Queryable,
  userId: number,
  peer: string,
  opts: { takeover?: boolean; holdSeconds?: number } = {},
): Promise<RegActiveResponse> {
  const holdSeconds = opts.holdSeconds ?? REG_HOLD_SECONDS;
  const { rows } = await db.query<HolderRow>(
    `WITH taken AS (
       INSERT INTO sip_registration_holders AS h (user_id, peer, client, acquired_at, expires_at)
       VALUES ($1, $2, $3, now(), now() + make_interval(secs => $4))
       ON CONFLICT (user_id) DO UPDATE
          SET peer = EXCLUDED.peer,
              client = EXCLUDED.client,
              acquired_at = CASE WHEN h.peer = EXCLUDED.peer AND h.expires_at > now() THEN h.acquired_at ELSE now() END,
              expires_at = EXCLUDED.expires_at
        WHERE h.peer = EXCLUDED.peer OR h.expires_at <= now() OR $5::boolean
       RETURNING peer, client, expires_at
     )
     SELECT peer, client, expires_at, true AS granted FROM taken
     UNION ALL
     SELECT peer, client, expires_at, false AS granted FROM sip_registration_holders
      WHERE user_id = $1 AND expires_at > now() AND NOT EXISTS (SELECT 1 FROM taken)`,
    [userId, peer, REG_CLIENT, holdSeconds, opts.takeover === true],
  );
  const row = rows[0];
  if (row) return toActive(row, row.granted === true);
  // Refused, but the holder row was committed by a concurrent statement after this statement's
  // snapshot: read it again (a fresh snapshot under READ COMMITTED).
  return { ...(await activeRegistration(db, userId)), granted: false };
}

/** The holder gives the hold up; anyone else's release changes nothing. */
export async function releaseRegistration(db: Queryable, userId: number, peer: string): Promise<RegActiveResponse> {
  await db.query(`UPDATE sip_registration_holders SET expires_at = now() WHERE user_id = $1 AND peer = $2 AND expires_at > now()`, [userId, peer]);
  return { ...(await activeRegistration(db, userId)), granted: false };
}

/** Cached per runtime folder: the secret file is created once and never changes while running. */
function secretLoader(cfg: ServicesConfig): () => Promise<string> {
  let secret: Promise<string> | null = null;
  return () => {
    secret ??= sipEphemeralSecret(cfg).catch((err: unknown) => {
      secret = null;
      throw err;
    });
    return secret;
  };
}

/** SIP: `GET /v1/sip-credentials` (auth_ephemeral), `GET /v1/regactive`, `POST /v1/regreserve`. */
export function registerSipRoutes(app: FastifyInstance, { db, requireUserId, settings, services }: RouteContext): void {
  const secret = secretLoader(services);

  app.get('/v1/sip-credentials', async (request, reply): Promise<SipCredentialsResponse> => {
    const userId = await requireUserId(request);
    const extension = await extensionOf(db, userId);
    const creds = mintSipCredentials(await secret(), extension, services.domain, SIP_CREDENTIAL_TTL_SECONDS);
    reply.header('cache-control', 'no-store');
    return { ...creds, ws_url: settings.sipWsUrl };
  });

  app.get('/v1/regactive', async (request): Promise<RegActiveResponse> => {
    const userId = await requireUserId(request);
    await extensionOf(db, userId);
    return activeRegistration(db, userId);
  });

  app.post('/v1/regreserve', async (request): Promise<RegActiveResponse> => {
    const userId = await requireUserId(request);
    const body = parseOrThrow(RegReserveRequest, request.body ?? {}, 'registration reservation');
    await extensionOf(db, userId);
    if (body.release) return releaseRegistration(db, userId, body.peer);
    return reserveRegistration(db, userId, body.peer, { takeover: body.takeover });
  });
}

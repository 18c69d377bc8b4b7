/**
 * SIP: users' extensions, the registration hold that lets one tab of a user register at a time,
 * and the history rows of the calls Kamailio reports.
 */
import { REG_CLIENT, REG_HOLD_SECONDS, type RegActiveResponse } from '../../src/wire/services';
import type { Queryable } from '../db/types';

/** The user's extension column; undefined when the user no longer exists. */
export async function extensionRow(db: Queryable, userId: number): Promise<{ extension: string | null } | undefined> {
  const { rows } = await db.query<{ extension: string | null }>('SELECT extension FROM users WHERE id = $1', [userId]);
  return rows[0];
}

export interface Party {
  id: number;
  extension: string;
  name: string;
}

/**
 * The user behind an extension. Every organisation shares one SIP domain, so an extension names
 * one registered phone; should two organisations ever reuse one, the oldest account answers (as
 * Kamailio's registrar would have only one of them anyway).
 */
export async function userByExtension(db: Queryable, extension: string): Promise<Party | null> {
  const { rows } = await db.query<Party>(
    `SELECT id, extension, trim(first_name || ' ' || last_name) AS name FROM users WHERE extension = $1 ORDER BY id LIMIT 1`,
    [extension],
  );
  return rows[0] ?? null;
}

export interface CallHistoryRow {
  userId: number;
  direction: 'inbound' | 'outbound';
  disposition: string;
  /** ISO time the INVITE arrived. */
  callTime: string;
  sourcePhone: string;
  destPhone: string;
  duration: number;
  /** The other party's name when it is a colleague. */
  otherName: string | null;
  sipCallId: string;
}

/**
 * One user's row of a call, keyed by SIP Call-ID so that repeated reports (start, then end) update
 * rather than duplicate; an answered call is never downgraded by a late failure report.
 */
export async function upsertCallHistory(db: Queryable, r: CallHistoryRow): Promise<void> {
  await db.query(
    `INSERT INTO call_history (user_id, call_time, direction, disposition, source_phone, dest_phone, duration, is_primary, caller_id, cnam, sip_call_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, true, $8, $8, $9)
     ON CONFLICT (user_id, sip_call_id) WHERE sip_call_id IS NOT NULL DO UPDATE
        SET disposition = CASE WHEN call_history.disposition = 'ANSWERED' THEN 'ANSWERED' ELSE EXCLUDED.disposition END,
            duration = GREATEST(call_history.duration, EXCLUDED.duration)`,
    [r.userId, r.callTime, r.direction, r.disposition, r.sourcePhone, r.destPhone, r.duration, r.otherName, r.sipCallId],
  );
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

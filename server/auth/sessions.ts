import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/types';

export const PERSISTENT_SESSION_SECONDS = 30 * 24 * 60 * 60;
export const BROWSER_SESSION_SECONDS = 12 * 60 * 60;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Issues an opaque refresh token; only its hash is stored. */
export async function createSession(db: Queryable, userId: number, persistent: boolean): Promise<{ id: string; token: string; maxAgeSeconds: number }> {
  const token = randomBytes(32).toString('base64url');
  const maxAgeSeconds = persistent ? PERSISTENT_SESSION_SECONDS : BROWSER_SESSION_SECONDS;
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO sessions (user_id, token_hash, persistent, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING id::text AS id`,
    [userId, hashToken(token), persistent, maxAgeSeconds],
  );
  // Housekeeping bounded to this user, so the table does not grow with every login forever.
  await db.query(
    `DELETE FROM sessions WHERE user_id = $1 AND (expires_at < now() - interval '1 day' OR revoked_at < now() - interval '1 day')`,
    [userId],
  );
  return { id: rows[0]!.id, token, maxAgeSeconds };
}

/** The user and id of a live (unexpired, unrevoked) refresh token's session, or null. */
export async function sessionUser(db: Queryable, token: string): Promise<{ userId: number; sessionId: string } | null> {
  const { rows } = await db.query<{ user_id: number; id: string }>(
    `UPDATE sessions SET last_used_at = now()
     WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > now()
       AND EXISTS (SELECT 1 FROM users u WHERE u.id = sessions.user_id AND u.enabled)
     RETURNING user_id, id::text AS id`,
    [hashToken(token)],
  );
  return rows[0] ? { userId: rows[0].user_id, sessionId: rows[0].id } : null;
}

/**
 * Whether an access token's session is still live and its user still enabled. Asked on every
 * authenticated request (two primary-key lookups), so a logout, or a user turned off in the
 * wizard, ends the session's access tokens at once, on every API copy.
 */
export async function sessionLive(db: Queryable, sessionId: string, userId: number): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id AND u.enabled WHERE s.id = $1::bigint AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > now()`, [sessionId, userId]);
  return rows.length > 0;
}

/** Ends every session of a user (a password change): their refresh cookies and access tokens stop working. */
export async function revokeUserSessions(db: Queryable, userId: number): Promise<void> {
  await db.query(`UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`, [userId]);
}

export async function revokeSession(db: Queryable, token: string): Promise<void> {
  await db.query(`UPDATE sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL`, [hashToken(token)]);
}

/** Ends every session of a user but one (a password change ends the others, keeping the one that made it). */
export async function revokeOtherSessions(db: Queryable, userId: number, keepSessionId: string): Promise<void> {
  await db.query(`UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND id <> $2::bigint AND revoked_at IS NULL`, [userId, keepSessionId]);
}

import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/types';

export const PERSISTENT_SESSION_SECONDS = 30 * 24 * 60 * 60;
export const BROWSER_SESSION_SECONDS = 12 * 60 * 60;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Issues an opaque refresh token; only its hash is stored. */
export async function createSession(db: Queryable, userId: number, persistent: boolean): Promise<{ token: string; maxAgeSeconds: number }> {
  const token = randomBytes(32).toString('base64url');
  const maxAgeSeconds = persistent ? PERSISTENT_SESSION_SECONDS : BROWSER_SESSION_SECONDS;
  await db.query(
    `INSERT INTO sessions (user_id, token_hash, persistent, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [userId, hashToken(token), persistent, maxAgeSeconds],
  );
  // Housekeeping bounded to this user, so the table does not grow with every login forever.
  await db.query(
    `DELETE FROM sessions WHERE user_id = $1 AND (expires_at < now() - interval '1 day' OR revoked_at < now() - interval '1 day')`,
    [userId],
  );
  return { token, maxAgeSeconds };
}

/** The user of a live (unexpired, unrevoked) refresh token, or null. */
export async function sessionUser(db: Queryable, token: string): Promise<number | null> {
  const { rows } = await db.query<{ user_id: number }>(
    `UPDATE sessions SET last_used_at = now()
     WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > now()
     RETURNING user_id`,
    [hashToken(token)],
  );
  return rows[0]?.user_id ?? null;
}

export async function revokeSession(db: Queryable, token: string): Promise<void> {
  await db.query(`UPDATE sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL`, [hashToken(token)]);
}

import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/types';

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

/** A new single-use code for the user, valid for `ttlSeconds`; the user's spent and expired codes go. */
export async function issueMobileCode(db: Queryable, userId: number, ttlSeconds: number): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  await db.query(`DELETE FROM mobile_sign_in_codes WHERE user_id = $1 AND (used_at IS NOT NULL OR expires_at < now())`, [userId]);
  await db.query(`INSERT INTO mobile_sign_in_codes (code_hash, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`, [hashCode(code), userId, ttlSeconds]);
  return code;
}

/**
 * Spends a code: the user it was issued to, or null when it is unknown, spent or expired. One
 * UPDATE marks it used, so two devices scanning the same code cannot both sign in.
 */
export async function redeemMobileCode(db: Queryable, code: string): Promise<number | null> {
  const { rows } = await db.query<{ user_id: number }>(
    `UPDATE mobile_sign_in_codes c SET used_at = now()
     WHERE c.code_hash = $1 AND c.used_at IS NULL AND c.expires_at > now()
       AND EXISTS (SELECT 1 FROM users u WHERE u.id = c.user_id AND u.enabled)
     RETURNING c.user_id`,
    [hashCode(code)],
  );
  return rows[0]?.user_id ?? null;
}

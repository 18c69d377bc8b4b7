import { PASSWORD_HISTORY_DEPTH, PASSWORD_REUSED_MESSAGE, passwordChecks } from '../../src/wire/password';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { revokeOtherSessions } from '../auth/sessions';
import { blockedFor, clearAccount, recordFailure, type ThrottleKey } from '../auth/throttle';
import type { Db } from '../db/types';
import { ApiError } from '../errors';

/**
 * Changes the caller's own password: the current one must match, the new one must meet the rules
 * and differ from the user's last PASSWORD_HISTORY_DEPTH passwords (the current one among them).
 * The caller's session goes on; every other session of the user ends (its refresh cookie and access
 * tokens stop working), since whoever knew the old password may be holding one.
 */
export async function changePassword(db: Db, userId: number, sessionId: string, current: string, next: string): Promise<void> {
  const failed = passwordChecks(next).filter((c) => !c.met);
  if (failed.length) {
    throw new ApiError(400, 'validation_failed', 'The new password does not meet the rules', failed.map((c) => ({ path: 'new_password', message: `rule_${c.rule}` })));
  }
  // A stolen session must not become a way to guess the password: wrong current passwords are
  // throttled as failed sign-ins are (5 free, then growing waits).
  const keys: ThrottleKey[] = [{ kind: 'account', key: `password-change:${userId}` }];
  const wait = await blockedFor(db, keys);
  if (wait > 0) throw new ApiError(429, 'too_many_attempts', `Too many wrong passwords: try again in ${wait} seconds`, undefined, wait);
  const { rows } = await db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [userId]);
  const stored = rows[0]?.password_hash;
  if (!stored || !(await verifyPassword(current, stored))) {
    await recordFailure(db, keys);
    throw new ApiError(400, 'current_password_mismatch', 'The current password is not correct');
  }
  await clearAccount(db, keys);
  const history = await db.query<{ password_hash: string }>('SELECT password_hash FROM password_history WHERE user_id = $1 ORDER BY id DESC LIMIT $2', [userId, PASSWORD_HISTORY_DEPTH - 1]);
  for (const hash of [stored, ...history.rows.map((r) => r.password_hash)]) {
    if (await verifyPassword(next, hash)) throw new ApiError(400, 'password_reused', PASSWORD_REUSED_MESSAGE);
  }
  const hash = await hashPassword(next);
  await db.transaction(async (tx) => {
    // Only if the hash is still the one checked: two changes at once cannot both win.
    const updated = await tx.query('UPDATE users SET password_hash = $2 WHERE id = $1 AND password_hash = $3 RETURNING id', [userId, hash, stored]);
    if (!updated.rows.length) throw new ApiError(409, 'password_changed', 'The password was changed meanwhile');
    await tx.query('INSERT INTO password_history (user_id, password_hash) VALUES ($1, $2)', [userId, stored]);
    await tx.query(
      `DELETE FROM password_history WHERE user_id = $1 AND id NOT IN (SELECT id FROM password_history WHERE user_id = $1 ORDER BY id DESC LIMIT $2)`,
      [userId, PASSWORD_HISTORY_DEPTH],
    );
    await revokeOtherSessions(tx, userId, sessionId);
  });
}

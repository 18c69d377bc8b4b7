import { createHash, randomBytes } from 'node:crypto';
import { passwordChecks } from '../../src/wire/password';
import type { PasswordSetupInfo } from '../../src/wire/passwordSetup';
import { hashPassword } from '../auth/passwords';
import type { Db, Queryable } from '../db/types';
import { ApiError } from '../errors';
import { NO_PASSWORD_HASH } from './create';

/*
 * One-time "set your password" links (issue 24) for users imported without a password: an
 * administrator issues one, the user opens it, chooses a password and is signed in. Only the hash of
 * a token is stored; a token works once, until it expires, and only while its user is enabled and
 * still has no password. A new link for a user deletes the user's unused ones.
 */

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The organisation's user to issue a link for, by username; null when there is none. */
export async function setupCandidate(db: Queryable, orgId: number, username: string): Promise<{ id: number; username: string; enabled: boolean; hasPassword: boolean } | null> {
  const { rows } = await db.query<{ id: number; username: string; enabled: boolean; has_password: boolean }>(
    'SELECT id, username, enabled, password_hash <> $3 AS has_password FROM users WHERE organization_id = $1 AND lower(username) = lower($2)',
    [orgId, username, NO_PASSWORD_HASH],
  );
  const r = rows[0];
  return r ? { id: r.id, username: r.username, enabled: r.enabled, hasPassword: r.has_password } : null;
}

/** A new link's token for the user, valid for `ttlSeconds`; the user's earlier unused links stop working. */
export async function issueSetupToken(tx: Queryable, userId: number, issuedBy: number, ttlSeconds: number): Promise<{ token: string; expiresAt: string }> {
  const token = randomBytes(32).toString('base64url');
  await tx.query('DELETE FROM password_setup_tokens WHERE user_id = $1 AND used_at IS NULL', [userId]);
  const { rows } = await tx.query<{ expires_at: Date | string }>(
    `INSERT INTO password_setup_tokens (token_hash, user_id, issued_by, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING expires_at`,
    [hashToken(token), userId, issuedBy, ttlSeconds],
  );
  return { token, expiresAt: new Date(rows[0]!.expires_at).toISOString() };
}

interface TokenRow {
  user_id: number;
  username: string;
  name: string;
  expires_at: Date | string;
  used: boolean;
  expired: boolean;
  enabled: boolean;
  has_password: boolean;
}

/** Why a token cannot be used, as the page says it: each a 4xx with the server's words. */
function refusal(row: TokenRow | undefined): ApiError | null {
  if (!row) return new ApiError(404, 'link_invalid', 'This link is not valid: it may be incomplete, or a newer link was issued');
  if (row.used || row.has_password) return new ApiError(410, 'link_used', 'This link has already been used');
  if (row.expired) return new ApiError(410, 'link_expired', 'This link has expired');
  if (!row.enabled) return new ApiError(403, 'account_disabled', 'This account is disabled');
  return null;
}

async function tokenRow(db: Queryable, token: string, lock = false): Promise<TokenRow | undefined> {
  const { rows } = await db.query<TokenRow>(
    `SELECT t.user_id, u.username, trim(u.first_name || ' ' || u.last_name) AS name, t.expires_at,
            t.used_at IS NOT NULL AS used, t.expires_at <= now() AS expired, u.enabled, u.password_hash <> $2 AS has_password
       FROM password_setup_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1${lock ? ' FOR UPDATE OF t' : ''}`,
    [hashToken(token), NO_PASSWORD_HASH],
  );
  return rows[0];
}

/** Whose link it is (for the page's heading and the browser's password manager), or why it cannot be used. */
export async function checkSetupToken(db: Queryable, token: string): Promise<PasswordSetupInfo> {
  const row = await tokenRow(db, token);
  const refused = refusal(row);
  if (refused) throw refused;
  return { username: row!.username, name: row!.name, expires_at: new Date(row!.expires_at).toISOString() };
}

/** True when no link has this token (a guess, or a replaced link): such attempts are throttled. */
export const isUnknownToken = (err: unknown): boolean => err instanceof ApiError && err.code === 'link_invalid';

/**
 * Spends the token and sets the password; the user's id. The rules are the password change's; the
 * row is locked, so two tabs submitting the same link cannot both succeed.
 */
export async function redeemSetupToken(db: Db, token: string, password: string): Promise<number> {
  const failed = passwordChecks(password).filter((c) => !c.met);
  if (failed.length) throw new ApiError(400, 'validation_failed', 'The password does not meet the rules', failed.map((c) => ({ path: 'password', message: `rule_${c.rule}` })));
  // Hashing (~60 ms) before the transaction, which then holds its lock only briefly.
  const hash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const row = await tokenRow(tx, token, true);
    const refused = refusal(row);
    if (refused) throw refused;
    await tx.query('UPDATE password_setup_tokens SET used_at = now() WHERE token_hash = $1', [hashToken(token)]);
    await tx.query('DELETE FROM password_setup_tokens WHERE user_id = $1 AND used_at IS NULL', [row!.user_id]);
    await tx.query('UPDATE users SET password_hash = $2 WHERE id = $1', [row!.user_id, hash]);
    return row!.user_id;
  });
}

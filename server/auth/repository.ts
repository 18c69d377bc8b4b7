/** The account a sign-in names. Sessions (sessions.ts) and failure counts (throttle.ts) keep their own tables. */
import type { Queryable } from '../db/types';

export interface LoginAccount {
  id: number;
  password_hash: string;
}

/** The account whose username matches, whatever its case; undefined when there is none or it is disabled (Enabled = No in the wizard's import). */
export async function accountByUsername(db: Queryable, username: string): Promise<LoginAccount | undefined> {
  const { rows } = await db.query<LoginAccount>('SELECT id, password_hash FROM users WHERE lower(username) = lower($1) AND enabled', [username]);
  return rows[0];
}

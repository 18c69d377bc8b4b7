/** What the client's configuration depends on in the caller's account. */
import type { Queryable } from '../db/types';

export interface ConfigAccount {
  extension: string | null;
  level: 'reseller' | 'customer';
  role_id: number;
  voicemail_generation: number;
}

/** Undefined when the user no longer exists. */
export async function configAccount(db: Queryable, userId: number): Promise<ConfigAccount | undefined> {
  const { rows } = await db.query<ConfigAccount>('SELECT extension, level, role_id, voicemail_generation FROM users WHERE id = $1', [userId]);
  return rows[0];
}

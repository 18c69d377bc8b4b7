/** What the client's configuration depends on in the caller's account. */
import type { Queryable } from '../db/types';

export interface ConfigAccount {
  extension: string | null;
  level: 'reseller' | 'customer';
  role_id: number;
  voicemail_generation: number;
  /** The digest of the organisation's logo (its address); null without one. */
  logo_digest: string | null;
}

/** Undefined when the user no longer exists. */
export async function configAccount(db: Queryable, userId: number): Promise<ConfigAccount | undefined> {
  const { rows } = await db.query<ConfigAccount>(`SELECT u.extension, u.level, u.role_id, u.voicemail_generation, l.digest AS logo_digest
     FROM users u LEFT JOIN organization_logos l ON l.organization_id = u.organization_id AND l.type = 'logo'
     WHERE u.id = $1`, [userId]);
  return rows[0];
}

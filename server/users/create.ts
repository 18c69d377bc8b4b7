import { ANNOUNCEMENT_IDS } from '../../src/wire/frame';
import { insertColumns } from '../db/bulk';
import type { Queryable } from '../db/types';

/**
 * Creating users, the one way the demo seed and the wizard's CSV import both do it: the row (sign-in,
 * extension: the SIP account is the extension's, its credentials minted at sign-in; the chat account
 * is made in ejabberd at the first chat token or by the startup sweep) and the default forward to
 * the user's own voicemail, as a desk phone system has.
 */
/** No valid hash: nothing verifies against it, so no sign-in until a password is set (a set-password link). */
export const NO_PASSWORD_HASH = '!';

export interface NewUser {
  organizationId: number;
  username: string;
  /** An scrypt hash, or NO_PASSWORD_HASH. */
  passwordHash: string;
  first: string;
  last: string;
  email: string;
  extension: string;
  roleId: number;
  level: 'reseller' | 'customer';
  company: string;
  alias: string | null;
  enabled: boolean;
}

export async function insertUsers(tx: Queryable, users: readonly NewUser[]): Promise<Map<string, number>> {
  await insertColumns(
    tx,
    'users',
    [
      ['organization_id', 'int'], ['username', 'text'], ['password_hash', 'text'], ['first_name', 'text'], ['last_name', 'text'],
      ['email', 'text'], ['extension', 'text'], ['role_id', 'smallint'], ['level', 'text'], ['company', 'text'], ['alias', 'text'], ['enabled', 'boolean'],
    ],
    users.map((u) => [u.organizationId, u.username, u.passwordHash, u.first, u.last, u.email, u.extension, u.roleId, u.level, u.company, u.alias, u.enabled]),
  );
  const { rows } = await tx.query<{ id: number; username: string }>('SELECT id, username FROM users WHERE username = ANY($1::text[])', [users.map((u) => u.username)]);
  // A new account starts with today's design: the announcements of earlier changes are not for it
  // (its first sign-in has the tutorial instead).
  await tx.query(
    `INSERT INTO announcement_confirmations (user_id, announcement_id) SELECT u, a FROM unnest($1::int[]) AS u, unnest($2::text[]) AS a ON CONFLICT DO NOTHING`,
    [rows.map((r) => r.id), [...ANNOUNCEMENT_IDS]],
  );
  return new Map(rows.map((r) => [r.username, r.id]));
}

/**
 * Calls a user cannot take (not answered within the ring time, busy, declined, offline,
 * do-not-disturb) go to their voicemail; the default forward says so. `userIds` null: every user.
 */
export async function giveDefaultVoicemailForward(tx: Queryable, userIds: readonly number[] | null = null): Promise<void> {
  await tx.query(
    `INSERT INTO user_call_routing (user_id, forward_default)
     SELECT id, jsonb_build_object('enabled', true, 'destination', jsonb_build_object(
              'destination_type', 'box', 'destination_id', id::text, 'destination_name', NULL, 'destination_parameter', extension))
       FROM users WHERE extension IS NOT NULL AND extension <> '' AND ($1::int[] IS NULL OR id = ANY($1::int[]))
     ON CONFLICT (user_id) DO UPDATE SET forward_default = EXCLUDED.forward_default`,
    [userIds],
  );
}

import { UC_SETTINGS_DEFAULTS, type UcSettings } from '../../src/wire/ucSettings';
import type { Db, Queryable } from '../db/types';

/** The user's settings: what they saved over the defaults (a setting added later reads its default). */
export async function ucSettingsOf(db: Queryable, userId: number): Promise<UcSettings> {
  const { rows } = await db.query<{ settings: Partial<UcSettings> }>('SELECT settings FROM user_uc_settings WHERE user_id = $1', [userId]);
  return { ...UC_SETTINGS_DEFAULTS, ...rows[0]?.settings };
}

/** Saves the settings the patch names; the others keep their value. The settings as stored. */
export function saveUcSettings(db: Db, userId: number, patch: Partial<UcSettings>): Promise<UcSettings> {
  return db.transaction(async (tx) => {
    // Locked read-merge-write, so two tabs changing different settings both keep theirs.
    await tx.query('INSERT INTO user_uc_settings (user_id, settings) VALUES ($1, $2::text::jsonb) ON CONFLICT (user_id) DO NOTHING', [userId, '{}']);
    await tx.query('SELECT 1 FROM user_uc_settings WHERE user_id = $1 FOR UPDATE', [userId]);
    const next = { ...(await ucSettingsOf(tx, userId)), ...patch };
    await tx.query('UPDATE user_uc_settings SET settings = $2::text::jsonb, updated_at = now() WHERE user_id = $1', [userId, JSON.stringify(next)]);
    return next;
  });
}

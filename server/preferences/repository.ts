/** A user's saved preferences: one JSON value per key. */
import type { Queryable } from '../db/types';

/** The saved value, or undefined when the preference was never saved. */
export async function preferenceOf(db: Queryable, userId: number, key: string): Promise<{ value: unknown } | undefined> {
  const { rows } = await db.query<{ value: unknown }>('SELECT value FROM user_preferences WHERE user_id = $1 AND key = $2', [userId, key]);
  return rows[0];
}

/** Saves the value; the value as stored. */
export async function savePreference(db: Queryable, userId: number, key: string, value: unknown): Promise<unknown> {
  // Sent as text and cast, because the pg driver would turn a JS array into a Postgres array.
  const { rows } = await db.query<{ value: unknown }>(
    `INSERT INTO user_preferences (user_id, key, value) VALUES ($1, $2, $3::text::jsonb)
     ON CONFLICT (user_id, key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()
     RETURNING value`,
    [userId, key, JSON.stringify(value)],
  );
  return rows[0]!.value;
}

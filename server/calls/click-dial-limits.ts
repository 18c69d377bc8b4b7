import type { Queryable } from '../db/types';

/** Per user: one click-dial at a time, and this many a minute (nobody makes a desk phone dial in a loop). */
export const CLICK_DIALS_PER_MINUTE = 5;
const WINDOW_SECONDS = 60;
/**
 * How long a ring in progress holds the user: longer than any ring (the desk phone rings 30 s, then
 * it calls), short enough that a process killed mid-ring frees the user by itself.
 */
const LEASE_SECONDS = 120;

export type Admission = { ok: true } | { ok: false; reason: 'in_progress' } | { ok: false; reason: 'too_many'; retryAfter: number };

/**
 * Counts this attempt or refuses it, in the database so that every API process sees the same
 * counts. The lease is taken first and atomically (one upsert), so two requests of one user, on two
 * processes at once, cannot both pass: the count that follows is one process's at a time.
 */
export async function admitClickDial(db: Queryable, userId: number): Promise<Admission> {
  const lease = await db.query(
    `INSERT INTO click_dial_active AS a (user_id, since) VALUES ($1, now())
     ON CONFLICT (user_id) DO UPDATE SET since = now() WHERE a.since < now() - make_interval(secs => $2)
     RETURNING user_id`,
    [userId, LEASE_SECONDS],
  );
  if (!lease.rows.length) return { ok: false, reason: 'in_progress' };
  await db.query(`DELETE FROM click_dial_starts WHERE user_id = $1 AND started_at <= now() - make_interval(secs => $2)`, [userId, WINDOW_SECONDS]);
  const { rows } = await db.query<{ n: number | string; wait: number | string | null }>(
    `SELECT count(*) AS n, ceil(extract(epoch FROM min(started_at) + make_interval(secs => $2) - now()))::int AS wait
     FROM click_dial_starts WHERE user_id = $1`,
    [userId, WINDOW_SECONDS],
  );
  if (Number(rows[0]!.n) >= CLICK_DIALS_PER_MINUTE) {
    await releaseClickDial(db, userId);
    return { ok: false, reason: 'too_many', retryAfter: Math.max(1, Number(rows[0]!.wait ?? 1)) };
  }
  await db.query(`INSERT INTO click_dial_starts (user_id, started_at) VALUES ($1, now())`, [userId]);
  return { ok: true };
}

/** The ring is over (answered, refused or failed): the user may click-dial again. */
export async function releaseClickDial(db: Queryable, userId: number): Promise<void> {
  await db.query(`DELETE FROM click_dial_active WHERE user_id = $1`, [userId]);
}

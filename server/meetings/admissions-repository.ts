import type { Queryable } from '../db/types';

/** The waiting room's rows (migration 057). */
export type AdmissionStatus = 'waiting' | 'admitted' | 'denied';

export async function admissionOf(q: Queryable, meetingId: number, occupant: number): Promise<AdmissionStatus | null> {
  const { rows } = await q.query<{ status: AdmissionStatus }>('SELECT status FROM meeting_admissions WHERE meeting_id = $1 AND occupant = $2', [meetingId, occupant]);
  return rows[0]?.status ?? null;
}

/** Asks (again) to come in: a waiting row is renewed, a decision is kept. */
export async function wait(q: Queryable, meetingId: number, occupant: number, name: string, at: Date): Promise<void> {
  await q.query(
    `INSERT INTO meeting_admissions (meeting_id, occupant, name, status, updated_at) VALUES ($1, $2, $3, 'waiting', $4)
     ON CONFLICT (meeting_id, occupant) DO UPDATE SET updated_at = EXCLUDED.updated_at, name = EXCLUDED.name WHERE meeting_admissions.status = 'waiting'`,
    [meetingId, occupant, name, at],
  );
}

/** Who waits now: asked since `since` (a window that stopped asking has gone). */
export async function waiting(q: Queryable, meetingId: number, since: Date): Promise<{ occupant: number; name: string }[]> {
  const { rows } = await q.query<{ occupant: number; name: string }>(
    `SELECT occupant, name FROM meeting_admissions WHERE meeting_id = $1 AND status = 'waiting' AND updated_at >= $2 ORDER BY updated_at, occupant`,
    [meetingId, since],
  );
  return rows;
}

/** The host's answer; false when that person is not waiting. */
export async function decide(q: Queryable, meetingId: number, occupant: number, admit: boolean, at: Date): Promise<boolean> {
  const { rows } = await q.query(`UPDATE meeting_admissions SET status = $3, updated_at = $4 WHERE meeting_id = $1 AND occupant = $2 AND status = 'waiting' RETURNING occupant`, [
    meetingId,
    occupant,
    admit ? 'admitted' : 'denied',
    at,
  ]);
  return rows.length > 0;
}

/** The user's display name, as the waiting list shows it. */
export async function userName(q: Queryable, userId: number): Promise<string> {
  const { rows } = await q.query<{ name: string }>(`SELECT coalesce(nullif(trim(first_name || ' ' || last_name), ''), username) AS name FROM users WHERE id = $1`, [userId]);
  return rows[0]?.name ?? '';
}

/** The user ids that host the meeting: its booker and its moderators. */
export async function hostIds(q: Queryable, meetingId: number): Promise<number[]> {
  const { rows } = await q.query<{ id: number }>(
    `SELECT booked_by_id AS id FROM meetings WHERE id = $1 UNION SELECT user_id AS id FROM meeting_invitees WHERE meeting_id = $1 AND is_moderator AND user_id IS NOT NULL`,
    [meetingId],
  );
  return rows.map((r) => r.id);
}

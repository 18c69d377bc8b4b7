import type { Queryable } from '../db/types';

/** The waiting room's rows (migration 057). */
export type AdmissionStatus = 'waiting' | 'admitted' | 'denied';

export async function admissionOf(q: Queryable, meetingId: number, occupant: number): Promise<AdmissionStatus | null> {
  const { rows } = await q.query<{ status: AdmissionStatus }>('SELECT status FROM meeting_admissions WHERE meeting_id = $1 AND occupant = $2', [meetingId, occupant]);
  return rows[0]?.status ?? null;
}

/** Asks (again) to come in: a waiting row is renewed, a decision is kept. `phone`: a phone's caller number (its name). */
export async function wait(q: Queryable, meetingId: number, occupant: number, name: string, at: Date, phone: string | null = null): Promise<void> {
  await q.query(
    `INSERT INTO meeting_admissions (meeting_id, occupant, name, status, updated_at, phone) VALUES ($1, $2, $3, 'waiting', $4, $5)
     ON CONFLICT (meeting_id, occupant) DO UPDATE SET updated_at = EXCLUDED.updated_at, name = EXCLUDED.name WHERE meeting_admissions.status = 'waiting'`,
    [meetingId, occupant, name, at, phone],
  );
}

/** Who waits now: asked since `since` (a window that stopped asking has gone). */
export async function waiting(q: Queryable, meetingId: number, since: Date): Promise<{ occupant: number; name: string; is_phone?: boolean }[]> {
  const { rows } = await q.query<{ occupant: number; name: string; phone: string | null }>(
    `SELECT occupant, name, phone FROM meeting_admissions WHERE meeting_id = $1 AND status = 'waiting' AND updated_at >= $2 ORDER BY updated_at, occupant`,
    [meetingId, since],
  );
  return rows.map((r) => (r.phone === null ? { occupant: r.occupant, name: r.name } : { occupant: r.occupant, name: r.phone, is_phone: true }));
}

/** A new occupant id for a phone that waits (migration 060: a range no user or guest has). */
export async function phoneOccupant(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ id: number }>(`SELECT nextval('meeting_phone_occupants')::int AS id`);
  return rows[0]!.id;
}

/** A phone that hung up while waiting leaves the host's list at once. */
export async function stopWaiting(q: Queryable, meetingId: number, occupant: number): Promise<void> {
  await q.query(`DELETE FROM meeting_admissions WHERE meeting_id = $1 AND occupant = $2 AND status = 'waiting'`, [meetingId, occupant]);
}

/** The colleague (a user of the organisation) whose extension this is, or null. */
export async function colleagueAt(q: Queryable, organizationId: number, extension: string): Promise<number | null> {
  const { rows } = await q.query<{ id: number }>(`SELECT id FROM users WHERE organization_id = $1 AND extension = $2`, [organizationId, extension]);
  return rows[0]?.id ?? null;
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

import type { Queryable } from '../db/types';

/** The lobby's places (migration 049): a row per lobby window, live until its expires_at. */

export interface OccupantRow {
  user_id: number;
  name: string;
  state: 'xa' | 'dnd' | 'away' | null;
}

/** Holds (or renews) a window's place; lapsed places of the meeting go at the same time. */
export async function holdPlace(q: Queryable, meetingId: number, userId: number, clientId: string, state: OccupantRow['state'], at: Date, expiresAt: Date): Promise<void> {
  await q.query('DELETE FROM meeting_presence WHERE meeting_id = $1 AND expires_at <= $2', [meetingId, at]);
  await q.query(
    `INSERT INTO meeting_presence (meeting_id, user_id, client_id, state, joined_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (meeting_id, user_id, client_id) DO UPDATE SET state = EXCLUDED.state, expires_at = EXCLUDED.expires_at`,
    [meetingId, userId, clientId, state, at, expiresAt],
  );
}

export async function leavePlace(q: Queryable, meetingId: number, userId: number, clientId: string): Promise<void> {
  await q.query('DELETE FROM meeting_presence WHERE meeting_id = $1 AND user_id = $2 AND client_id = $3', [meetingId, userId, clientId]);
}

/** Whether the user holds a live place in the meeting's lobby (a renewal then needs no PIN again). */
export async function holdsPlace(q: Queryable, meetingId: number, userId: number, at: Date): Promise<boolean> {
  const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM meeting_presence WHERE meeting_id = $1 AND user_id = $2 AND expires_at > $3', [meetingId, userId, at]);
  return (rows[0]?.n ?? 0) > 0;
}

/** Who is in: each user once (several windows count once, the latest state wins), by name. */
export async function occupants(q: Queryable, meetingId: number, at: Date): Promise<OccupantRow[]> {
  const { rows } = await q.query<OccupantRow>(
    `SELECT DISTINCT ON (lower(trim(u.first_name || ' ' || u.last_name)), u.id)
            u.id AS user_id, coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username) AS name, p.state
       FROM meeting_presence p JOIN users u ON u.id = p.user_id
      WHERE p.meeting_id = $1 AND p.expires_at > $2
      ORDER BY lower(trim(u.first_name || ' ' || u.last_name)), u.id, p.expires_at DESC`,
    [meetingId, at],
  );
  return rows;
}

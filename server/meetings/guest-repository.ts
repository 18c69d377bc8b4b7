import type { Queryable } from '../db/types';
import type { OccupantRow } from './presence-repository';

/** Meeting guests (migration 056): who joined with an e-mail address, and their lobby places. */

export interface GuestRow {
  id: number;
  meeting_id: number;
  email: string;
  name: string;
}

export async function insertGuest(q: Queryable, meetingId: number, email: string, name: string): Promise<number> {
  const { rows } = await q.query<{ id: number }>('INSERT INTO meeting_guests (meeting_id, email, name) VALUES ($1, $2, $3) RETURNING id', [meetingId, email, name]);
  return rows[0]!.id;
}

export async function guestOf(q: Queryable, meetingId: number, guestId: number): Promise<GuestRow | null> {
  const { rows } = await q.query<GuestRow>('SELECT id, meeting_id, email, name FROM meeting_guests WHERE id = $1 AND meeting_id = $2', [guestId, meetingId]);
  return rows[0] ?? null;
}

export async function holdGuestPlace(q: Queryable, meetingId: number, guestId: number, clientId: string, at: Date, expiresAt: Date): Promise<void> {
  await q.query('DELETE FROM meeting_guest_presence WHERE meeting_id = $1 AND expires_at <= $2', [meetingId, at]);
  await q.query(
    `INSERT INTO meeting_guest_presence (meeting_id, guest_id, client_id, joined_at, expires_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (meeting_id, guest_id, client_id) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
    [meetingId, guestId, clientId, at, expiresAt],
  );
}

export async function leaveGuestPlace(q: Queryable, meetingId: number, guestId: number, clientId: string): Promise<void> {
  await q.query('DELETE FROM meeting_guest_presence WHERE meeting_id = $1 AND guest_id = $2 AND client_id = $3', [meetingId, guestId, clientId]);
}

export async function guestHoldsPlace(q: Queryable, meetingId: number, guestId: number, at: Date): Promise<boolean> {
  const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM meeting_guest_presence WHERE meeting_id = $1 AND guest_id = $2 AND expires_at > $3', [meetingId, guestId, at]);
  return (rows[0]?.n ?? 0) > 0;
}

/** The guests in the lobby, each once, by name. */
export async function guestOccupants(q: Queryable, meetingId: number, at: Date): Promise<Array<Pick<OccupantRow, 'name'> & { guest_id: number }>> {
  const { rows } = await q.query<{ guest_id: number; name: string }>(
    `SELECT DISTINCT g.id AS guest_id, g.name FROM meeting_guest_presence p JOIN meeting_guests g ON g.id = p.guest_id
      WHERE p.meeting_id = $1 AND p.expires_at > $2 ORDER BY g.name, g.id`,
    [meetingId, at],
  );
  return rows;
}

import type { Queryable } from './db/types';

/** The demo organisation's group chats. Members are named by username; the organisation is olivia's. */
export const DEMO_ROOMS: ReadonlyArray<{ slug: string; subject: string; members: readonly string[] }> = [
  { slug: 'sales-team', subject: 'Sales team', members: ['olivia', 'alice', 'bob', 'carol'] },
  { slug: 'support', subject: 'Support', members: ['alice', 'bob', 'aiko.tanaka', 'priya.raman'] },
];

/**
 * Inserts the demo rooms and their members. Safe to run again (every insert skips existing rows) and
 * a no-op on a database without the demo organisation. The room JID's local part carries the
 * organisation id because every organisation shares one MUC host.
 */
export async function seedDemoRooms(tx: Queryable): Promise<number> {
  let members = 0;
  for (const room of DEMO_ROOMS) {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO chat_rooms (organization_id, subject, jid_local)
       SELECT organization_id, $1, $2 || '-' || organization_id FROM users WHERE lower(username) = 'olivia'
       ON CONFLICT (jid_local) DO UPDATE SET subject = chat_rooms.subject
       RETURNING id`,
      [room.subject, room.slug],
    );
    const roomId = rows[0]?.id;
    if (roomId === undefined) continue;
    // Only users of the room's organisation, and never limited-access users (no chat for them).
    const added = await tx.query<{ user_id: number }>(
      `INSERT INTO chat_room_members (room_id, user_id)
       SELECT r.id, u.id FROM chat_rooms r JOIN users u ON u.organization_id = r.organization_id
        WHERE r.id = $1 AND lower(u.username) = ANY($2::text[]) AND u.role_id <> 4
       ON CONFLICT DO NOTHING
       RETURNING user_id`,
      [roomId, room.members.map((m) => m.toLowerCase())],
    );
    members += added.rows.length;
  }
  return members;
}

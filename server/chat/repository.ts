/** Chat as stored: the colleagues one may chat with, and group rooms with their members. */
import { ROLE } from '../../src/wire/profile';
import type { Queryable } from '../db/types';

export interface ColleagueRow {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
}

/** The user's colleagues who have chat (the limited-access role has none), by name. */
export async function chatColleagues(db: Queryable, organizationId: number, userId: number): Promise<ColleagueRow[]> {
  const { rows } = await db.query<ColleagueRow>(
    `SELECT id, username, first_name, last_name FROM users
      WHERE organization_id = $1 AND id <> $2 AND role_id <> $3
      ORDER BY lower(first_name || ' ' || last_name), id`,
    [organizationId, userId, ROLE.LIMITED_ACCESS],
  );
  return rows;
}

/** A user who has a chat account (not limited access), for presence sharing. */
export async function sharingUser(db: Queryable, userId: number): Promise<{ username: string; organizationId: number } | null> {
  const { rows } = await db.query<{ username: string; organization_id: number }>('SELECT username, organization_id FROM users WHERE id = $1 AND role_id <> $2', [userId, ROLE.LIMITED_ACCESS]);
  return rows[0] ? { username: rows[0].username, organizationId: rows[0].organization_id } : null;
}

export interface RoomRow {
  id: number;
  jid_local: string;
  subject: string;
}

export interface RoomWithMembersRow extends RoomRow {
  created_at: Date | string;
  members: Array<{ user_id: number; username: string; name: string }>;
}

/** The rooms the user belongs to (or just `roomId`), each with its members who have chat, by name. */
export async function roomsOf(q: Queryable, userId: number, roomId?: number): Promise<RoomWithMembersRow[]> {
  const { rows } = await q.query<RoomWithMembersRow>(
    `SELECT r.id, r.jid_local, r.subject, r.created_at,
            json_agg(json_build_object('user_id', u.id, 'username', u.username,
                     'name', coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username))
                     ORDER BY lower(u.first_name || ' ' || u.last_name), u.id) AS members
       FROM chat_rooms r
       JOIN chat_room_members mine ON mine.room_id = r.id AND mine.user_id = $1
       JOIN chat_room_members m ON m.room_id = r.id
       JOIN users u ON u.id = m.user_id AND u.role_id <> $2
      WHERE ($3::int IS NULL OR r.id = $3)
      GROUP BY r.id ORDER BY r.id`,
    [userId, ROLE.LIMITED_ACCESS, roomId ?? null],
  );
  return rows;
}

/** The room if the user belongs to it, locked for the change that follows; null otherwise. */
export async function memberRoomForUpdate(q: Queryable, jidLocal: string, userId: number, organizationId: number): Promise<RoomRow | null> {
  const { rows } = await q.query<RoomRow>(
    `SELECT r.id, r.jid_local, r.subject FROM chat_rooms r JOIN chat_room_members m ON m.room_id = r.id AND m.user_id = $2
      WHERE r.jid_local = $1 AND r.organization_id = $3 FOR UPDATE OF r`,
    [jidLocal, userId, organizationId],
  );
  return rows[0] ?? null;
}

/** How many of `ids` are users of the organisation who have chat. */
export async function countChatUsers(q: Queryable, ids: readonly number[], organizationId: number): Promise<number> {
  const { rows } = await q.query<{ id: number }>('SELECT id FROM users WHERE id = ANY($1::int[]) AND organization_id = $2 AND role_id <> $3', [
    ids,
    organizationId,
    ROLE.LIMITED_ACCESS,
  ]);
  return rows.length;
}

/** The usernames of the room's members who have chat. */
export async function memberUsernames(q: Queryable, roomId: number): Promise<string[]> {
  const { rows } = await q.query<{ username: string }>(
    'SELECT u.username FROM chat_room_members m JOIN users u ON u.id = m.user_id WHERE m.room_id = $1 AND u.role_id <> $2 ORDER BY u.id',
    [roomId, ROLE.LIMITED_ACCESS],
  );
  return rows.map((r) => r.username);
}

/** A new room with these members; its id. */
export async function createRoom(q: Queryable, organizationId: number, subject: string, jidLocal: string, memberIds: readonly number[]): Promise<number> {
  const { rows } = await q.query<{ id: number }>('INSERT INTO chat_rooms (organization_id, subject, jid_local) VALUES ($1, $2, $3) RETURNING id', [
    organizationId,
    subject,
    jidLocal,
  ]);
  const id = rows[0]!.id;
  await q.query('INSERT INTO chat_room_members (room_id, user_id) SELECT $1, unnest($2::int[])', [id, memberIds]);
  return id;
}

export async function setSubject(q: Queryable, roomId: number, subject: string): Promise<void> {
  await q.query('UPDATE chat_rooms SET subject = $2 WHERE id = $1', [roomId, subject]);
}

/** Makes the room's members exactly `keep`. */
export async function setMembers(q: Queryable, roomId: number, keep: readonly number[]): Promise<void> {
  await q.query('DELETE FROM chat_room_members WHERE room_id = $1 AND NOT (user_id = ANY($2::int[]))', [roomId, keep]);
  await q.query('INSERT INTO chat_room_members (room_id, user_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING', [roomId, keep]);
}

export async function removeMember(q: Queryable, roomId: number, userId: number): Promise<void> {
  await q.query('DELETE FROM chat_room_members WHERE room_id = $1 AND user_id = $2', [roomId, userId]);
}

export async function deleteRoom(q: Queryable, roomId: number): Promise<void> {
  await q.query('DELETE FROM chat_rooms WHERE id = $1', [roomId]);
}

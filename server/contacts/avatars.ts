/** Avatars as stored: one per personal contact and one per user (their profile photo), kept in the organisation. */
import type { Queryable } from '../db/types';

export interface Photo {
  mime: string;
  bytes: Buffer;
}

/** Sets (or replaces) a personal contact's picture; the avatar's id. */
export async function saveContactAvatar(db: Queryable, organizationId: number, contactId: number, photo: Photo): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO avatars (organization_id, contact_id, mime_type, bytes) VALUES ($1, $2, $3, $4)
     ON CONFLICT (contact_id) WHERE contact_id IS NOT NULL DO UPDATE SET mime_type = EXCLUDED.mime_type, bytes = EXCLUDED.bytes, created_at = now()
     RETURNING id`,
    [organizationId, contactId, photo.mime, photo.bytes],
  );
  return rows[0]!.id;
}

/** Sets (or replaces) a user's profile photo; the avatar's id. */
export async function saveUserAvatar(db: Queryable, organizationId: number, userId: number, photo: Photo): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO avatars (organization_id, user_id, mime_type, bytes) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id) WHERE user_id IS NOT NULL DO UPDATE SET mime_type = EXCLUDED.mime_type, bytes = EXCLUDED.bytes, created_at = now()
     RETURNING id`,
    [organizationId, userId, photo.mime, photo.bytes],
  );
  return rows[0]!.id;
}

export async function deleteUserAvatar(db: Queryable, userId: number): Promise<void> {
  await db.query('DELETE FROM avatars WHERE user_id = $1', [userId]);
}

export async function deleteContactAvatar(db: Queryable, contactId: number): Promise<void> {
  await db.query('DELETE FROM avatars WHERE contact_id = $1', [contactId]);
}

/** An avatar of the organisation with the owner of its contact (null for a user's photo); null when there is none. */
export async function avatarOf(db: Queryable, organizationId: number, id: number): Promise<{ mime_type: string; bytes: Uint8Array; contact_owner: number | null } | null> {
  const { rows } = await db.query<{ mime_type: string; bytes: Uint8Array; contact_owner: number | null }>(
    `SELECT a.mime_type, a.bytes, c.owner_id AS contact_owner FROM avatars a LEFT JOIN contacts c ON c.id = a.contact_id
      WHERE a.id = $1 AND a.organization_id = $2`,
    [id, organizationId],
  );
  return rows[0] ?? null;
}

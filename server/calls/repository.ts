/** How a user's incoming calls are routed (do-not-disturb, forwarding) and the extensions they may be forwarded to. */
import type { ForwardSetting, ForwardType } from '../../src/wire/calling';
import type { FindMe, InboundRoutes } from '../../src/wire/inbound';
import type { Queryable } from '../db/types';

export interface RoutingRow {
  do_not_disturb: boolean;
  forward_always: ForwardSetting | null;
  forward_default: ForwardSetting | null;
  inbound_routes: InboundRoutes | null;
  find_me: FindMe | null;
}

export async function callRouting(db: Queryable, userId: number): Promise<RoutingRow> {
  const { rows } = await db.query<RoutingRow>('SELECT do_not_disturb, forward_always, forward_default, inbound_routes, find_me FROM user_call_routing WHERE user_id = $1', [userId]);
  return rows[0] ?? { do_not_disturb: false, forward_always: null, forward_default: null, inbound_routes: null, find_me: null };
}

/** Saves the inbound rules or the find-me list (already checked and resolved). */
export async function setRoutingJson(db: Queryable, userId: number, column: 'inbound_routes' | 'find_me', value: InboundRoutes | FindMe): Promise<void> {
  await db.query(
    `INSERT INTO user_call_routing (user_id, ${column}) VALUES ($1, $2::jsonb)
     ON CONFLICT (user_id) DO UPDATE SET ${column} = EXCLUDED.${column}, updated_at = now()`,
    [userId, JSON.stringify(value)],
  );
}

export interface ExtensionGroup {
  id: number;
  name: string;
  extensions: string[];
}

/** The organisation's extension groups, with their members' extensions, by name. */
export async function extensionGroups(db: Queryable, organizationId: number): Promise<ExtensionGroup[]> {
  const { rows } = await db.query<ExtensionGroup>(
    `SELECT g.id, g.name, coalesce(array_agg(u.extension ORDER BY u.extension) FILTER (WHERE u.extension IS NOT NULL), '{}') AS extensions
       FROM extension_groups g
       LEFT JOIN extension_group_members m ON m.group_id = g.id
       LEFT JOIN users u ON u.id = m.user_id AND u.organization_id = g.organization_id AND u.extension IS NOT NULL
      WHERE g.organization_id = $1
      GROUP BY g.id ORDER BY lower(g.name), g.id`,
    [organizationId],
  );
  return rows;
}

/** Whether group `id` is one of the organisation's (a rule may only name its own organisation's groups). */
export async function isExtensionGroupOf(db: Queryable, organizationId: number, id: number): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM extension_groups WHERE id = $1 AND organization_id = $2', [id, organizationId]);
  return rows.length > 0;
}

export async function setDoNotDisturb(db: Queryable, userId: number, on: boolean): Promise<void> {
  await db.query(
    `INSERT INTO user_call_routing (user_id, do_not_disturb) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET do_not_disturb = EXCLUDED.do_not_disturb, updated_at = now()`,
    [userId, on],
  );
}

export async function setForward(db: Queryable, userId: number, type: ForwardType, saved: ForwardSetting): Promise<void> {
  const column = type === 'always' ? 'forward_always' : 'forward_default';
  await db.query(
    `INSERT INTO user_call_routing (user_id, ${column}) VALUES ($1, $2::jsonb)
     ON CONFLICT (user_id) DO UPDATE SET ${column} = EXCLUDED.${column}, updated_at = now()`,
    [userId, JSON.stringify(saved)],
  );
}

/** The user's extension (also their voicemail box), or null. */
export async function extensionOf(db: Queryable, userId: number): Promise<string | null> {
  const { rows } = await db.query<{ extension: string | null }>('SELECT extension FROM users WHERE id = $1', [userId]);
  return rows[0]?.extension || null;
}

export interface ExtensionUser {
  id: number;
  extension: string;
  name: string;
}

/** A user of the organisation who has an extension, or null. */
export async function extensionUser(db: Queryable, organizationId: number, id: number): Promise<ExtensionUser | null> {
  const { rows } = await db.query<ExtensionUser>(
    `SELECT id, extension, trim(first_name || ' ' || last_name) AS name FROM users
      WHERE id = $1 AND organization_id = $2 AND extension IS NOT NULL`,
    [id, organizationId],
  );
  return rows[0] ?? null;
}

/** The user's colleagues with an extension, by name. */
export async function colleaguesWithExtension(db: Queryable, organizationId: number, userId: number): Promise<ExtensionUser[]> {
  const { rows } = await db.query<ExtensionUser>(
    `SELECT id, extension, trim(first_name || ' ' || last_name) AS name FROM users
      WHERE organization_id = $1 AND id <> $2 AND extension IS NOT NULL
      ORDER BY lower(first_name), lower(last_name), id`,
    [organizationId, userId],
  );
  return rows;
}

/** The user's recorded name for find-me (a WAV), or null. */
export async function recordedName(db: Queryable, userId: number): Promise<Buffer | null> {
  const { rows } = await db.query<{ bytes: Buffer }>('SELECT b.bytes FROM user_call_routing r JOIN media_blobs b ON b.id = r.find_me_name_media_id WHERE r.user_id = $1', [userId]);
  return rows[0]?.bytes ?? null;
}

/** The recorded name of the user Kamailio knows by `extension` (the oldest account with it, as calls ring). */
export async function recordedNameOfExtension(db: Queryable, extension: string): Promise<Buffer | null> {
  const { rows } = await db.query<{ bytes: Buffer }>(
    `SELECT b.bytes FROM users u JOIN user_call_routing r ON r.user_id = u.id JOIN media_blobs b ON b.id = r.find_me_name_media_id
      WHERE u.id = (SELECT id FROM users WHERE extension = $1 ORDER BY id LIMIT 1)`,
    [extension],
  );
  return rows[0]?.bytes ?? null;
}

/** Saves (a WAV) or removes (null) the user's recorded name. */
export async function setRecordedName(db: Queryable, userId: number, audio: { wav: Buffer; sha256: string; durationMs: number } | null): Promise<void> {
  let mediaId: number | null = null;
  if (audio) {
    const blob = await db.query<{ id: number }>(
      `INSERT INTO media_blobs (sha256, content_type, duration_ms, bytes) VALUES ($1, 'audio/wav', $2, $3)
       ON CONFLICT (sha256) DO UPDATE SET sha256 = EXCLUDED.sha256 RETURNING id`,
      [audio.sha256, audio.durationMs, audio.wav],
    );
    mediaId = blob.rows[0]!.id;
  }
  await db.query(
    `INSERT INTO user_call_routing (user_id, find_me_name_media_id) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET find_me_name_media_id = EXCLUDED.find_me_name_media_id, updated_at = now()`,
    [userId, mediaId],
  );
}

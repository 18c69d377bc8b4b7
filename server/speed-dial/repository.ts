import type { SpeedDialVisibility } from '../../src/wire/speedDial';
import type { Queryable } from '../db/types';

export interface SpeedDialRow {
  id: number;
  user_id: number;
  organization_id: number;
  visibility: SpeedDialVisibility;
  position: number;
  shortcut: number;
  dial_string: string;
  label: string;
  modified: Date | string;
  owner_name: string;
}

const COLUMNS = `d.id, d.user_id, d.organization_id, d.visibility, d.position, d.shortcut, d.dial_string, d.label, d.modified,
  trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) AS owner_name`;

/** The user's own entries and their organisation's shared ones, in the user's order. */
export async function listSpeedDials(db: Queryable, organizationId: number, userId: number): Promise<SpeedDialRow[]> {
  const { rows } = await db.query<SpeedDialRow>(
    `SELECT ${COLUMNS} FROM speed_dials d JOIN users u ON u.id = d.user_id
      WHERE d.organization_id = $1 AND (d.user_id = $2 OR d.visibility = 'shared')
      ORDER BY (d.user_id <> $2), d.position, d.id`,
    [organizationId, userId],
  );
  return rows;
}

export async function speedDialOf(db: Queryable, organizationId: number, id: number): Promise<SpeedDialRow | null> {
  const { rows } = await db.query<SpeedDialRow>(`SELECT ${COLUMNS} FROM speed_dials d JOIN users u ON u.id = d.user_id WHERE d.organization_id = $1 AND d.id = $2`, [organizationId, id]);
  return rows[0] ?? null;
}

/**
 * Locks the organisation's row for the rest of the transaction, so that two requests cannot both
 * take the last free place or the same shortcut, and returns its maximum and current count.
 */
export async function lockOrganisationSpeedDials(tx: Queryable, organizationId: number): Promise<{ max: number; total: number }> {
  const { rows } = await tx.query<{ max_speed_dials: number }>('SELECT max_speed_dials FROM organizations WHERE id = $1 FOR UPDATE', [organizationId]);
  return { max: rows[0]?.max_speed_dials ?? 0, total: await countSpeedDials(tx, organizationId) };
}

export async function organisationSpeedDialLimits(db: Queryable, organizationId: number): Promise<{ max: number; total: number }> {
  const { rows } = await db.query<{ max_speed_dials: number }>('SELECT max_speed_dials FROM organizations WHERE id = $1', [organizationId]);
  return { max: rows[0]?.max_speed_dials ?? 0, total: await countSpeedDials(db, organizationId) };
}

async function countSpeedDials(db: Queryable, organizationId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM speed_dials WHERE organization_id = $1', [organizationId]);
  return rows[0]?.n ?? 0;
}

/**
 * The shortcuts an entry of `userId` with `visibility` must not reuse: a personal entry clashes
 * with the user's own and the organisation's shared ones (what the user can dial); a shared one
 * with every entry of the organisation (everyone dials it). `except` is the entry being changed.
 */
export async function takenShortcuts(db: Queryable, organizationId: number, userId: number, visibility: SpeedDialVisibility, except: number | null): Promise<Set<number>> {
  const { rows } = await db.query<{ shortcut: number }>(
    `SELECT shortcut FROM speed_dials
      WHERE organization_id = $1 AND id <> coalesce($4::int, 0)
        AND ($3 = 'shared' OR user_id = $2 OR visibility = 'shared')`,
    [organizationId, userId, visibility, except],
  );
  return new Set(rows.map((r) => r.shortcut));
}

export async function lastPosition(db: Queryable, userId: number): Promise<number> {
  const { rows } = await db.query<{ p: number | null }>('SELECT max(position) AS p FROM speed_dials WHERE user_id = $1', [userId]);
  return rows[0]?.p ?? -1;
}

export interface SpeedDialFields {
  visibility: SpeedDialVisibility;
  position: number;
  shortcut: number;
  dial_string: string;
  label: string;
}

export async function insertSpeedDial(db: Queryable, organizationId: number, userId: number, f: SpeedDialFields): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO speed_dials (organization_id, user_id, visibility, position, shortcut, dial_string, label)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [organizationId, userId, f.visibility, f.position, f.shortcut, f.dial_string, f.label],
  );
  return rows[0]!.id;
}

export async function updateSpeedDial(db: Queryable, id: number, f: SpeedDialFields): Promise<void> {
  await db.query(
    `UPDATE speed_dials SET visibility = $2, position = $3, shortcut = $4, dial_string = $5, label = $6, modified = now() WHERE id = $1`,
    [id, f.visibility, f.position, f.shortcut, f.dial_string, f.label],
  );
}

export async function deleteSpeedDial(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM speed_dials WHERE id = $1', [id]);
}

/**
 * The profile of a user as the catalogue's /v1/users/{id} calls read and write it: the users row
 * (names, alias, company, primary e-mail), the e-mail list, personal phone numbers and the address.
 */
import type { Viewer } from '../auth/viewer';
import { avatarHref } from '../contacts/repository';
import {
  digitsOnly,
  PROFILE_ADDRESS_DEFAULT_COUNTRY,
  PROFILE_EMAIL_DEFAULT_TYPE,
  type UserAddressInput,
  type UserAddressWire,
  type UserEmailWire,
  type UserPatchBody,
  type UserPhoneWire,
} from '../../src/wire/contacts';
import { canEditUsers, type Profile } from '../../src/wire/profile';
import { forbidden } from '../errors';
import type { Db, Queryable } from '../db/types';

export interface UserRow {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
  alias: string | null;
  email: string;
  company: string;
  organization_id: number;
  role_id: number;
  extension: string | null;
  level: 'reseller' | 'customer';
}

const USER_COLUMNS = 'u.id, u.username, u.first_name, u.last_name, u.alias, u.email, u.company, u.organization_id, u.role_id, u.extension, u.level';
const C2D_PEER_UC = 2;

/**
 * The user `id` as `me` may see it: only within the caller's organisation. A missing user and
 * another organisation's user look the same (403), so ids of other organisations cannot be probed.
 */
export async function readableUser(db: Queryable, me: number, id: number, forUpdate = false): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    `SELECT ${USER_COLUMNS} FROM users u JOIN users me ON me.id = $2 AND me.organization_id = u.organization_id
      WHERE u.id = $1${forUpdate ? ' FOR UPDATE OF u' : ''}`,
    [id, me],
  );
  if (!rows[0]) throw forbidden('You are not authorized to view this user');
  return rows[0];
}

/**
 * A user may change their own profile; account owners and administrators (roles 1 and 2) may
 * change the other users of their organisation; nobody else. Locks the user's row, so two saves
 * of the same profile run one after the other instead of interleaving their list rewrites.
 */
export async function writableUser(tx: Queryable, me: Viewer, id: number): Promise<UserRow> {
  const { rows: targets } = await tx.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = $1 AND u.organization_id = $2 FOR UPDATE`, [id, me.organizationId]);
  const target = targets[0];
  if (!target) throw forbidden('You are not authorized to update this user');
  if (target.id !== me.userId && !canEditUsers(me.roleId)) {
    throw forbidden('Only account owners and administrators can update other users; you can update your own profile');
  }
  return target;
}

interface PhoneRow {
  id: number;
  number: string | null;
  extension: string | null;
  type: string;
  custom_type: string | null;
  is_primary: boolean;
}

/** The extension first (primary unless a personal number is), then the personal numbers in order. */
export function phoneList(extension: string | null, rows: readonly PhoneRow[]): UserPhoneWire[] {
  const personalPrimary = rows.some((r) => r.is_primary);
  const ext: UserPhoneWire[] = extension
    ? [{ source: 'extension', source_id: null, extension, number: null, is_primary: !personalPrimary, type: 'work', custom_type: null }]
    : [];
  return [
    ...ext,
    ...rows.map((r): UserPhoneWire => ({
      source: 'personal',
      source_id: r.id,
      extension: r.extension,
      number: r.number,
      is_primary: r.is_primary,
      type: r.type as UserPhoneWire['type'],
      custom_type: r.custom_type,
    })),
  ];
}

export async function listPhones(db: Queryable, user: Pick<UserRow, 'id' | 'extension'>): Promise<UserPhoneWire[]> {
  const { rows } = await db.query<PhoneRow>(
    'SELECT id, number, extension, type, custom_type, is_primary FROM user_phone_numbers WHERE user_id = $1 ORDER BY position, id',
    [user.id],
  );
  return phoneList(user.extension, rows);
}

export function toProfile(u: UserRow, phones: UserPhoneWire[], avatarId: number | null = null): Profile {
  return {
    user_id: u.id,
    username: u.username,
    first_name: u.first_name,
    last_name: u.last_name,
    alias: u.alias,
    avatar_id: avatarId,
    avatar_href: avatarHref(avatarId),
    email: u.email,
    c2d_peer_type: C2D_PEER_UC,
    company: u.company,
    organization_id: u.organization_id,
    role_id: u.role_id,
    extension: u.extension,
    is_reseller_level: u.level === 'reseller',
    // The profile's phone fields are these five only; types and labels come with GET …/phone-numbers.
    phone_numbers: phones.map((p) => ({ source: p.source, source_id: p.source_id, extension: p.extension, number: p.number, is_primary: p.is_primary })),
  };
}

export async function profileOf(db: Queryable, user: UserRow): Promise<Profile> {
  const avatar = await db.query<{ id: number }>('SELECT id FROM avatars WHERE user_id = $1', [user.id]);
  return toProfile(user, await listPhones(db, user), avatar.rows[0]?.id ?? null);
}

/** Writes the fields present in the patch (trimmed); an empty alias clears it. */
export async function updateUser(tx: Queryable, id: number, patch: UserPatchBody): Promise<void> {
  const sets: string[] = [];
  const values: unknown[] = [id];
  const put = (column: string, value: unknown) => {
    values.push(value);
    sets.push(`${column} = $${values.length}`);
  };
  if (patch.first_name !== undefined) put('first_name', patch.first_name.trim());
  if (patch.last_name !== undefined) put('last_name', patch.last_name.trim());
  if (patch.company !== undefined) put('company', patch.company.trim());
  if (patch.email !== undefined) put('email', patch.email.trim());
  if (patch.alias !== undefined) put('alias', patch.alias?.trim() || null);
  if (sets.length) await tx.query(`UPDATE users SET ${sets.join(', ')} WHERE id = $1`, values);
}

/**
 * Replaces the list in `table` with `items`: rows whose id the user already has are updated in
 * place (so their ids stay), others are inserted, and rows no longer listed are deleted.
 */
async function replaceRows<T>(
  tx: Queryable,
  table: 'user_email_addresses' | 'user_phone_numbers',
  userId: number,
  items: readonly T[],
  idOf: (item: T) => number | null,
  columns: readonly string[],
  valuesOf: (item: T) => unknown[],
): Promise<void> {
  const { rows } = await tx.query<{ id: number }>(`SELECT id FROM ${table} WHERE user_id = $1`, [userId]);
  const owned = new Set(rows.map((r) => r.id));
  const kept: number[] = [];
  const placeholders = columns.map((_, i) => `$${i + 3}`).join(', ');
  for (const [position, item] of items.entries()) {
    const id = idOf(item);
    const values = [userId, position, ...valuesOf(item)];
    // The same id listed twice is one row: the second is stored as a new one.
    if (id !== null && owned.has(id) && !kept.includes(id)) {
      await tx.query(`UPDATE ${table} SET (position, ${columns.join(', ')}) = ($2, ${placeholders}) WHERE id = $${values.length + 1} AND user_id = $1`, [...values, id]);
      kept.push(id);
    } else {
      const { rows: inserted } = await tx.query<{ id: number }>(
        `INSERT INTO ${table} (user_id, position, ${columns.join(', ')}) VALUES ($1, $2, ${placeholders}) RETURNING id`,
        values,
      );
      kept.push(inserted[0]!.id);
    }
  }
  await tx.query(`DELETE FROM ${table} WHERE user_id = $1 AND NOT (id = ANY($2::int[]))`, [userId, kept]);
}

export async function listEmails(db: Queryable, userId: number): Promise<UserEmailWire[]> {
  const { rows } = await db.query<UserEmailWire>('SELECT id, email, custom_type FROM user_email_addresses WHERE user_id = $1 ORDER BY position, id', [userId]);
  return rows;
}

/** Entries without a custom type get 'Custom'; ids ≤ 0 (the client's new rows) are new. */
export async function replaceEmails(tx: Queryable, userId: number, items: readonly UserEmailWire[]): Promise<void> {
  await replaceRows(tx, 'user_email_addresses', userId, items, (e) => (e.id !== null && e.id > 0 ? e.id : null), ['email', 'custom_type'], (e) => [
    e.email.trim(),
    e.custom_type?.trim() || PROFILE_EMAIL_DEFAULT_TYPE,
  ]);
}

/** Only the personal numbers are stored; the first one marked primary is the primary. */
export async function replacePhones(tx: Queryable, userId: number, items: readonly UserPhoneWire[]): Promise<void> {
  const personal = items.filter((p) => p.source === 'personal');
  const primary = personal.findIndex((p) => p.is_primary);
  await replaceRows(
    tx,
    'user_phone_numbers',
    userId,
    personal.map((p, i) => ({ ...p, is_primary: i === primary })),
    (p) => (p.source_id !== null && p.source_id > 0 ? p.source_id : null),
    ['number', 'extension', 'type', 'custom_type', 'is_primary', 'search_digits'],
    (p) => {
      const number = p.number?.trim() || null;
      const extension = p.extension?.trim() || null;
      const type = p.type ?? 'mobile';
      return [number, extension, type, type === 'custom' ? p.custom_type?.trim() || null : null, p.is_primary, digitsOnly(number ?? extension ?? '')];
    },
  );
}

const ADDRESS_COLUMNS = 'id AS address_id, user_id, street_1, street_2, apt_number, city, state, county, country, zip_code, zip_plus_four, phone';

/** The user's addresses; the one profile address is created (blank, in the USA) the first time. */
export async function listAddresses(db: Queryable, userId: number): Promise<UserAddressWire[]> {
  await db.query('INSERT INTO user_addresses (user_id, country) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING', [userId, PROFILE_ADDRESS_DEFAULT_COUNTRY]);
  const { rows } = await db.query<UserAddressWire>(`SELECT ${ADDRESS_COLUMNS} FROM user_addresses WHERE user_id = $1 ORDER BY id`, [userId]);
  return rows;
}

/** Replaces the address; null when the user has no address with that id. */
export async function updateAddress(tx: Queryable, userId: number, addressId: number, a: UserAddressInput): Promise<UserAddressWire | null> {
  const t = (s: string) => s.trim();
  const { rows } = await tx.query<UserAddressWire>(
    `UPDATE user_addresses SET street_1 = $3, street_2 = $4, apt_number = $5, city = $6, state = $7, county = $8, country = $9,
            zip_code = $10, zip_plus_four = $11, phone = CASE WHEN $12::boolean THEN $13 ELSE phone END, updated_at = now()
      WHERE id = $1 AND user_id = $2 RETURNING ${ADDRESS_COLUMNS}`,
    [
      addressId, userId, t(a.street_1), t(a.street_2), t(a.apt_number), t(a.city), a.state, t(a.county), a.country,
      t(a.zip_code), t(a.zip_plus_four), a.phone !== undefined, a.phone?.trim() || null,
    ],
  );
  return rows[0] ?? null;
}

/** Runs `fn` in a transaction after checking that `me` may change user `id`. */
export function withWritableUser<T>(db: Db, me: Viewer, id: number, fn: (tx: Queryable, user: UserRow) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => fn(tx, await writableUser(tx, me, id)));
}

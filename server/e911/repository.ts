import type { AvailabilityRegion, E911Address } from '../../src/wire/profileExtras';
import type { Queryable } from '../db/types';

/** The user's emergency address, or null when none is on file. */
export async function e911Of(db: Queryable, userId: number): Promise<E911Address | null> {
  const { rows } = await db.query<E911Address>(
    'SELECT street1, street2, city, zip_code, state, country, county FROM user_e911_addresses WHERE user_id = $1',
    [userId],
  );
  return rows[0] ?? null;
}

/** The user's organisation, or null when there is no such user. */
export async function organizationOf(db: Queryable, userId: number): Promise<number | null> {
  const { rows } = await db.query<{ organization_id: number }>('SELECT organization_id FROM users WHERE id = $1', [userId]);
  return rows[0]?.organization_id ?? null;
}

/** The organisation's regions (by display name), each with its network test server if it has one. */
export async function regionsOf(db: Queryable, organizationId: number, status?: AvailabilityRegion['status']): Promise<AvailabilityRegion[]> {
  const { rows } = await db.query<Omit<AvailabilityRegion, 'network_test_server'> & { nts_id: number | null; hostname: string | null; boot_lib_path: string | null }>(
    `SELECT r.id, r.name, r.description, r.display_name, r.status, n.id AS nts_id, n.hostname, n.boot_lib_path
       FROM availability_regions r LEFT JOIN network_test_servers n ON n.availability_region_id = r.id
      WHERE r.organization_id = $1 AND ($2::text IS NULL OR r.status = $2)
      ORDER BY r.display_name, r.id`,
    [organizationId, status ?? null],
  );
  return rows.map(({ nts_id, hostname, boot_lib_path, ...r }) => ({
    ...r,
    network_test_server: nts_id === null ? null : { id: nts_id, availability_region_id: r.id, hostname: hostname!, boot_lib_path: boot_lib_path! },
  }));
}

export async function regionIdOf(db: Queryable, userId: number): Promise<number | null> {
  const { rows } = await db.query<{ availability_region_id: number | null }>('SELECT availability_region_id FROM users WHERE id = $1', [userId]);
  return rows[0]?.availability_region_id ?? null;
}

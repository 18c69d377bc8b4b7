import type { Queryable } from './db/types';

/** Acme's regions, and one of Northwind's so organisations can be told apart. The first name per organisation is where its users are. */
const REGIONS = [
  { org: 'Acme Corp', name: 'us-east', display: 'US East', description: 'Ashburn, Virginia', status: 'active', host: 'nts-use.example.net' },
  { org: 'Acme Corp', name: 'us-west', display: 'US West', description: 'Hillsboro, Oregon', status: 'active', host: 'nts-usw.example.net' },
  { org: 'Acme Corp', name: 'eu-central', display: 'EU Central', description: 'Frankfurt, Germany', status: 'inactive', host: null },
  { org: 'Northwind Partners', name: 'ca-central', display: 'Canada Central', description: 'Montréal, Québec', status: 'active', host: 'nts-cac.example.net' },
] as const;

/** Some demo users have an emergency address on file; the others show that there is none. */
const E911 = [
  { username: 'olivia', street1: '500 Market Street', street2: 'Floor 4', city: 'Philadelphia', zip: '19106', state: 'PA', county: 'Philadelphia' },
  { username: 'alice', street1: '500 Market Street', street2: 'Floor 2', city: 'Philadelphia', zip: '19106', state: 'PA', county: 'Philadelphia' },
  { username: 'carol', street1: '12 Harbor Way', street2: '', city: 'Portland', zip: '97209', state: 'OR', county: 'Multnomah' },
  { username: 'greta.schmidt', street1: '500 Market Street', street2: 'Floor 3', city: 'Philadelphia', zip: '19106', state: 'PA', county: 'Philadelphia' },
  { username: 'rita', street1: '88 Rue Sainte-Catherine', street2: '', city: 'Montréal', zip: 'H2X 1K4', state: '', county: '', country: 'CAN' },
] as const;

/** Inserts the demo regions and E911 addresses; safe to run again (existing rows are kept). */
export async function seedDemoE911(tx: Queryable): Promise<void> {
  for (const r of REGIONS) {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO availability_regions (organization_id, name, description, display_name, status)
       SELECT id, $2, $3, $4, $5 FROM organizations WHERE name = $1
       ON CONFLICT (organization_id, name) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
      [r.org, r.name, r.description, r.display, r.status],
    );
    const id = rows[0]?.id;
    if (id !== undefined && r.host)
      await tx.query(
        `INSERT INTO network_test_servers (availability_region_id, hostname, boot_lib_path) VALUES ($1, $2, '/nts/boot.js') ON CONFLICT (availability_region_id) DO NOTHING`,
        [id, r.host],
      );
  }
  // Each organisation's users are served from its first region; carol from Acme's second.
  await tx.query(
    `UPDATE users u SET availability_region_id = r.id FROM availability_regions r, organizations o
      WHERE r.organization_id = u.organization_id AND o.id = r.organization_id AND u.availability_region_id IS NULL
        AND r.name = CASE WHEN lower(u.username) = 'carol' THEN 'us-west' WHEN o.name = 'Acme Corp' THEN 'us-east' ELSE 'ca-central' END`,
  );
  for (const a of E911)
    await tx.query(
      `INSERT INTO user_e911_addresses (user_id, street1, street2, city, zip_code, state, country, county)
       SELECT id, $2, $3, $4, $5, $6, $7, $8 FROM users WHERE lower(username) = $1 ON CONFLICT (user_id) DO NOTHING`,
      [a.username, a.street1, a.street2, a.city, a.zip, a.state, 'country' in a ? a.country : 'USA', a.county],
    );
}

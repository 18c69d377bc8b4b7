import { hashPassword } from './auth/passwords';
import type { Queryable } from './db/types';
import { DEMO_PASSWORD } from './seed';
import { insertUsers } from './users/create';

const address = (Street1: string, City: string, State: string, ZipCode: string, Street2 = '') => ({ Street1, Street2, City, State, ZipCode });

interface Company {
  org: number;
  customerId: string;
  phone: string;
  billing: ReturnType<typeof address>;
  shipping?: ReturnType<typeof address>;
  site?: ReturnType<typeof address>;
  active?: boolean;
}

async function addCompany(tx: Queryable, c: Company): Promise<void> {
  await tx.query(
    `INSERT INTO company_accounts (organization_id, customer_id, billing_phone, billing_address, shipping_address, site_address, active)
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb, $7)`,
    [c.org, c.customerId, c.phone, JSON.stringify(c.billing), JSON.stringify(c.shipping ?? c.billing), JSON.stringify(c.site ?? c.billing), c.active ?? true],
  );
}

async function addOrg(tx: Queryable, name: string, level: 'reseller' | 'customer', resellerId: number | null): Promise<number> {
  const { rows } = await tx.query<{ id: number }>('INSERT INTO organizations (name, level, reseller_id) VALUES ($1, $2, $3) RETURNING id', [name, level, resellerId]);
  return rows[0]!.id;
}

/**
 * The resellers' side of the demo (the onboarding wizard, issue 24): Northwind's company accounts
 * (Acme, a second active one and an inactive one), Acme confirmed as its services account and rita's
 * wizard finished; a second reseller, Harbor Telecom, whose administrator hana has not been through
 * the wizard, with one customer company of two users.
 */
export async function seedDemoResellers(tx: Queryable, org: { northwind: number; acme: number }): Promise<void> {
  const birch = await addOrg(tx, 'Birch Dental', 'customer', org.northwind);
  const mill = await addOrg(tx, 'Old Mill Bakery', 'customer', org.northwind);
  const harbor = await addOrg(tx, 'Harbor Telecom', 'reseller', null);
  const cove = await addOrg(tx, 'Cove Marine', 'customer', harbor);
  await addCompany(tx, {
    org: org.acme,
    customerId: 'ACME-10042',
    phone: '+14155550142',
    billing: address('500 Market Street', 'San Francisco', 'CA', '94105', 'Suite 1200'),
    shipping: address('77 Dock Road', 'Oakland', 'CA', '94607'),
  });
  await addCompany(tx, { org: birch, customerId: 'BIRCH-10077', phone: '+15035550177', billing: address('12 Alder Lane', 'Portland', 'OR', '97205') });
  await addCompany(tx, { org: mill, customerId: 'MILL-10013', phone: '+12065550113', billing: address('3 Mill Street', 'Seattle', 'WA', '98101'), active: false });
  await addCompany(tx, { org: cove, customerId: 'COVE-20001', phone: '+12075550101', billing: address('1 Harbor Way', 'Portland', 'ME', '04101') });
  await tx.query('INSERT INTO reseller_services_accounts (reseller_id, customer_org_id) VALUES ($1, $2)', [org.northwind, org.acme]);

  // Each its own salt, as every demo user has.
  const person = async (organizationId: number, username: string, first: string, last: string, extension: string, roleId: number, level: 'reseller' | 'customer', company: string, domain: string) => ({
    organizationId, username, passwordHash: await hashPassword(DEMO_PASSWORD), first, last, email: `${username}@${domain}`, extension, roleId, level, company, alias: null, enabled: true,
  });
  await insertUsers(tx, await Promise.all([
    person(harbor, 'hana', 'Hana', 'Sato', '3000', 2, 'reseller', 'Harbor Telecom', 'harbor.example'),
    person(cove, 'marco.reyes', 'Marco', 'Reyes', '3100', 1, 'customer', 'Cove Marine', 'cove.example'),
    person(cove, 'june.park', 'June', 'Park', '3101', 3, 'customer', 'Cove Marine', 'cove.example'),
  ]));
  // rita confirmed Acme herself (uc-services-account-confirmed) and finished her wizard.
  await tx.query(
    `INSERT INTO user_preferences (user_id, key, value) SELECT id, k, 'true'::jsonb FROM users, unnest(ARRAY['uc-services-account-wizard-dismissed', 'uc-services-account-confirmed']) AS k WHERE username = 'rita'`,
  );
}

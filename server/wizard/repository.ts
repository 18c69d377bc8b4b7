import type { Address, CompanyAccount, OrgUser, ServiceUser } from '../../src/wire/wizard';
import type { Queryable } from '../db/types';
import { NO_PASSWORD_HASH } from '../users/create';

/** The wizard's preference (the specification's key): the user finished or dismissed the wizard. */
export const WIZARD_DISMISSED_KEY = 'uc-services-account-wizard-dismissed';
/** The specification's key: this user confirmed the services account (the wizard then opens at step 2). */
export const CONFIRMED_KEY = 'uc-services-account-confirmed';
const IMPORT_LOCK_KEY = 7_312_024;

export interface ResellerSeat {
  /** The caller's organisation, when it is a reseller organisation and the caller a reseller-level user. */
  resellerId: number | null;
  roleId: number;
}

export async function resellerSeat(db: Queryable, userId: number): Promise<ResellerSeat> {
  const { rows } = await db.query<{ org_id: number; org_level: string; level: string; role_id: number }>(
    'SELECT o.id AS org_id, o.level AS org_level, u.level, u.role_id FROM users u JOIN organizations o ON o.id = u.organization_id WHERE u.id = $1',
    [userId],
  );
  const r = rows[0];
  return { resellerId: r && r.org_level === 'reseller' && r.level === 'reseller' ? r.org_id : null, roleId: r?.role_id ?? 0 };
}

/** The reseller an organisation belongs to: itself for a reseller organisation, its reseller for a customer one. */
export async function resellerOfOrganisation(db: Queryable, orgId: number): Promise<number | null> {
  const { rows } = await db.query<{ id: number; level: string; reseller_id: number | null }>('SELECT id, level, reseller_id FROM organizations WHERE id = $1', [orgId]);
  const o = rows[0];
  if (!o) return null;
  return o.level === 'reseller' ? o.id : o.reseller_id;
}

export async function wizardDismissed(db: Queryable, userId: number): Promise<boolean> {
  const { rows } = await db.query<{ value: unknown }>('SELECT value FROM user_preferences WHERE user_id = $1 AND key = $2', [userId, WIZARD_DISMISSED_KEY]);
  return rows[0]?.value === true;
}

export async function dismissWizard(db: Queryable, userId: number): Promise<void> {
  await db.query(
    `INSERT INTO user_preferences (user_id, key, value) VALUES ($1, $2, 'true'::jsonb)
     ON CONFLICT (user_id, key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [userId, WIZARD_DISMISSED_KEY],
  );
}

interface CompanyRow {
  organization_id: number;
  customer_id: string;
  name: string;
  billing_phone: string;
  billing_address: Partial<Address>;
  shipping_address: Partial<Address>;
  site_address: Partial<Address>;
  active: boolean;
}
const addressOf = (a: Partial<Address>): Address => ({ Street1: a.Street1 ?? '', Street2: a.Street2 ?? '', City: a.City ?? '', State: a.State ?? '', ZipCode: a.ZipCode ?? '' });
const toCompany = (r: CompanyRow): CompanyAccount => ({
  customerId: r.customer_id,
  companyName: r.name,
  billingPhone: r.billing_phone,
  organizationId: r.organization_id,
  active: r.active,
  billingAddress: addressOf(r.billing_address),
  shippingAddress: addressOf(r.shipping_address),
  siteAddress: addressOf(r.site_address),
});
const COMPANY_SELECT = `SELECT c.organization_id, c.customer_id, o.name, c.billing_phone, c.billing_address, c.shipping_address, c.site_address, c.active
  FROM company_accounts c JOIN organizations o ON o.id = c.organization_id`;

/** The reseller's customer companies, by name. */
export async function companiesOf(db: Queryable, resellerId: number, activeOnly: boolean): Promise<CompanyAccount[]> {
  const { rows } = await db.query<CompanyRow>(`${COMPANY_SELECT} WHERE o.reseller_id = $1 AND ($2::boolean = false OR c.active) ORDER BY o.name, c.customer_id`, [resellerId, activeOnly]);
  return rows.map(toCompany);
}

export async function companyByCustomerId(db: Queryable, customerId: string): Promise<(CompanyAccount & { resellerId: number | null }) | null> {
  const { rows } = await db.query<CompanyRow & { reseller_id: number | null }>(`${COMPANY_SELECT.replace('c.active', 'c.active, o.reseller_id')} WHERE c.customer_id = $1`, [customerId]);
  return rows[0] ? { ...toCompany(rows[0]), resellerId: rows[0].reseller_id } : null;
}

/** The services account the reseller confirmed: its company's organisation and customer id. */
export async function servicesAccountOf(db: Queryable, resellerId: number): Promise<{ orgId: number; customerId: string } | null> {
  const { rows } = await db.query<{ org_id: number; customer_id: string }>(
    'SELECT s.customer_org_id AS org_id, c.customer_id FROM reseller_services_accounts s JOIN company_accounts c ON c.organization_id = s.customer_org_id WHERE s.reseller_id = $1',
    [resellerId],
  );
  return rows[0] ? { orgId: rows[0].org_id, customerId: rows[0].customer_id } : null;
}

/** Whether this user confirmed the services account (uc-services-account-confirmed is true). */
export async function userConfirmed(db: Queryable, userId: number): Promise<boolean> {
  const { rows } = await db.query<{ value: unknown }>('SELECT value FROM user_preferences WHERE user_id = $1 AND key = $2', [userId, CONFIRMED_KEY]);
  return rows[0]?.value === true;
}

/**
 * The wizard's company step: the reseller's services account becomes the company, and the user who
 * confirmed it has uc-services-account-confirmed. When the company changes, the colleagues'
 * confirmations were of another company: theirs go, so their wizard asks them again.
 */
export async function confirmServicesAccount(tx: Queryable, resellerId: number, customerOrgId: number, userId: number): Promise<void> {
  const { rows } = await tx.query<{ customer_org_id: number }>('SELECT customer_org_id FROM reseller_services_accounts WHERE reseller_id = $1 FOR UPDATE', [resellerId]);
  await tx.query(
    `INSERT INTO reseller_services_accounts (reseller_id, customer_org_id) VALUES ($1, $2)
     ON CONFLICT (reseller_id) DO UPDATE SET customer_org_id = EXCLUDED.customer_org_id, confirmed_at = now()`,
    [resellerId, customerOrgId],
  );
  if (rows[0] && rows[0].customer_org_id !== customerOrgId) {
    await tx.query(`DELETE FROM user_preferences WHERE key = $2 AND user_id IN (SELECT id FROM users WHERE organization_id = $1)`, [resellerId, CONFIRMED_KEY]);
  }
  await tx.query(
    `INSERT INTO user_preferences (user_id, key, value) VALUES ($1, $2, 'true'::jsonb)
     ON CONFLICT (user_id, key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [userId, CONFIRMED_KEY],
  );
}

/** Whether some user of the organisation is mapped to a services (customer) user. */
export async function hasServiceUser(db: Queryable, orgId: number): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM users WHERE organization_id = $1 AND service_user_id IS NOT NULL LIMIT 1', [orgId]);
  return rows.length > 0;
}

export async function orgUsers(db: Queryable, orgId: number): Promise<OrgUser[]> {
  const { rows } = await db.query<{ username: string; first_name: string; last_name: string; enabled: boolean; extension: string | null; service_user_id: number | null; has_password: boolean }>(
    'SELECT username, first_name, last_name, enabled, extension, service_user_id, password_hash <> $2 AS has_password FROM users WHERE organization_id = $1 ORDER BY lower(username)',
    [orgId, NO_PASSWORD_HASH],
  );
  return rows.map((r) => ({ Username: r.username, FirstName: r.first_name, LastName: r.last_name, Enabled: r.enabled ? 'Yes' : 'No', Extension: r.extension, _service_user_id: r.service_user_id, HasPassword: r.has_password }));
}

export async function serviceUsersOf(db: Queryable, companyOrgId: number): Promise<ServiceUser[]> {
  const { rows } = await db.query<ServiceUser>(
    `SELECT id, username, trim(first_name || ' ' || last_name) AS name FROM users WHERE organization_id = $1 ORDER BY last_name, first_name, id`,
    [companyOrgId],
  );
  return rows;
}

/** Saves the mapping; returns the usernames that are not users of the organisation (nothing is saved then). */
export async function saveServiceUserMapping(tx: Queryable, orgId: number, mapping: ReadonlyArray<{ username: string; serviceUserId: number | null }>): Promise<string[]> {
  const { rows } = await tx.query<{ username: string }>(
    `UPDATE users u SET service_user_id = m.sid
       FROM unnest($2::text[], $3::int[]) AS m(username, sid)
      WHERE u.organization_id = $1 AND lower(u.username) = lower(m.username)
      RETURNING u.username`,
    [orgId, mapping.map((m) => m.username), mapping.map((m) => m.serviceUserId)],
  );
  const found = new Set(rows.map((r) => r.username.toLowerCase()));
  return mapping.filter((m) => !found.has(m.username.toLowerCase())).map((m) => m.username);
}

/** One import at a time: the taken names and free extensions it reads stay true until it commits. */
export async function lockImports(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK_KEY]);
}

export async function takenUsernames(tx: Queryable, usernames: readonly string[]): Promise<Set<string>> {
  const { rows } = await tx.query<{ u: string }>('SELECT lower(username) AS u FROM users WHERE lower(username) = ANY($1::text[])', [usernames.map((u) => u.toLowerCase())]);
  return new Set(rows.map((r) => r.u));
}

/** Extensions are dialled across organisations (Kamailio routes by extension alone), so every one in use counts. */
export async function extensionsInUse(tx: Queryable): Promise<Set<number>> {
  const { rows } = await tx.query<{ extension: string }>(`SELECT extension FROM users WHERE extension ~ '^[0-9]{1,5}$'`);
  return new Set(rows.map((r) => Number(r.extension)));
}

export async function highestExtension(tx: Queryable, orgId: number): Promise<number | null> {
  const { rows } = await tx.query<{ n: number | null }>(`SELECT max(extension::int)::int AS n FROM users WHERE organization_id = $1 AND extension ~ '^[0-9]{1,5}$'`, [orgId]);
  return rows[0]?.n ?? null;
}

export async function organisationName(db: Queryable, orgId: number): Promise<string> {
  const { rows } = await db.query<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [orgId]);
  return rows[0]?.name ?? '';
}

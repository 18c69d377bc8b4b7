import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import { IdParam } from '../../src/wire/common';
import { canEditUsers } from '../../src/wire/roles';
import {
  CSV_MAX_BYTES,
  OrgUserMapping,
  ServicesAccountInput,
  startStep,
  type CompanyAccount,
  type ImportReport,
  type OrgUser,
  type ServiceUser,
  type WizardState,
} from '../../src/wire/wizard';
import { PASSWORD_SETUP_TTL_SECONDS, type PasswordSetupIssued } from '../../src/wire/passwordSetup';
import type { Viewer } from '../auth/viewer';
import { issueSetupToken, setupCandidate } from '../users/password-setup';
import type { RouteContext } from '../context';
import type { Db } from '../db/types';
import { ApiError, forbidden, notFound, parseOrThrow } from '../errors';
import { readUpload } from '../media/upload';
import { usersCsv } from './csv';
import { importUsers } from './import';
import {
  companiesOf,
  companyByCustomerId,
  confirmServicesAccount,
  dismissWizard,
  hasServiceUser,
  orgUsers,
  resellerOfOrganisation,
  resellerSeat,
  saveServiceUserMapping,
  servicesAccountOf,
  serviceUsersOf,
  userConfirmed,
  wizardDismissed,
} from './repository';

const NOT_A_RESELLER = 'The onboarding wizard is for the administrators of reseller organisations';
const OrgPath = z.object({ orgId: IdParam.shape.id });
const OrgUserPath = z.object({ orgId: IdParam.shape.id, username: z.string().check(z.minLength(1), z.maxLength(64)) });
const CompaniesQuery = z.object({ activeOnly: z.optional(z.enum(['true', 'false'])) });

/** The caller's reseller organisation, if they administer one (reseller level, account owner or administrator). */
async function resellerIdOf(db: Db, me: Viewer): Promise<number | null> {
  const seat = await resellerSeat(db, me.userId);
  return seat.resellerId !== null && canEditUsers(seat.roleId) ? seat.resellerId : null;
}

async function wizardState(db: Db, me: Viewer): Promise<WizardState> {
  const resellerId = await resellerIdOf(db, me);
  if (resellerId === null) return { active: false, completed: false, step: 0, resellerId: null, customerId: null, confirmed: false, hasServiceUser: false };
  const [account, mapped, completed, mine] = await Promise.all([servicesAccountOf(db, resellerId), hasServiceUser(db, resellerId), wizardDismissed(db, me.userId), userConfirmed(db, me.userId)]);
  // Confirmed: a services account is configured and this user confirmed it (uc-services-account-confirmed).
  const facts = { confirmed: account !== null && mine, hasServiceUser: mapped };
  return { active: true, completed, step: startStep(facts), resellerId, customerId: account?.customerId ?? null, ...facts };
}

/**
 * The onboarding wizard and its organisation calls (issue 24): `GET /v1/wizard`,
 * `POST /v1/wizard/complete`, `GET /v1/resellers/{id}/companies?activeOnly=true`,
 * `PUT /v1/resellers/{id}/services-account`, `GET /v1/resellers/{id}/services-account/users`,
 * `GET|PATCH|PUT /v1/organizations/{orgId}/users` and `GET /v1/organizations/{orgId}/users/csv`.
 * Only a reseller's administrators, and only for their reseller and its customer organisations.
 */
export function registerWizardRoutes(app: FastifyInstance, { db, requireViewer }: RouteContext): void {
  /** `/v1/resellers/{id}/…`: the caller's own reseller organisation. */
  async function ownReseller(request: FastifyRequest): Promise<number> {
    const me = await requireViewer(request);
    const { id } = parseOrThrow(IdParam, request.params, 'reseller id');
    const resellerId = await resellerIdOf(db, me);
    if (resellerId === null) throw forbidden(NOT_A_RESELLER);
    if (id !== resellerId) throw forbidden('This is another reseller');
    return resellerId;
  }

  /** `/v1/organizations/{orgId}/…`: the caller's reseller organisation or one of its customers. */
  async function ownOrganisation(request: FastifyRequest): Promise<number> {
    const me = await requireViewer(request);
    const { orgId } = parseOrThrow(OrgPath, request.params, 'organisation id');
    const resellerId = await resellerIdOf(db, me);
    if (resellerId === null) throw forbidden(NOT_A_RESELLER);
    const owner = await resellerOfOrganisation(db, orgId);
    if (owner === null) throw notFound('No such organisation');
    if (owner !== resellerId) throw forbidden("This organisation is another reseller's");
    return orgId;
  }

  app.get('/v1/wizard', async (request): Promise<WizardState> => wizardState(db, await requireViewer(request)));

  app.post('/v1/wizard/complete', async (request): Promise<WizardState> => {
    const me = await requireViewer(request);
    if ((await resellerIdOf(db, me)) === null) throw forbidden(NOT_A_RESELLER);
    await dismissWizard(db, me.userId);
    return wizardState(db, me);
  });

  app.get('/v1/resellers/:id/companies', async (request): Promise<{ items: CompanyAccount[] }> => {
    const resellerId = await ownReseller(request);
    const { activeOnly } = parseOrThrow(CompaniesQuery, request.query, 'query');
    return { items: await companiesOf(db, resellerId, activeOnly === 'true') };
  });

  app.put('/v1/resellers/:id/services-account', async (request): Promise<WizardState> => {
    const resellerId = await ownReseller(request);
    const { customer_id } = parseOrThrow(ServicesAccountInput, request.body, 'services account');
    const company = await companyByCustomerId(db, customer_id);
    // Another reseller's customer is not told apart from one that does not exist.
    if (!company || company.resellerId !== resellerId) throw new ApiError(400, 'unknown_customer', `No company with customer id ${customer_id} among your customers`, [{ path: 'customer_id', message: 'Unknown customer' }]);
    if (!company.active) throw new ApiError(400, 'customer_inactive', `${company.companyName} is not an active customer`, [{ path: 'customer_id', message: 'Inactive customer' }]);
    const me = await requireViewer(request);
    await db.transaction((tx) => confirmServicesAccount(tx, resellerId, company.organizationId, me.userId));
    return wizardState(db, me);
  });

  app.get('/v1/resellers/:id/services-account/users', async (request): Promise<{ items: ServiceUser[] }> => {
    const account = await servicesAccountOf(db, await ownReseller(request));
    return { items: account ? await serviceUsersOf(db, account.orgId) : [] };
  });

  app.get('/v1/organizations/:orgId/users', async (request): Promise<{ items: OrgUser[] }> => ({ items: await orgUsers(db, await ownOrganisation(request)) }));

  app.get('/v1/organizations/:orgId/users/csv', async (request, reply) => {
    const orgId = await ownOrganisation(request);
    reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="organisation-${orgId}-users.csv"`);
    return usersCsv(await orgUsers(db, orgId));
  });

  /** The configure-users save: Username and _service_user_id per row; a services user is one of the confirmed company's. */
  app.put('/v1/organizations/:orgId/users', async (request): Promise<{ items: OrgUser[] }> => {
    const orgId = await ownOrganisation(request);
    const body = parseOrThrow(OrgUserMapping, request.body, 'user mapping');
    const resellerId = (await resellerOfOrganisation(db, orgId))!;
    const account = await servicesAccountOf(db, resellerId);
    const wanted = body.filter((m) => m._service_user_id !== null);
    if (wanted.length && !account) throw new ApiError(409, 'no_services_account', 'Choose the company (services account) first');
    const allowed = new Set(account ? (await serviceUsersOf(db, account.orgId)).map((u) => u.id) : []);
    const details = wanted.filter((m) => !allowed.has(m._service_user_id!)).map((m) => ({ path: m.Username, message: 'Not a user of the services account' }));
    const used = new Map<number, string>();
    for (const m of wanted) {
      const other = used.get(m._service_user_id!);
      if (other) details.push({ path: m.Username, message: `Already mapped to ${other}` });
      used.set(m._service_user_id!, m.Username);
    }
    if (details.length) throw new ApiError(400, 'invalid_mapping', 'Some users cannot be mapped so', details);
    await db.transaction(async (tx) => {
      const missing = await saveServiceUserMapping(tx, orgId, body.map((m) => ({ username: m.Username, serviceUserId: m._service_user_id })));
      // Nothing half-saved: an unknown username rolls the whole save back.
      if (missing.length) throw new ApiError(400, 'unknown_users', `Not users of this organisation: ${missing.slice(0, 5).join(', ')}`, missing.map((u) => ({ path: u, message: 'Unknown user' })));
    });
    return { items: await orgUsers(db, orgId) };
  });

  /**
   * A one-time "set your password" link for a user who has none (imported without a Password): the
   * administrator hands it on; the user chooses a password on the set-password page and is signed in.
   * Issued by the reseller's administrators (the wizard's rights) and by the organisation's own
   * account owners and administrators (the roles that edit its users).
   */
  app.post('/v1/organizations/:orgId/users/:username/password-setup', async (request, reply): Promise<PasswordSetupIssued> => {
    const me = await requireViewer(request);
    const { orgId, username } = parseOrThrow(OrgUserPath, request.params, 'user');
    // The organisation's own owners and administrators (who edit its users), or its reseller's.
    if (!(canEditUsers(me.roleId) && me.organizationId === orgId)) await ownOrganisation(request);
    const user = await setupCandidate(db, orgId, username);
    if (!user) throw notFound(`${username} is not a user of this organisation`);
    if (!user.enabled) throw new ApiError(409, 'user_disabled', `${user.username} is disabled (Enabled = No) and cannot sign in`);
    if (user.hasPassword) throw new ApiError(409, 'has_password', `${user.username} already has a password; they change it in Preferences ▸ Password`);
    const issued = await db.transaction((tx) => issueSetupToken(tx, user.id, me.userId, PASSWORD_SETUP_TTL_SECONDS));
    reply.code(201).header('cache-control', 'no-store');
    return { username: user.username, token: issued.token, expires_at: issued.expiresAt };
  });

  // The bulk import: multipart only in this scope, one CSV file in the field "file".
  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: CSV_MAX_BYTES, files: 1, fields: 2 } });
    scope.patch('/v1/organizations/:orgId/users', async (request): Promise<ImportReport> => {
      const orgId = await ownOrganisation(request);
      if (!request.isMultipart()) throw new ApiError(415, 'unsupported_media_type', 'Send the CSV file as multipart/form-data in the field "file"');
      const upload = await readUpload(request, () => new ApiError(413, 'csv_too_large', `The file is larger than ${CSV_MAX_BYTES} bytes`));
      if (!upload || upload.file.fieldname !== 'file') throw new ApiError(400, 'file_required', 'A CSV file in the field "file" is required');
      if (!/\.csv$/i.test(upload.file.filename)) throw new ApiError(415, 'not_csv', 'Only .csv files can be imported');
      const text = new TextDecoder('utf-8', { fatal: false }).decode(upload.bytes);
      if (text.includes('\u0000')) throw new ApiError(415, 'not_csv', 'The file is not text');
      return importUsers(db, orgId, text);
    });
  });
}

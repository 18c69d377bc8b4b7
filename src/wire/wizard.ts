import * as z from 'zod/mini';

/**
 * The onboarding wizard of reseller partner administrators (`/configuration`): the shapes of its
 * calls, shared by the server and the `wizard` plugin, and its step rules.
 */

export { LAST_STEP, moveStep, startStep, WIZARD_COMPLETED_COOKIE, WIZARD_COMPLETED_COOKIE_SECONDS, WIZARD_STEPS, type WizardStepName } from './wizardSteps';

export const Address = z.object({ Street1: z.string(), Street2: z.string(), City: z.string(), State: z.string(), ZipCode: z.string() });
export type Address = z.infer<typeof Address>;

/** A company (customer) account the reseller serves, as `GET /v1/resellers/{id}/companies` lists it. */
export const CompanyAccount = z.object({
  customerId: z.string(),
  companyName: z.string(),
  billingPhone: z.string(),
  organizationId: z.int(),
  active: z.boolean(),
  billingAddress: Address,
  shippingAddress: Address,
  siteAddress: Address,
});
export type CompanyAccount = z.infer<typeof CompanyAccount>;
export const CompanyList = z.object({ items: z.array(CompanyAccount) });

/** `GET /v1/wizard`: whether the caller has the wizard to go through, and where it starts. */
export const WizardState = z.object({
  /** The caller is a reseller-level user of a reseller organisation (the wizard is theirs). */
  active: z.boolean(),
  /** The caller finished (or dismissed) it: the preference uc-services-account-wizard-dismissed. */
  completed: z.boolean(),
  /** Where it opens (startStep). */
  step: z.int(),
  /** The reseller organisation (`/v1/resellers/{id}/…`, `/v1/organizations/{orgId}/users`); null when not active. */
  resellerId: z.nullable(z.int()),
  /** The services account's customer id, once one is configured. */
  customerId: z.nullable(z.string()),
  confirmed: z.boolean(),
  hasServiceUser: z.boolean(),
});
export type WizardState = z.infer<typeof WizardState>;

export const ServicesAccountInput = z.object({ customer_id: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)) });

export const ENABLED = ['Yes', 'No'] as const;
/** An organisation user (the CSV's columns and the configure-users step's rows). */
export const OrgUser = z.object({
  Username: z.string(),
  FirstName: z.string(),
  LastName: z.string(),
  Enabled: z.enum(ENABLED),
  Extension: z.nullable(z.string()),
  _service_user_id: z.nullable(z.int()),
  /** False for a user imported without a Password: they sign in once given a set-password link. Not a CSV column. */
  HasPassword: z.boolean(),
});
export type OrgUser = z.infer<typeof OrgUser>;
export const OrgUserList = z.object({ items: z.array(OrgUser) });

/** The configure-users save: an array of Username and _service_user_id (null unmaps). */
export const OrgUserMapping = z.array(z.object({ Username: z.string().check(z.minLength(1), z.maxLength(64)), _service_user_id: z.nullable(z.int()) })).check(z.maxLength(10_000));
export type OrgUserMapping = z.infer<typeof OrgUserMapping>;

/** A user of the services account's company, to map an organisation user to. */
export const ServiceUser = z.object({ id: z.int(), username: z.string(), name: z.string() });
export type ServiceUser = z.infer<typeof ServiceUser>;
export const ServiceUserList = z.object({ items: z.array(ServiceUser) });

/** The columns a bulk import needs (Password and Email may follow). */
export const CSV_REQUIRED_COLUMNS = ['Username', 'FirstName', 'LastName', 'Enabled'] as const;
export const CSV_MAX_ROWS = 10_000;
export const CSV_MAX_BYTES = 4 * 1024 * 1024;

/** Why a row was refused: a code the client translates, and the server's English words. */
export const ROW_REFUSALS = ['usernameMissing', 'usernameInvalid', 'firstNameMissing', 'lastNameMissing', 'nameTooLong', 'enabledInvalid', 'emailInvalid', 'passwordWeak', 'duplicateInFile', 'usernameTaken', 'noFreeExtension'] as const;
export type RowRefusal = (typeof ROW_REFUSALS)[number];

/** `PATCH /v1/organizations/{orgId}/users`: every data row, accepted (created) or refused with its reasons. */
export const ImportReport = z.object({
  total: z.int(),
  accepted: z.array(z.object({ line: z.int(), Username: z.string(), Extension: z.string() })),
  refused: z.array(z.object({ line: z.int(), Username: z.string(), reasons: z.array(z.enum(ROW_REFUSALS)), messages: z.array(z.string()) })),
});
export type ImportReport = z.infer<typeof ImportReport>;

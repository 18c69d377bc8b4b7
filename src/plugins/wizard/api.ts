import { Api, ApiError, type ServiceLookup } from '../../kernel';
import { PasswordSetupIssued, passwordSetupUrl } from '../../wire/passwordSetup';
import { CompanyList, ImportReport, OrgUserList, ServiceUserList, WizardState } from '../../wire/wizard';
import { log } from './log';
import { UPLOAD, wizardState } from './state';

const reseller = () => wizardState.info?.resellerId ?? null;

/** `GET /v1/wizard` again (after a save changed where it starts). */
export async function loadInfo(s: ServiceLookup): Promise<void> {
  try {
    wizardState.info = await s.get(Api).get('/v1/wizard', undefined, WizardState);
  } catch (err) {
    log.error('wizard state failed', err);
  }
}

export async function loadCompanies(s: ServiceLookup): Promise<void> {
  const id = reseller();
  if (id === null) return;
  try {
    wizardState.companies = (await s.get(Api).get(`/v1/resellers/${id}/companies`, { activeOnly: true }, CompanyList)).items;
    wizardState.companiesFailed = false;
  } catch (err) {
    log.error('companies failed', err);
    wizardState.companiesFailed = true;
  }
}

/** `PUT /v1/resellers/{id}/services-account`; true when confirmed. */
export async function confirmCompany(s: ServiceLookup, customerId: string): Promise<boolean> {
  const id = reseller();
  if (id === null) return false;
  wizardState.saving = true;
  try {
    wizardState.info = await s.get(Api).put(`/v1/resellers/${id}/services-account`, { customer_id: customerId }, WizardState);
    wizardState.changing = false;
    return true;
  } catch (err) {
    log.error('services account failed', err);
    return false;
  } finally {
    wizardState.saving = false;
  }
}

/** `PATCH /v1/organizations/{orgId}/users` with the chosen file; the report is kept, the error state says why it failed. */
export async function uploadUsers(s: ServiceLookup): Promise<boolean> {
  const id = reseller();
  const up = wizardState.upload;
  if (id === null || !up.file) return false;
  Object.assign(up, { status: UPLOAD.UPLOADING, progress: 0, errorKey: null, errorValues: {}, report: null });
  const form = new FormData();
  form.append('file', up.file, up.file.name);
  try {
    up.report = await s.get(Api).upload('PATCH', `/v1/organizations/${id}/users`, form, (f) => (up.progress = f), ImportReport);
    up.progress = 1;
    up.status = UPLOAD.IDLE;
    up.file = null;
    wizardState.users = null;
    return true;
  } catch (err) {
    log.error('upload failed', err);
    up.status = UPLOAD.ERROR;
    if (err instanceof ApiError && err.status < 500) Object.assign(up, { errorKey: 'upload.refused', errorValues: { message: err.body.message } });
    else up.errorKey = 'upload.failed';
    return false;
  }
}

/** The organisation's users and the services account's users, for the configure-users step. */
export async function loadUsers(s: ServiceLookup): Promise<void> {
  const id = reseller();
  if (id === null) return;
  try {
    const [users, services] = await Promise.all([
      s.get(Api).get(`/v1/organizations/${id}/users`, undefined, OrgUserList),
      s.get(Api).get(`/v1/resellers/${id}/services-account/users`, undefined, ServiceUserList),
    ]);
    wizardState.users = users.items;
    wizardState.serviceUsers = services.items;
    wizardState.mapping = Object.fromEntries(users.items.map((u) => [u.Username, u._service_user_id]));
    wizardState.usersErrorKey = null;
  } catch (err) {
    log.error('users failed', err);
    wizardState.usersErrorKey = 'users.loadFailed';
  }
}

/** The configure-users save: Username and _service_user_id of every row whose choice changed. */
export async function saveMapping(s: ServiceLookup): Promise<boolean> {
  const id = reseller();
  const users = wizardState.users;
  if (id === null) return false;
  // Not loaded (yet, or it failed): nothing was changed, so nothing to save.
  if (!users) return true;
  const changed = users.filter((u) => (wizardState.mapping[u.Username] ?? null) !== u._service_user_id).map((u) => ({ Username: u.Username, _service_user_id: wizardState.mapping[u.Username] ?? null }));
  if (!changed.length) return true;
  wizardState.saving = true;
  try {
    wizardState.users = (await s.get(Api).put(`/v1/organizations/${id}/users`, changed, OrgUserList)).items;
    wizardState.usersErrorKey = null;
    return true;
  } catch (err) {
    log.error('mapping failed', err);
    wizardState.usersErrorKey = err instanceof ApiError && err.status < 500 ? 'users.refused' : 'users.saveFailed';
    return false;
  } finally {
    wizardState.saving = false;
  }
}

/**
 * A one-time set-password link for a user without a password: kept for the dialog that shows it.
 * The link is this page's origin, where the user's browser reaches the same server.
 */
export async function issuePasswordLink(s: ServiceLookup, username: string, origin = location.origin): Promise<boolean> {
  const id = reseller();
  if (id === null) return false;
  Object.assign(wizardState, { linkFor: username, linkErrorKey: null, linkErrorValues: {}, link: null });
  try {
    const issued = await s.get(Api).post(`/v1/organizations/${id}/users/${encodeURIComponent(username)}/password-setup`, undefined, PasswordSetupIssued);
    wizardState.link = { username: issued.username, url: passwordSetupUrl(origin, issued.token), expiresAt: issued.expires_at };
    return true;
  } catch (err) {
    log.error('set-password link failed', err);
    if (err instanceof ApiError && err.status < 500) Object.assign(wizardState, { linkErrorKey: 'link.refused', linkErrorValues: { message: err.body.message } });
    else wizardState.linkErrorKey = 'link.failed';
    return false;
  } finally {
    wizardState.linkFor = null;
  }
}

/** The organisation's users as a CSV file, saved by the browser. */
export async function downloadCsv(s: ServiceLookup): Promise<void> {
  const id = reseller();
  if (id === null) return;
  try {
    const res = await s.get(Api).raw('GET', `/v1/organizations/${id}/users/csv`);
    const url = URL.createObjectURL(await res.blob());
    const a = Object.assign(document.createElement('a'), { href: url, download: 'organisation-users.csv' });
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } catch (err) {
    log.error('csv download failed', err);
  }
}

/** `POST /v1/wizard/complete`. */
export async function complete(s: ServiceLookup): Promise<boolean> {
  try {
    wizardState.info = await s.get(Api).post('/v1/wizard/complete', undefined, WizardState);
    return true;
  } catch (err) {
    log.error('complete failed', err);
    return false;
  }
}

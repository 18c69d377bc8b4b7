/** The plugin's server calls (but the directory's, which boot needs: directory.ts), with the cache and directory updates that follow them. */
import { Api, Dialogs, Notifications, Preferences, Session, type ServiceLookup, ApiError, type ApiClient } from '../../kernel';
import { contactQueries } from './queryCache';
import {
  AvatarResponse,
  ContactIntegrationsWire,
  ContactPageWire,
  ContactWire,
  UserAddressListWire,
  UserAddressWire,
  UserEmailListWire,
  UserPhoneListWire,
  type ContactGroup,
  type ContactInput,
} from '../../wire/contacts';
import { Profile } from '../../wire/profile';
import { directory, entryFromContact } from './directory';
import type { ProfileBundle, ProfileSavePlan, ProfileStep } from './profileModel';
import { contactsState } from './state';
import { log } from './log';

export const DELETE_CONFIRM_PREF = 'contact-delete-confirm-modal' as const;

/** Query keys, all prefixed with the plugin id so `['contacts']` invalidates everything. */
export const contactKeys = {
  all: ['contacts'] as const,
  detail: (id: string) => ['contacts', 'detail', id] as const,
  integrations: ['contacts', 'integrations'] as const,
  avatar: (href: string) => ['contacts', 'avatar', href] as const,
  /** A user's profile as the profile form edits it (the profile calls, not the contact). */
  profile: (userId: number) => ['contacts', 'profile', userId] as const,
};

type Getter = Pick<ApiClient, 'get'>;

export const fetchContact = (api: Getter, id: string, signal?: AbortSignal) => api.get(`/v1/contacts/${id}`, undefined, ContactWire, signal);

/** A page of a group, searched by the server: what the list shows while the directory is on its way. */
export const fetchContactPage = (api: Getter, query: { group: ContactGroup; search?: string; limit: number }, signal?: AbortSignal) =>
  api.get('/v1/contacts', query, ContactPageWire, signal);

export const fetchIntegrations = (api: Getter, signal?: AbortSignal) => api.get('/v1/contact-integrations', undefined, ContactIntegrationsWire, signal);

/** A contact's photo as an object URL (the caller revokes it). */
export const fetchAvatarUrl = async (api: Pick<ApiClient, 'raw'>, href: string) => URL.createObjectURL(await (await api.raw('GET', href)).blob());

function patchCached(services: ServiceLookup, id: string, change: Partial<ContactWire>): void {
  contactQueries(services).setQueryData<ContactWire>(contactKeys.detail(id), (c) => (c ? { ...c, ...change } : c));
  if (contactsState.selected?.id === id) contactsState.selected = { ...contactsState.selected, ...change };
}

const byName = (a: { name: string }, b: { name: string }) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0);

/** Keeps the directory row in step with a saved contact (and the list A–Z when the name changed). */
export function syncDirectory(services: ServiceLookup, c: ContactWire): void {
  const entry = entryFromContact(c);
  const previous = directory.get(c.id);
  if (previous && previous.name === entry.name) directory.patch(c.id, entry);
  else if (directory.entries) {
    const rows = [...directory.entries.filter((e) => e.id !== c.id), entry].sort(byName);
    directory.set(rows);
  }
  contactQueries(services).setQueryData(contactKeys.detail(c.id), c);
}

/** Favourite toggles optimistically and reverts when the server refuses. */
export async function toggleFavorite(services: ServiceLookup, id: string): Promise<void> {
  const current = contactsState.selected?.id === id ? contactsState.selected.favorite : (directory.get(id)?.favorite ?? false);
  const next = !current;
  directory.patch(id, { favorite: next });
  patchCached(services, id, { favorite: next });
  try {
    await services.get(Api).put(`/v1/contacts/${id}/favorite`, { favorite: next }, ContactWire);
  } catch (err) {
    directory.patch(id, { favorite: current });
    patchCached(services, id, { favorite: current });
    services.get(Notifications).toast({ tone: 'error', titleKey: 'contacts:errors.favoriteTitle', messageKey: 'contacts:errors.tryAgain' });
    log.error('favourite failed', err);
  }
}

/** Immediate when the do-not-ask preference is saved; otherwise a confirmation with "remember". */
export async function deleteContacts(services: ServiceLookup, ids: readonly string[]): Promise<boolean> {
  if (!ids.length) return false;
  const prefs = services.get(Preferences);
  const skip = await prefs.get<boolean>(DELETE_CONFIRM_PREF).catch(() => false);
  if (skip !== true) {
    const name = ids.length === 1 ? (directory.get(ids[0]!)?.name ?? '') : '';
    const answer = await services.get(Dialogs).confirm({
      titleKey: 'contacts:delete.title',
      messageKey: ids.length === 1 ? 'contacts:delete.messageOne' : 'contacts:delete.messageMany',
      values: { count: ids.length, name },
      confirmLabelKey: 'contacts:delete.confirm',
      cancelLabelKey: 'contacts:delete.cancel',
      tone: 'danger',
      rememberLabelKey: 'contacts:delete.remember',
    });
    if (!answer.confirmed) return false;
    if (answer.remember) await prefs.set(DELETE_CONFIRM_PREF, true).catch((err: unknown) => log.error('saving the preference failed', err));
  }
  const api = services.get(Api);
  const done: string[] = [];
  let failed = 0;
  for (const id of ids) {
    try {
      await api.delete(`/v1/contacts/${id}`);
      done.push(id);
    } catch (err) {
      // Already gone counts as deleted.
      if (err instanceof ApiError && err.status === 404) done.push(id);
      else failed++;
    }
  }
  directory.remove(done);
  contactsState.checked = contactsState.checked.filter((id) => !done.includes(id));
  if (contactsState.selected && done.includes(contactsState.selected.id)) contactsState.selected = null;
  const notify = services.get(Notifications);
  if (failed) notify.toast({ tone: 'error', titleKey: 'contacts:errors.deleteTitle', messageKey: 'contacts:errors.tryAgain' });
  else notify.announce(String(done.length));
  return failed === 0;
}

export async function saveContact(services: ServiceLookup, id: string | null, input: ContactInput): Promise<ContactWire> {
  const api = services.get(Api);
  const saved = id ? await api.put(`/v1/contacts/${id}`, input, ContactWire) : await api.post('/v1/contacts', input, ContactWire);
  syncDirectory(services, saved);
  return saved;
}

/** One's own company contact is one's profile: its photo goes through the profile's avatar calls. */
function avatarPath(services: ServiceLookup, id: string): { path: string; own: boolean } {
  const session = services.get(Session);
  const own = id === `u${session.userId}`;
  return { path: own ? `/v1/users/${session.userId}/avatar` : `/v1/contacts/${id}/avatar`, own };
}

export async function uploadAvatar(services: ServiceLookup, id: string, file: File): Promise<void> {
  const body = new FormData();
  body.append('photo', file, file.name);
  const { path, own } = avatarPath(services, id);
  const res = await services.get(Api).request('POST', path, { body, schema: AvatarResponse });
  patchCached(services, id, { avatar_id: res.avatar_id, avatar_href: res.avatar_href });
  if (own) await services.get(Session).refreshProfile().catch(() => undefined);
}

/** Removes the photo; a failure says "Something went wrong removing the avatar" and changes nothing. */
export async function removeAvatar(services: ServiceLookup, id: string): Promise<void> {
  const { path, own } = avatarPath(services, id);
  try {
    await services.get(Api).delete(path);
  } catch (err) {
    services.get(Notifications).toast({ tone: 'error', titleKey: 'contacts:errors.title', messageKey: 'contacts:errors.removePhoto' });
    throw err;
  }
  patchCached(services, id, { avatar_id: null, avatar_href: null });
  if (own) await services.get(Session).refreshProfile().catch(() => undefined);
}

/** A user's profile as the profile form edits it: the profile, its e-mail list, its phone numbers and its address. */
export async function loadProfile(api: Pick<ApiClient, 'get'>, userId: number, signal?: AbortSignal): Promise<ProfileBundle> {
  const [profile, emails, phones, addresses] = await Promise.all([
    api.get(`/v1/users/${userId}`, undefined, Profile, signal),
    api.get(`/v1/users/${userId}/email-addresses`, undefined, UserEmailListWire, signal),
    api.get(`/v1/users/${userId}/phone-numbers`, undefined, UserPhoneListWire, signal),
    api.get(`/v1/users/${userId}/addresses`, undefined, UserAddressListWire, signal),
  ]);
  return { profile, emails: emails.items, phones: phones.items, addresses: addresses.items };
}

/** Which call of a profile save failed, so its problem paths can be shown at the form's fields. */
export class ProfileSaveError extends Error {
  constructor(
    readonly step: ProfileStep,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'ProfileSaveError';
  }
}

/**
 * Sends the changed parts one after the other (profile fields first). Each call is idempotent, so
 * saving again after a refusal sends what is still different and nothing is applied twice. The
 * company contact is read back afterwards: the list and the detail show what the server stored.
 */
export async function saveProfile(services: ServiceLookup, plan: ProfileSavePlan): Promise<ContactWire> {
  const api = services.get(Api);
  const base = `/v1/users/${plan.userId}`;
  const step = async (name: ProfileStep, call: () => Promise<unknown>) => {
    try {
      await call();
    } catch (err) {
      throw new ProfileSaveError(name, err);
    }
  };
  if (plan.patch) await step('patch', () => api.patch(base, plan.patch!.body, Profile));
  if (plan.emails) await step('emails', () => api.put(`${base}/email-addresses`, plan.emails!.body, UserEmailListWire));
  if (plan.phones) await step('phones', () => api.put(`${base}/phone-numbers`, plan.phones!.body, UserPhoneListWire));
  if (plan.address) await step('address', () => api.put(`${base}/addresses/${plan.address!.addressId}`, plan.address!.body, UserAddressWire));
  const saved = await api.get(`/v1/contacts/u${plan.userId}`, undefined, ContactWire);
  const session = services.get(Session);
  // One's own name is also in the account menu.
  if (plan.userId === session.userId) await session.refreshProfile().catch(() => undefined);
  syncDirectory(services, saved);
  if (contactsState.selected?.id === saved.id) contactsState.selected = saved;
  await contactQueries(services).invalidateQueries({ queryKey: contactKeys.profile(plan.userId) });
  return saved;
}

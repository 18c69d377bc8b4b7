/** What the commands do: REST calls, optimistic favourites, the delete confirmation rules. */
import { Api, Dialogs, Notifications, Preferences, type ServiceLookup } from '../../kernel';
import { ApiError } from '../../kernel/api';
import { AvatarResponse, ContactWire, type ContactInput } from '../../wire/contacts';
import { directory, entryFromContact } from './directory';
import { boundQueryClient, contactKeys, contactsState } from './store';

export const DELETE_CONFIRM_PREF = 'contact-delete-confirm-modal' as const;

function patchCached(id: string, change: Partial<ContactWire>): void {
  const qc = boundQueryClient();
  qc?.setQueryData<ContactWire>(contactKeys.detail(id), (c) => (c ? { ...c, ...change } : c));
  if (contactsState.selected?.id === id) contactsState.selected = { ...contactsState.selected, ...change };
}

/** Keeps the directory row in step with a saved contact. */
export function syncDirectory(c: ContactWire): void {
  const entry = entryFromContact(c);
  if (directory.get(c.id)) directory.patch(c.id, entry);
  else if (directory.entries) {
    const rows = [...directory.entries, entry].sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0));
    directory.set(rows);
  }
  boundQueryClient()?.setQueryData(contactKeys.detail(c.id), c);
}

/** Favourite toggles optimistically and reverts when the server refuses. */
export async function toggleFavorite(services: ServiceLookup, id: string): Promise<void> {
  const current = contactsState.selected?.id === id ? contactsState.selected.favorite : (directory.get(id)?.favorite ?? false);
  const next = !current;
  directory.patch(id, { favorite: next });
  patchCached(id, { favorite: next });
  try {
    await services.get(Api).put(`/v1/contacts/${id}/favorite`, { favorite: next }, ContactWire);
  } catch (err) {
    directory.patch(id, { favorite: current });
    patchCached(id, { favorite: current });
    services.get(Notifications).toast({ tone: 'error', titleKey: 'contacts:errors.favoriteTitle', messageKey: 'contacts:errors.tryAgain' });
    console.error('contacts: favourite failed', err);
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
    if (answer.remember) await prefs.set(DELETE_CONFIRM_PREF, true).catch((err: unknown) => console.error('contacts: saving the preference failed', err));
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
  syncDirectory(saved);
  return saved;
}

export async function uploadAvatar(services: ServiceLookup, id: string, file: File): Promise<void> {
  const body = new FormData();
  body.append('photo', file, file.name);
  const res = await services.get(Api).request('POST', `/v1/contacts/${id}/avatar`, { body, schema: AvatarResponse });
  patchCached(id, { avatar_id: res.avatar_id, avatar_href: res.avatar_href });
}

export async function removeAvatar(services: ServiceLookup, id: string): Promise<void> {
  await services.get(Api).delete(`/v1/contacts/${id}/avatar`);
  patchCached(id, { avatar_id: null, avatar_href: null });
}

import { QueryClientProvider } from '@tanstack/react-query';
import { createElement, type ComponentType } from 'react';
import { Api, Navigation, Notifications, useKernel, type LazyRuns } from '../../kernel';
import { contactKeys, deleteContacts, toggleFavorite } from './api';
import { toggleWatch } from './availability';
import { CONTACTS_PATH, type contactsTable } from './commands';
import { directory } from './directory';
import { loadDirectory } from './directoryLoad';
import { contactQueries } from './queryCache';
import { contactsState } from './state';
import { targetOf } from './target';
import { OwnProfileForm as ProfileForm } from './ui/ContactForm';
import Screen from './ui/ContactsScreen';

/*
 * The plugin's one lazy chunk: the screen, its strings (`strings/`; titles, command names and
 * reasons are in `locales/`, loaded at boot) and what the commands that need the server do.
 */
export { strings } from './strings';

/** A component of this chunk with the signed-in user's query cache (the screen, and the profile form shown in Preferences). */
function withQueries<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  return function WithQueries(props: P) {
    return createElement(QueryClientProvider, { client: contactQueries(useKernel()) }, createElement(Component, props));
  };
}

export const ContactsScreen = withQueries(Screen);
export const OwnProfileForm = withQueries(ProfileForm);

const isPersonal = (id: string | undefined): id is string => !!id && directory.get(id)?.source === 'personal';

/** What each command of the table does without a boot run. */
export const runs: LazyRuns<typeof contactsTable> = {
  favorite: async (ctx, args) => {
    const t = targetOf(ctx, args);
    if (t) await toggleFavorite(ctx.services, t.id);
  },
  delete: async (ctx, args) => {
    const ids = args.ids ?? (contactsState.checked.length ? contactsState.checked : [targetOf(ctx, args)?.id]).filter(isPersonal);
    const selected = contactsState.selected?.id;
    const ok = await deleteContacts(ctx.services, ids);
    // Back to the list the user was looking at (same group and search), without the deleted one.
    if (ok && selected && ids.includes(selected)) ctx.services.get(Navigation).navigate(CONTACTS_PATH, { search: { ...contactsState.view } });
  },
  notifyAvailable: (ctx, args) => {
    const t = targetOf(ctx, args);
    if (!t?.userId || t.isCurrentUser) return;
    const result = toggleWatch(ctx.services, { userId: t.userId, contactId: t.id, name: t.name });
    // 'told': already available, the user has just been told so.
    if (result !== 'told') ctx.services.get(Notifications).toast({ titleKey: `contacts:available.${result}`, values: { name: t.name }, tone: 'info' });
  },
  refresh: async (ctx) => {
    await loadDirectory(ctx.services.get(Api));
    await contactQueries(ctx.services).invalidateQueries({ queryKey: contactKeys.all });
  },
};

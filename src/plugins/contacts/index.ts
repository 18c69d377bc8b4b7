import { Users } from 'lucide-react';
import { definePlugin, provide, toDisposable } from '../../kernel';
import { ContactGroupsApi, ContactsApi, ProfileEditor } from '../../contracts';
import { CONTACTS_PATH, contactsCommands } from './commands';
import { directory } from './directory';
import { validateContactsSearch } from './route';
import { contactGroupsService, contactsService, profileEditor } from './service';
import { resetContactsState } from './state';

/** Contacts: company directory and personal contacts, list + detail + form, palette entities. */
export const contactsPlugin = definePlugin({
  id: 'contacts',
  titleKey: 'contacts:title',
  i18n: { namespace: 'contacts' },
  provides: [provide(ContactsApi, (ctx) => contactsService(ctx.services)), provide(ProfileEditor, () => profileEditor), provide(ContactGroupsApi, (ctx) => contactGroupsService(ctx.services))],
  routes: [
    {
      id: 'contacts',
      path: CONTACTS_PATH,
      titleKey: 'contacts:title',
      component: () => import('./lazy').then(async (m) => (await m.strings(), { default: m.ContactsScreen })),
      validateSearch: validateContactsSearch,
    },
  ],
  nav: [{ id: 'contacts', titleKey: 'contacts:nav', to: CONTACTS_PATH, icon: Users, order: 20, command: contactsCommands.ids.go }],
  menus: [{ id: 'contacts.plus', menu: 'plusMenu', command: contactsCommands.ids.new, order: 30 }],
  commands: contactsCommands.commands,
  hotkeys: contactsCommands.hotkeys,
  later: () => import('./later').then((m) => m.later),
  activate(ctx) {
    ctx.track(toDisposable(resetContactsState));
    // Another user's contacts must not outlive the session (the later part loads them).
    return toDisposable(() => directory.reset());
  },
});

export default contactsPlugin;

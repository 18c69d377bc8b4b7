import { Users } from 'lucide-react';
import { subscribe } from 'valtio';
import { definePlugin, provide, toDisposable } from '../../kernel';
import { CONTACTS_PROVIDER, ContactGroupsApi, ContactsApi, ProfileEditor } from '../../contracts';
import { CONTACTS_PATH, contactsCommands } from './commands';
import { directory, keepDirectoryLoaded } from './directory';
import { validateContactsSearch } from './route';
import { contactEntities } from './search';
import { contactGroupsService, contactsService, profileEditor } from './service';
import { contactsState, resetContactsState } from './state';

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
  searchProviders: [{ id: CONTACTS_PROVIDER, kindKey: 'contacts:kind', ...contactEntities }],
  activate(ctx) {
    // Commands that act on a contact read the directory and the selection: bound buttons and the palette follow both.
    ctx.commandsRead((onChange) => directory.subscribe(onChange));
    ctx.commandsRead((onChange) => subscribe(contactsState, onChange));
    ctx.track(toDisposable(resetContactsState));
    return keepDirectoryLoaded(ctx);
  },
});

export default contactsPlugin;

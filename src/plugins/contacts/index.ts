import { Users } from 'lucide-react';
import { subscribe } from 'valtio';
import { Api, definePlugin, Navigation, provide, Session, toDisposable, type PaletteEntity } from '../../kernel';
import { CONTACTS_PROVIDER, ContactsApi } from '../../contracts';
import { CONTACTS_REFRESH_MS } from '../../wire/contactGroups';
import { CONTACTS_PATH, contactsCommands, onContactsScreen } from './commands';
import { directory, type DirEntry } from './directory';
import { validateContactsSearch } from './search';
import { contactsState } from './store';

/** Palette entities, rebuilt only when the directory changes (50,000 of them must not be rebuilt per opening). */
let cached: { version: number; self: number | null; items: PaletteEntity[] } | null = null;

const ENTITY_PREFIX = `${CONTACTS_PROVIDER}:`;
const isSelfEntry = (e: DirEntry, selfId: number | null) => e.source === 'User' && selfId !== null && e.id === `u${selfId}`;
/** What a contact is called in the palette: its name, else what else there is of it. */
const listedName = (e: DirEntry) => e.name || e.email || e.numbers[0] || e.company || e.id;

export function entityFor(e: DirEntry, selfId: number | null): PaletteEntity {
  const isSelf = isSelfEntry(e, selfId);
  const args = { id: e.id };
  const actions: Array<{ command: string; args: Record<string, unknown> }> = [];
  if (!isSelf) {
    if (e.numbers.length) actions.push({ command: 'contacts.call', args });
    if (e.source === 'User') actions.push({ command: 'contacts.message', args });
    if (e.numbers.some((n) => n.replace(/\D/g, '').length >= 10)) actions.push({ command: 'contacts.text', args });
  }
  if (e.source === 'personal') actions.push({ command: 'contacts.edit', args });
  // Listed for every colleague; the palette shows it only to account owners and administrators (its `when`).
  if (!isSelf && e.source === 'User') actions.push({ command: 'contacts.editUser', args });
  if (!isSelf) actions.push({ command: 'contacts.favorite', args });
  actions.push({ command: 'contacts.open', args });
  // Enter on the own contact still opens it (the first action); editing the profile is one Tab away.
  if (isSelf) actions.push({ command: 'contacts.editProfile', args });
  return {
    id: `${ENTITY_PREFIX}${e.id}`,
    label: listedName(e),
    detail: [e.numbers.join(', '), e.company].filter(Boolean).join(' · ') || undefined,
    keywords: e.email ? [e.email] : undefined,
    actions,
  };
}

/** Contacts: company directory and personal contacts, list + detail + form, palette entities. */
export const contactsPlugin = definePlugin({
  id: 'contacts',
  titleKey: 'contacts:title',
  i18n: {
    namespace: 'contacts',
    load: (lng) => import(`./locales/${lng}.json`).then((m: { default: Record<string, unknown> }) => m.default),
  },
  provides: [
    provide(ContactsApi, (ctx) => ({
      lookupNumber(number: string) {
        const e = directory.lookupNumber(number);
        return e ? { id: e.id, name: e.name, numbers: e.numbers } : undefined;
      },
      resolve(entityId: string) {
        const e = entityId.startsWith(ENTITY_PREFIX) ? directory.get(entityId.slice(ENTITY_PREFIX.length)) : undefined;
        return e ? { id: e.id, name: listedName(e), numbers: e.numbers, self: isSelfEntry(e, ctx.services.maybe(Session)?.userId ?? null) } : undefined;
      },
    })),
  ],
  routes: [
    {
      id: 'contacts',
      path: CONTACTS_PATH,
      titleKey: 'contacts:title',
      component: () => import('./ContactsScreen'),
      validateSearch: validateContactsSearch,
    },
  ],
  nav: [{ id: 'contacts', titleKey: 'contacts:nav', to: CONTACTS_PATH, icon: Users, order: 20, command: 'contacts.go' }],
  commands: [
    ...contactsCommands,
    {
      id: 'contacts.open',
      titleKey: 'contacts:commands.open',
      hiddenInPalette: true,
      run: (ctx, args) => {
        if (typeof args.id === 'string') ctx.services.get(Navigation).navigate(CONTACTS_PATH, { search: { contact: args.id } });
      },
    },
  ],
  hotkeys: [
    { command: 'contacts.go', keys: 'g c' },
    { command: 'contacts.new', keys: 'Shift+N' },
    { command: 'contacts.search', keys: '/', scope: 'contacts', when: onContactsScreen },
    { command: 'contacts.favorite', keys: 'f', scope: 'contacts', when: onContactsScreen },
    { command: 'contacts.call', keys: 'c', scope: 'contacts', when: onContactsScreen },
    { command: 'contacts.edit', keys: 'e', scope: 'contacts', when: onContactsScreen },
    { command: 'contacts.delete', keys: 'Delete', scope: 'contacts', when: onContactsScreen },
  ],
  searchProviders: [
    {
      id: CONTACTS_PROVIDER,
      kindKey: 'contacts:kind',
      items(ctx) {
        const entries = directory.entries;
        if (!entries) return [];
        if (!cached || cached.version !== directory.version || cached.self !== ctx.userId) {
          cached = { version: directory.version, self: ctx.userId, items: entries.map((e) => entityFor(e, ctx.userId)) };
        }
        return cached.items;
      },
      subscribe: (onChange) => toDisposable(directory.subscribe(onChange)),
    },
  ],
  activate(ctx) {
    const api = ctx.services.get(Api);
    // After the first screen has painted: the directory is for the palette and caller names.
    ctx.afterFirstScreen(() => void directory.load(api));
    const refresh = setInterval(() => void directory.load(api), CONTACTS_REFRESH_MS);
    // Commands that act on a contact read the directory and the selection: bound buttons and the palette follow both.
    ctx.commandsRead((onChange) => directory.subscribe(onChange));
    ctx.commandsRead((onChange) => subscribe(contactsState, onChange));
    return toDisposable(() => {
      clearInterval(refresh);
      directory.reset();
      contactsState.selected = null;
      cached = null;
    });
  },
});

export default contactsPlugin;

import { command, defineCommands, Navigation, option, type CommandContext, type CommandRow, type WhenFn } from '../../kernel';
import { canEditUsers } from '../../wire/roles';
import { directory } from './directory';
import { contactsState } from './state';

export const CONTACTS_PATH = '/contacts';
export const onContactsScreen: WhenFn = (ctx) => ctx.route.startsWith(CONTACTS_PATH);

/** The organisation's users other than the caller, for "Edit user" from the palette. */
function colleagueOptions(ctx: CommandContext) {
  return (directory.entries ?? [])
    .filter((e) => e.source === 'User' && e.id !== `u${ctx.context.userId}`)
    .map((e) => option(e.id, e.name, e.id, [e.email, e.numbers.join(', ')].filter(Boolean).join(' · ') || undefined));
}

export const navigate = (ctx: CommandContext, search: Record<string, unknown>) => ctx.services.get(Navigation).navigate(CONTACTS_PATH, { search });
/**
 * One's own profile is edited in the preferences' Profile panel, its edit dialog open since editing
 * is what was asked (its route, not its files: plugins do not import each other).
 */
export const toProfilePanel = (ctx: CommandContext) => ctx.services.get(Navigation).navigate('/preferences', { search: { panel: 'profile', modal: 'edit' } });

/** A contact's id (an entity's action, a button); without it the command acts on the contact shown. */
const contact = { id: 'string' } as const;

/*
 * Navigation runs at boot. Handing a contact to another plugin's service (telephony, messaging,
 * meetings) and opening its form run in the later part (`later.ts`), with every row's palette words
 * and enablement: they read the contact a command acts on, which the first screen never asks for.
 * What needs the server (favourite, delete, refresh) runs in the chunk.
 */
export const contactsTable = {
  go: { keys: 'g c', run: (ctx) => navigate(ctx, {}) },
  new: { keys: 'Shift+N', run: (ctx) => navigate(ctx, { screen: 'form', editState: 'CREATE' }) },
  showFavorites: { run: (ctx) => navigate(ctx, { group: 'favorites' }) },
  search: {
    keys: '/',
    scope: 'screen',
    run: (ctx) => {
      if (!onContactsScreen(ctx.context)) navigate(ctx, {});
      contactsState.focusSearch++;
    },
  },
  call: { keys: 'c', scope: 'screen', listed: 'never', given: { ...contact, number: 'string' }, run: 'later' },
  message: { listed: 'never', given: contact, run: 'later' },
  text: { listed: 'never', given: contact, run: 'later' },
  meeting: { listed: 'never', given: contact, run: 'later' },
  /** An ad-hoc meeting now with a colleague (the meetings' invite over chat, and their rule). */
  meetNow: { listed: 'never', given: contact, run: 'later' },
  /** Tell me when this colleague is next available (chat's presence); again: stop waiting. */
  notifyAvailable: { listed: 'never', given: contact },
  edit: { keys: 'e', scope: 'screen', listed: 'never', given: contact, run: 'later' },
  editProfile: {
    run: (ctx) => {
      if (ctx.context.userId !== null) toProfilePanel(ctx);
    },
  },
  editUser: {
    // Only account owners and administrators ever see it (menus, palette, buttons).
    when: (ctx) => canEditUsers(ctx.roleId),
    // From the palette it asks which colleague; elsewhere it acts on the contact on screen.
    args: [{ name: 'id', titleKey: 'contacts:commands.editUserWho', kind: 'choice', options: (_query: string, ctx: CommandContext) => colleagueOptions(ctx) }],
    run: 'later',
  },
  favorite: { keys: 'f', scope: 'screen', listed: 'never', given: contact },
  delete: {
    keys: 'Delete',
    scope: 'screen',
    when: 'screen',
    /** `ids`: these contacts (a bulk action); else the ticked ones, else the one named or shown. */
    given: { ...contact, ids: 'strings' },
  },
  refresh: { when: 'screen' },
  open: command({
    listed: 'never',
    given: contact,
    run: (ctx, args) => {
      if (args.id) navigate(ctx, { contact: args.id });
    },
  }),
} as const satisfies Record<string, CommandRow>;

export const contactsCommands = defineCommands('contacts', contactsTable, {
  screen: onContactsScreen,
  lazy: () => import('./lazy').then(async (m) => (await m.strings(), m.runs)),
});

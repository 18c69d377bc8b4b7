import { command, defineCommands, Navigation, option, type CommandContext, type CommandRow, type Enablement, type WhenFn } from '../../kernel';
import { AdHocInvitesApi, MeetingsApi, MessagingApi, PeerPresenceApi, TelephonyApi } from '../../contracts';
import { canEditUsers } from '../../wire/roles';
import { directory, type DirEntry } from './directory';
import { log } from './log';
import { contactsState } from './state';

export const CONTACTS_PATH = '/contacts';
export const onContactsScreen: WhenFn = (ctx) => ctx.route.startsWith(CONTACTS_PATH);

/** The contact a command acts on: the one named in its arguments (palette), else the one on screen. */
export interface Target {
  id: string;
  name: string;
  numbers: readonly string[];
  email: string;
  source: DirEntry['source'];
  userId: number | null;
  isCurrentUser: boolean;
}

export function targetOf(ctx: CommandContext, args: { readonly id?: string }): Target | null {
  const id = args.id ?? contactsState.selected?.id;
  if (!id) return null;
  const sel = contactsState.selected;
  if (sel && sel.id === id) {
    return {
      id,
      name: sel.name,
      numbers: sel.phone_numbers.map((p) => p.number || p.extension || '').filter(Boolean),
      email: sel.emails[0]?.email ?? '',
      source: sel.source,
      userId: sel.user_id,
      isCurrentUser: sel.is_current_user,
    };
  }
  const e = directory.get(id);
  if (!e) return null;
  const userId = e.source === 'User' ? Number(e.id.slice(1)) : null;
  return { id, name: e.name, numbers: e.numbers, email: e.email, source: e.source, userId, isCurrentUser: userId !== null && userId === ctx.context.userId };
}

const reason = (key: string): Enablement => ({ reasonKey: `contacts:reasons.${key}` });

/** Which form `e` opens for a contact: a personal one's, the own profile, or a colleague for account owners and administrators. */
function editModeFor(ctx: CommandContext, t: Target): 'EDIT' | 'EDIT_PROFILE' | 'EDIT_USER' | null {
  if (t.source === 'personal') return 'EDIT';
  if (t.source !== 'User') return null;
  if (t.isCurrentUser) return 'EDIT_PROFILE';
  return canEditUsers(ctx.context.roleId) ? 'EDIT_USER' : null;
}

/** The organisation's users other than the caller, for "Edit user" from the palette. */
function colleagueOptions(ctx: CommandContext) {
  return (directory.entries ?? [])
    .filter((e) => e.source === 'User' && e.id !== `u${ctx.context.userId}`)
    .map((e) => option(e.id, e.name, e.id, [e.email, e.numbers.join(', ')].filter(Boolean).join(' · ') || undefined));
}

function needs(ctx: CommandContext, check: (t: Target) => Enablement): Enablement {
  const t = targetOf(ctx, {});
  // The kernel asks without arguments; from the palette the entity named in the arguments is the
  // target, and the provider only offers actions that fit it.
  if (!t) return ctx.source === 'palette' ? true : reason('noSelection');
  return check(t);
}

const isMobile = (n: string) => n.replace(/\D/g, '').length >= 10;

const navigate = (ctx: CommandContext, search: Record<string, unknown>) => ctx.services.get(Navigation).navigate(CONTACTS_PATH, { search });
/**
 * One's own profile is edited in the preferences' Profile panel, its edit dialog open since editing
 * is what was asked (its route, not its files: plugins do not import each other).
 */
const toProfilePanel = (ctx: CommandContext) => ctx.services.get(Navigation).navigate('/preferences', { search: { panel: 'profile', modal: 'edit' } });

/** A contact's id (an entity's action, a button); without it the command acts on the contact shown. */
const contact = { id: 'string' } as const;

/*
 * Navigation and handing a contact to another plugin's service (telephony, messaging, meetings) run
 * at boot: the first call from the palette does not wait for the screen's chunk. What needs the
 * server (favourite, delete, refresh) runs in the chunk.
 */
export const contactsTable = {
  go: { keys: 'g c', keywords: ['contacts', 'address book', 'directory', 'people'], run: (ctx) => navigate(ctx, {}) },
  new: { keys: 'Shift+N', keywords: ['add contact', 'create contact', 'new person'], run: (ctx) => navigate(ctx, { screen: 'form', editState: 'CREATE' }) },
  showFavorites: { keywords: ['favorites', 'favourites', 'starred'], run: (ctx) => navigate(ctx, { group: 'favorites' }) },
  search: {
    keys: '/',
    scope: 'screen',
    keywords: ['find contact', 'search contacts'],
    run: (ctx) => {
      if (!onContactsScreen(ctx.context)) navigate(ctx, {});
      contactsState.focusSearch++;
    },
  },
  call: command({
    keys: 'c',
    scope: 'screen',
    listed: 'never',
    keywords: ['call', 'dial', 'phone'],
    given: { ...contact, number: 'string' },
    enabled: (ctx) =>
      !ctx.services.has(TelephonyApi) ? reason('noTelephony') : needs(ctx, (t) => (t.isCurrentUser ? reason('self') : t.numbers.length ? true : reason('noNumber'))),
    run: async (ctx, args) => {
      const t = targetOf(ctx, args);
      const telephony = ctx.services.maybe(TelephonyApi);
      const number = t && (args.number ?? t.numbers[0]);
      if (!t || !telephony || !number) return;
      await telephony.call(number, { displayName: t.name }).catch((err: unknown) => log.error('call failed', err));
    },
  }),
  message: command({
    listed: 'never',
    keywords: ['chat', 'message', 'im'],
    given: contact,
    // Chat is only for company (User) contacts other than the current user.
    enabled: (ctx) =>
      !ctx.services.has(MessagingApi) ? reason('noMessaging') : needs(ctx, (t) => (t.source !== 'User' ? reason('chatCompanyOnly') : t.isCurrentUser ? reason('self') : true)),
    run: (ctx, args) => {
      const t = targetOf(ctx, args);
      if (t?.userId) ctx.services.maybe(MessagingApi)?.openChat(t.userId);
    },
  }),
  text: command({
    listed: 'never',
    keywords: ['sms', 'text message'],
    given: contact,
    enabled: (ctx) =>
      !ctx.services.has(MessagingApi) ? reason('noMessaging') : needs(ctx, (t) => (t.isCurrentUser ? reason('self') : t.numbers.some(isMobile) ? true : reason('noMobile'))),
    run: (ctx, args) => {
      const number = targetOf(ctx, args)?.numbers.find(isMobile);
      if (number) ctx.services.maybe(MessagingApi)?.newText(number);
    },
  }),
  meeting: command({
    listed: 'never',
    keywords: ['meet', 'video', 'invite'],
    given: contact,
    enabled: (ctx) =>
      !ctx.services.has(MeetingsApi) ? reason('noMeetings') : needs(ctx, (t) => (t.isCurrentUser ? reason('self') : t.userId || t.email ? true : reason('noEmail'))),
    run: (ctx, args) => {
      const t = targetOf(ctx, args);
      if (t) ctx.services.maybe(MeetingsApi)?.startMeeting([{ userId: t.userId ?? undefined, email: t.email || undefined, name: t.name }]);
    },
  }),
  /** An ad-hoc meeting now with a colleague (the meetings' invite over chat, and their rule). */
  meetNow: command({
    listed: 'never',
    keywords: ['meet now', 'ad-hoc meeting', 'video call'],
    given: contact,
    enabled: (ctx) => {
      const adhoc = ctx.services.maybe(AdHocInvitesApi);
      return !adhoc ? reason('noMeetings') : needs(ctx, (t) => adhoc.enablement(ctx.context.features, t.source === 'User' ? t.userId : null, t.isCurrentUser));
    },
    run: (ctx, args) => {
      const t = targetOf(ctx, args);
      if (t?.userId) ctx.services.maybe(AdHocInvitesApi)?.invite(t.userId, t.name);
    },
  }),
  /** Tell me when this colleague is next available (chat's presence); again: stop waiting. */
  notifyAvailable: {
    listed: 'never',
    keywords: ['notify', 'available', 'tell me', 'watch', 'presence'],
    given: contact,
    enabled: (ctx) =>
      !ctx.services.has(PeerPresenceApi)
        ? reason('noMessaging')
        : needs(ctx, (t) => (t.source !== 'User' || t.userId === null ? reason('chatCompanyOnly') : t.isCurrentUser ? reason('self') : true)),
  },
  edit: command({
    keys: 'e',
    scope: 'screen',
    listed: 'never',
    keywords: ['edit contact', 'change'],
    given: contact,
    // Only personal contacts get Edit and Delete; on the own contact and (for account owners and
    // administrators) on a colleague, the same key opens the profile form instead.
    enabled: (ctx) => needs(ctx, (t) => (editModeFor(ctx, t) ? true : reason('readOnly'))),
    run: (ctx, args) => {
      const t = targetOf(ctx, args);
      const mode = t && editModeFor(ctx, t);
      if (mode === 'EDIT_PROFILE') toProfilePanel(ctx);
      else if (t && mode) navigate(ctx, { contact: t.id, screen: 'form', editState: mode });
    },
  }),
  editProfile: {
    keywords: ['profile', 'my profile', 'my details', 'my name', 'my e-mail', 'my phone numbers', 'my address'],
    run: (ctx) => {
      if (ctx.context.userId !== null) toProfilePanel(ctx);
    },
  },
  editUser: command({
    keywords: ['edit user', 'edit colleague', 'change user', 'user details'],
    // Only account owners and administrators ever see it (menus, palette, buttons).
    when: (ctx) => canEditUsers(ctx.roleId),
    // From the palette it asks which colleague; elsewhere it acts on the contact on screen.
    args: [{ name: 'id', titleKey: 'contacts:commands.editUserWho', kind: 'choice', options: (_query: string, ctx: CommandContext) => colleagueOptions(ctx) }],
    enabled: (ctx) =>
      ctx.source === 'palette' ? true : needs(ctx, (t) => (t.source !== 'User' ? reason('notUser') : t.isCurrentUser ? reason('useEditProfile') : true)),
    run: (ctx, args) => {
      const t = targetOf(ctx, args);
      if (t?.source === 'User' && t.isCurrentUser) toProfilePanel(ctx);
      else if (t?.source === 'User') navigate(ctx, { contact: t.id, screen: 'form', editState: 'EDIT_USER' });
    },
  }),
  favorite: {
    keys: 'f',
    scope: 'screen',
    listed: 'never',
    keywords: ['favorite', 'favourite', 'star'],
    given: contact,
    enabled: (ctx) => needs(ctx, (t) => (t.isCurrentUser ? reason('self') : true)),
  },
  delete: {
    keys: 'Delete',
    scope: 'screen',
    when: 'screen',
    keywords: ['remove contact', 'delete'],
    /** `ids`: these contacts (a bulk action); else the ticked ones, else the one named or shown. */
    given: { ...contact, ids: 'strings' },
    enabled: (ctx) => (contactsState.checked.length ? true : needs(ctx, (t) => (t.source === 'personal' ? true : reason('readOnly')))),
  },
  refresh: { when: 'screen', keywords: ['reload contacts'] },
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

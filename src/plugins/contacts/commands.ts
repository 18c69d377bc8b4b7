import { Api, type ArgOption, Navigation, type CommandContext, type CommandContribution, type Enablement, type WhenFn } from '../../kernel';
import { MeetingsApi, MessagingApi, TelephonyApi } from '../../contracts';
import { canEditUsers } from '../../wire/roles';
// What the commands do (REST calls, schemas) loads on first use, not with the boot bundle.
const actions = () => import('./actions');
import { directory, type DirEntry } from './directory';
import { contactKeys, boundQueryClient, contactsState } from './store';
import { log } from './log';

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

export function targetOf(ctx: CommandContext, args: Readonly<Record<string, unknown>>): Target | null {
  const id = typeof args.id === 'string' ? args.id : contactsState.selected?.id;
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
function colleagueOptions(ctx: CommandContext): ArgOption[] {
  return (directory.entries ?? [])
    .filter((e) => e.source === 'User' && e.id !== `u${ctx.context.userId}`)
    .map((e) => ({ id: e.id, label: e.name, detail: [e.email, e.numbers.join(', ')].filter(Boolean).join(' · ') || undefined, value: e.id }));
}

function needs(ctx: CommandContext, args: Readonly<Record<string, unknown>>, check: (t: Target) => Enablement): Enablement {
  const t = targetOf(ctx, args);
  // The kernel asks without arguments; from the palette the entity named in the arguments is the
  // target, and the provider only offers actions that fit it.
  if (!t) return ctx.source === 'palette' ? true : reason('noSelection');
  return check(t);
}

const numberArg = (args: Readonly<Record<string, unknown>>, t: Target) => (typeof args.number === 'string' ? args.number : t.numbers[0]);

const navigate = (ctx: CommandContext, search: Record<string, unknown>) => ctx.services.get(Navigation).navigate(CONTACTS_PATH, { search });

export const contactsCommands: readonly CommandContribution[] = [
  {
    id: 'contacts.go',
    titleKey: 'contacts:commands.go',
    keywords: ['contacts', 'address book', 'directory', 'people'],
    run: (ctx) => navigate(ctx, {}),
  },
  {
    id: 'contacts.new',
    titleKey: 'contacts:commands.new',
    keywords: ['add contact', 'create contact', 'new person'],
    run: (ctx) => navigate(ctx, { screen: 'form', editState: 'CREATE' }),
  },
  {
    id: 'contacts.showFavorites',
    titleKey: 'contacts:commands.showFavorites',
    keywords: ['favorites', 'favourites', 'starred'],
    run: (ctx) => navigate(ctx, { group: 'favorites' }),
  },
  {
    id: 'contacts.search',
    titleKey: 'contacts:commands.search',
    keywords: ['find contact', 'search contacts'],
    run: (ctx) => {
      if (!onContactsScreen(ctx.context)) navigate(ctx, {});
      contactsState.focusSearch++;
    },
  },
  {
    id: 'contacts.call',
    titleKey: 'contacts:commands.call',
    keywords: ['call', 'dial', 'phone'],
    hiddenInPalette: true,
    enabled: (ctx) =>
      !ctx.services.has(TelephonyApi) ? reason('noTelephony') : needs(ctx, {}, (t) => (t.isCurrentUser ? reason('self') : t.numbers.length ? true : reason('noNumber'))),
    run: async (ctx, args) => {
      const t = targetOf(ctx, args);
      const telephony = ctx.services.maybe(TelephonyApi);
      const number = t && numberArg(args, t);
      if (!t || !telephony || !number) return;
      await telephony.call(number, { displayName: t.name }).catch((err: unknown) => log.error('call failed', err));
    },
  },
  {
    id: 'contacts.message',
    titleKey: 'contacts:commands.message',
    keywords: ['chat', 'message', 'im'],
    hiddenInPalette: true,
    // Chat is only for company (User) contacts other than the current user.
    enabled: (ctx) =>
      !ctx.services.has(MessagingApi) ? reason('noMessaging') : needs(ctx, {}, (t) => (t.source !== 'User' ? reason('chatCompanyOnly') : t.isCurrentUser ? reason('self') : true)),
    run: (ctx, args) => {
      const t = targetOf(ctx, args);
      if (t?.userId) ctx.services.maybe(MessagingApi)?.openChat(t.userId);
    },
  },
  {
    id: 'contacts.text',
    titleKey: 'contacts:commands.text',
    keywords: ['sms', 'text message'],
    hiddenInPalette: true,
    enabled: (ctx) =>
      !ctx.services.has(MessagingApi) ? reason('noMessaging') : needs(ctx, {}, (t) => (t.isCurrentUser ? reason('self') : t.numbers.some((n) => n.replace(/\D/g, '').length >= 10) ? true : reason('noMobile'))),
    run: (ctx, args) => {
      const t = targetOf(ctx, args);
      const number = t?.numbers.find((n) => n.replace(/\D/g, '').length >= 10);
      if (number) ctx.services.maybe(MessagingApi)?.newText(number);
    },
  },
  {
    id: 'contacts.meeting',
    titleKey: 'contacts:commands.meeting',
    keywords: ['meet', 'video', 'invite'],
    hiddenInPalette: true,
    enabled: (ctx) =>
      !ctx.services.has(MeetingsApi) ? reason('noMeetings') : needs(ctx, {}, (t) => (t.isCurrentUser ? reason('self') : t.userId || t.email ? true : reason('noEmail'))),
    run: (ctx, args) => {
      const t = targetOf(ctx, args);
      if (t) ctx.services.maybe(MeetingsApi)?.startMeeting([{ userId: t.userId ?? undefined, email: t.email || undefined, name: t.name }]);
    },
  },
  {
    id: 'contacts.edit',
    titleKey: 'contacts:commands.edit',
    keywords: ['edit contact', 'change'],
    hiddenInPalette: true,
    // Only personal contacts get Edit and Delete; on the own contact and (for account owners and
    // administrators) on a colleague, the same key opens the profile form instead.
    enabled: (ctx) => needs(ctx, {}, (t) => (editModeFor(ctx, t) ? true : reason('readOnly'))),
    run: (ctx, args) => {
      const t = targetOf(ctx, args);
      const mode = t && editModeFor(ctx, t);
      if (t && mode) navigate(ctx, { contact: t.id, screen: 'form', editState: mode });
    },
  },
  {
    id: 'contacts.editProfile',
    titleKey: 'contacts:commands.editProfile',
    keywords: ['profile', 'my profile', 'my details', 'my name', 'my e-mail', 'my phone numbers', 'my address'],
    run: (ctx) => {
      if (ctx.context.userId !== null) navigate(ctx, { contact: `u${ctx.context.userId}`, screen: 'form', editState: 'EDIT_PROFILE' });
    },
  },
  {
    id: 'contacts.editUser',
    titleKey: 'contacts:commands.editUser',
    keywords: ['edit user', 'edit colleague', 'change user', 'user details'],
    // Only account owners and administrators ever see it (menus, palette, buttons).
    when: (ctx) => canEditUsers(ctx.roleId),
    // From the palette it asks which colleague; elsewhere it acts on the contact on screen.
    args: [{ name: 'id', titleKey: 'contacts:commands.editUserWho', kind: 'choice', options: (_query, ctx) => colleagueOptions(ctx) }],
    enabled: (ctx) =>
      ctx.source === 'palette' ? true : needs(ctx, {}, (t) => (t.source !== 'User' ? reason('notUser') : t.isCurrentUser ? reason('useEditProfile') : true)),
    run: (ctx, args) => {
      const t = targetOf(ctx, args);
      if (t?.source === 'User') navigate(ctx, { contact: t.id, screen: 'form', editState: t.isCurrentUser ? 'EDIT_PROFILE' : 'EDIT_USER' });
    },
  },
  {
    id: 'contacts.favorite',
    titleKey: 'contacts:commands.favorite',
    keywords: ['favorite', 'favourite', 'star'],
    hiddenInPalette: true,
    enabled: (ctx) => needs(ctx, {}, (t) => (t.isCurrentUser ? reason('self') : true)),
    run: async (ctx, args) => {
      const t = targetOf(ctx, args);
      if (t) await (await actions()).toggleFavorite(ctx.services, t.id);
    },
  },
  {
    id: 'contacts.delete',
    titleKey: 'contacts:commands.delete',
    keywords: ['remove contact', 'delete'],
    when: onContactsScreen,
    enabled: (ctx) => {
      if (contactsState.checked.length) return true;
      return needs(ctx, {}, (t) => (t.source === 'personal' ? true : reason('readOnly')));
    },
    run: async (ctx, args) => {
      const ids = Array.isArray(args.ids)
        ? (args.ids as string[])
        : contactsState.checked.length
          ? contactsState.checked.filter((id) => directory.get(id)?.source === 'personal')
          : [targetOf(ctx, args)?.id].filter((id): id is string => !!id && directory.get(id)?.source === 'personal');
      const selected = contactsState.selected?.id;
      const ok = await (await actions()).deleteContacts(ctx.services, ids);
      // Back to the list the user was looking at (same group and search), without the deleted one.
      if (ok && selected && ids.includes(selected)) navigate(ctx, { ...contactsState.view });
    },
  },
  {
    id: 'contacts.refresh',
    titleKey: 'contacts:commands.refresh',
    keywords: ['reload contacts'],
    when: onContactsScreen,
    run: async (ctx) => {
      await directory.load(ctx.services.get(Api));
      await boundQueryClient()?.invalidateQueries({ queryKey: contactKeys.all });
    },
  },
];

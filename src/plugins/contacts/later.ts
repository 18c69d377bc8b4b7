import { subscribe } from 'valtio';
import { type CommandContext, type Enablement, type PluginLater } from '../../kernel';
import { AdHocInvitesApi, CONTACTS_PROVIDER, MeetingsApi, MessagingApi, PeerPresenceApi, TelephonyApi } from '../../contracts';
import { canEditUsers } from '../../wire/roles';
import { contactsCommands, navigate, toProfilePanel } from './commands';
import { directory } from './directory';
import { keepDirectoryLoaded } from './directoryLoad';
import { log } from './log';
import { contactEntities } from './search';
import { contactsState } from './state';
import { targetOf, type Target } from './target';

/*
 * The later part (loaded after the first screen): the words the palette finds each command by,
 * whether a command may act on the contact named or shown (with the reason beside it when not),
 * the runs that hand that contact on, every contact as a palette entity, and the directory's loading.
 */

const reason = (key: string): Enablement => ({ reasonKey: `contacts:reasons.${key}` });

/** Which form `e` opens for a contact: a personal one's, the own profile, or a colleague for account owners and administrators. */
function editModeFor(ctx: CommandContext, t: Target): 'EDIT' | 'EDIT_PROFILE' | 'EDIT_USER' | null {
  if (t.source === 'personal') return 'EDIT';
  if (t.source !== 'User') return null;
  if (t.isCurrentUser) return 'EDIT_PROFILE';
  return canEditUsers(ctx.context.roleId) ? 'EDIT_USER' : null;
}

function needs(ctx: CommandContext, check: (t: Target) => Enablement): Enablement {
  const t = targetOf(ctx, {});
  // The kernel asks without arguments; from the palette the entity named in the arguments is the
  // target, and the provider only offers actions that fit it.
  if (!t) return ctx.source === 'palette' ? true : reason('noSelection');
  return check(t);
}

const isMobile = (n: string) => n.replace(/\D/g, '').length >= 10;

export const later: PluginLater = {
  commands: contactsCommands.later({
    go: { keywords: ['contacts', 'address book', 'directory', 'people'] },
    new: { keywords: ['add contact', 'create contact', 'new person'] },
    showFavorites: { keywords: ['favorites', 'favourites', 'starred'] },
    search: { keywords: ['find contact', 'search contacts'] },
    call: {
      keywords: ['call', 'dial', 'phone'],
      enabled: (ctx) =>
        !ctx.services.has(TelephonyApi) ? reason('noTelephony') : needs(ctx, (t) => (t.isCurrentUser ? reason('self') : t.numbers.length ? true : reason('noNumber'))),
      run: async (ctx, args) => {
        const t = targetOf(ctx, args);
        const telephony = ctx.services.maybe(TelephonyApi);
        const number = t && (args.number ?? t.numbers[0]);
        if (!t || !telephony || !number) return;
        await telephony.call(number, { displayName: t.name }).catch((err: unknown) => log.error('call failed', err));
      },
    },
    message: {
      keywords: ['chat', 'message', 'im'],
      // Chat is only for company (User) contacts other than the current user.
      enabled: (ctx) =>
        !ctx.services.has(MessagingApi) ? reason('noMessaging') : needs(ctx, (t) => (t.source !== 'User' ? reason('chatCompanyOnly') : t.isCurrentUser ? reason('self') : true)),
      run: (ctx, args) => {
        const t = targetOf(ctx, args);
        if (t?.userId) ctx.services.maybe(MessagingApi)?.openChat(t.userId);
      },
    },
    text: {
      keywords: ['sms', 'text message'],
      enabled: (ctx) =>
        !ctx.services.has(MessagingApi) ? reason('noMessaging') : needs(ctx, (t) => (t.isCurrentUser ? reason('self') : t.numbers.some(isMobile) ? true : reason('noMobile'))),
      run: (ctx, args) => {
        const number = targetOf(ctx, args)?.numbers.find(isMobile);
        if (number) ctx.services.maybe(MessagingApi)?.newText(number);
      },
    },
    meeting: {
      keywords: ['meet', 'video', 'invite'],
      enabled: (ctx) =>
        !ctx.services.has(MeetingsApi) ? reason('noMeetings') : needs(ctx, (t) => (t.isCurrentUser ? reason('self') : t.userId || t.email ? true : reason('noEmail'))),
      run: (ctx, args) => {
        const t = targetOf(ctx, args);
        if (t) ctx.services.maybe(MeetingsApi)?.startMeeting([{ userId: t.userId ?? undefined, email: t.email || undefined, name: t.name }]);
      },
    },
    meetNow: {
      keywords: ['meet now', 'ad-hoc meeting', 'video call'],
      enabled: (ctx) => {
        const adhoc = ctx.services.maybe(AdHocInvitesApi);
        return !adhoc ? reason('noMeetings') : needs(ctx, (t) => adhoc.enablement(ctx.context.features, t.source === 'User' ? t.userId : null, t.isCurrentUser));
      },
      run: (ctx, args) => {
        const t = targetOf(ctx, args);
        if (t?.userId) ctx.services.maybe(AdHocInvitesApi)?.invite(t.userId, t.name);
      },
    },
    notifyAvailable: {
      keywords: ['notify', 'available', 'tell me', 'watch', 'presence'],
      enabled: (ctx) =>
        !ctx.services.has(PeerPresenceApi)
          ? reason('noMessaging')
          : needs(ctx, (t) => (t.source !== 'User' || t.userId === null ? reason('chatCompanyOnly') : t.isCurrentUser ? reason('self') : true)),
    },
    edit: {
      keywords: ['edit contact', 'change'],
      // Only personal contacts get Edit and Delete; on the own contact and (for account owners and
      // administrators) on a colleague, the same key opens the profile form instead.
      enabled: (ctx) => needs(ctx, (t) => (editModeFor(ctx, t) ? true : reason('readOnly'))),
      run: (ctx, args) => {
        const t = targetOf(ctx, args);
        const mode = t && editModeFor(ctx, t);
        if (mode === 'EDIT_PROFILE') toProfilePanel(ctx);
        else if (t && mode) navigate(ctx, { contact: t.id, screen: 'form', editState: mode });
      },
    },
    editProfile: { keywords: ['profile', 'my profile', 'my details', 'my name', 'my e-mail', 'my phone numbers', 'my address'] },
    editUser: {
      keywords: ['edit user', 'edit colleague', 'change user', 'user details'],
      enabled: (ctx) =>
        ctx.source === 'palette' ? true : needs(ctx, (t) => (t.source !== 'User' ? reason('notUser') : t.isCurrentUser ? reason('useEditProfile') : true)),
      run: (ctx, args) => {
        const t = targetOf(ctx, args);
        if (t?.source === 'User' && t.isCurrentUser) toProfilePanel(ctx);
        else if (t?.source === 'User') navigate(ctx, { contact: t.id, screen: 'form', editState: 'EDIT_USER' });
      },
    },
    favorite: { keywords: ['favorite', 'favourite', 'star'], enabled: (ctx) => needs(ctx, (t) => (t.isCurrentUser ? reason('self') : true)) },
    delete: {
      keywords: ['remove contact', 'delete'],
      enabled: (ctx) => (contactsState.checked.length ? true : needs(ctx, (t) => (t.source === 'personal' ? true : reason('readOnly')))),
    },
    refresh: { keywords: ['reload contacts'] },
  }),
  searchProviders: [{ id: CONTACTS_PROVIDER, kindKey: 'contacts:kind', ...contactEntities }],
  activate(ctx) {
    // Commands that act on a contact read the directory and the selection: bound buttons and the palette follow both.
    ctx.commandsRead((onChange) => directory.subscribe(onChange));
    ctx.commandsRead((onChange) => subscribe(contactsState, onChange));
    return keepDirectoryLoaded(ctx);
  },
};

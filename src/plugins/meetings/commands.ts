import { command, defineCommands, Navigation, Notifications, type CommandContext, type CommandRow, type Enablement, type WhenFn } from '../../kernel';
import { AdHocInvitesApi, ContactsApi, CONTACTS_PROVIDER, type MEETINGS_JOIN_COMMAND } from '../../contracts';
import { meetingsState, MEETINGS_PATH, ROOMS_PATH, selectedMeeting } from './state';

/* Titles, reasons and the navigation entry are boot strings (`locales/`): the commands exist from sign-in. */
const onScreen: WhenFn = (ctx) => ctx.route.startsWith(MEETINGS_PATH);
const loaded = (): Enablement => (meetingsState.items ? true : { reasonKey: 'meetings:reasons.loading' });
/**
 * Starting and scheduling follow uc-can-create-meetings (the server's rule: web meeting management,
 * and not a limited-access account). Before it is read the command is offered: its run asks again.
 * The reason names web meeting management when that is what is off.
 */
export const mayCreate = (canCreate: boolean | null, features: { webMeetingManagement: boolean }): Enablement =>
  canCreate !== false ? true : { reasonKey: features.webMeetingManagement ? 'meetings:reasons.noCreate' : 'meetings:reasons.noManagement' };
/** Edit and delete act on a meeting the user booked: the detail pane's, or the one named. */
const mayEdit = (): Enablement => {
  if (!meetingsState.items) return { reasonKey: 'meetings:reasons.loading' };
  const m = selectedMeeting();
  return !m || m.editable ? true : { reasonKey: 'meetings:reasons.notEditable' };
};
/** A meeting's (or a room's) occurrence key: an entity's action, a button; without it, the meeting shown. */
const meeting = { key: 'string' } as const;
/** The meeting page's commands exist while its media is joined (Ctrl+D and Ctrl+E as other meeting products have them). */
const inMeeting: WhenFn = () => meetingsState.live !== null;
/** "Meet now ▸ Bob": the palette asks for the contact; the rule on the contact is checked when it runs. */
const meetNowArgs = [{ name: 'contact', titleKey: 'meetings:args.contact', kind: 'choice', provider: CONTACTS_PROVIDER }] as const;
/** What the palette can know before a contact is named: the features (the reasons as the buttons show them). */
const mayMeetNow = (ctx: CommandContext): Enablement => {
  const f = ctx.context.features;
  if (!f.webMeetingManagement) return { reasonKey: 'meetings:reasons.adhoc.noManagement' };
  if (!f.adhocEnabled) return { reasonKey: 'meetings:reasons.adhoc.noAdhoc' };
  return ctx.services.has(AdHocInvitesApi) ? true : { reasonKey: 'shell:commandUnavailable' };
};
const joinArgs = [{ name: 'meeting', titleKey: 'meetings:args.meeting', kind: 'choice', provider: 'meetings' }] as const;

/*
 * "New meeting" opens the modal on its Start tab (an instant meeting), "Schedule meeting" on its
 * Schedule tab, from anywhere. The commands on one meeting are listed only on the meetings screen,
 * where that meeting is in view; elsewhere they are a meeting's actions (palette ▸ meeting ▸ Tab).
 */
export const meetingsTable = {
  go: { keys: 'g e', keywords: ['meetings', 'calendar', 'video'], run: (ctx) => ctx.services.get(Navigation).navigate(MEETINGS_PATH) },
  rooms: { keys: 'g o', keywords: ['rooms', 'video rooms'], run: (ctx) => ctx.services.get(Navigation).navigate(ROOMS_PATH) },
  new: { keys: 'n', scope: 'screen', keywords: ['start meeting', 'instant meeting', 'meet now', 'video call'], enabled: (ctx) => mayCreate(meetingsState.canCreate, ctx.context.features) },
  schedule: { keys: 's', scope: 'screen', keywords: ['book', 'plan', 'invite'], enabled: (ctx) => mayCreate(meetingsState.canCreate, ctx.context.features) },
  join: { keys: 'Shift+J', scope: 'screen', keywords: ['enter meeting', 'video'], args: joinArgs, given: meeting },
  joinById: { keys: 'Shift+I', scope: 'screen', keywords: ['meeting id', 'pin', 'dial in'] },
  open: { listed: 'never', given: meeting },
  edit: { keys: 'e', scope: 'screen', listed: 'screen', enabled: mayEdit, given: meeting },
  delete: { keys: 'Delete', scope: 'screen', listed: 'screen', enabled: mayEdit, given: meeting },
  addToCalendar: { keys: 'Shift+D', scope: 'screen', listed: 'screen', keywords: ['ics', 'download', 'outlook'], enabled: loaded, given: meeting },
  copyLink: { keys: 'y', scope: 'screen', listed: 'screen', keywords: ['url', 'share'], enabled: loaded, given: meeting },
  calendars: { keywords: ['ics', 'feed', 'outlook', 'google calendar', 'subscribe'] },
  newRoom: { keywords: ['book room', 'video room'], enabled: () => (meetingsState.permissions?.can_book_rooms ? true : { reasonKey: 'meetings:reasons.noRooms' }) },
  mute: { keys: '$mod+d', allowInInputs: true, when: inMeeting, keywords: ['microphone', 'unmute', 'audio'] },
  camera: { keys: '$mod+e', allowInInputs: true, when: inMeeting, keywords: ['video', 'webcam', 'camera off'] },
  share: { keys: '$mod+Alt+s', allowInInputs: true, when: inMeeting, keywords: ['present', 'screen share', 'stop sharing'] },
  hand: { keys: '$mod+Alt+h', allowInInputs: true, when: inMeeting, keywords: ['raise hand', 'lower hand'] },
  participants: { keys: '$mod+Alt+p', allowInInputs: true, when: inMeeting, keywords: ['people', 'attendees', 'who is here'] },
  meetingChat: { keys: '$mod+Alt+c', allowInInputs: true, when: inMeeting, keywords: ['chat', 'message everyone'] },
  devices: { when: inMeeting, keywords: ['microphone', 'camera', 'speaker', 'headset', 'webcam'] },
  speaker: { keys: '$mod+Alt+w', allowInInputs: true, when: inMeeting, keywords: ['who is speaking', 'active speaker'] },
  leave: { when: inMeeting, keywords: ['hang up', 'exit meeting', 'end'] },
  // At boot: the invite modal opens at once; the chunk (the offer, the modal) follows.
  meetNow: command({
    keywords: ['meet now', 'ad-hoc meeting', 'video call', 'invite', 'instant meeting'],
    args: meetNowArgs,
    enabled: mayMeetNow,
    run: (ctx, args) => {
      const c = args.contact ? ctx.services.maybe(ContactsApi)?.resolve(args.contact.id) : undefined;
      const adhoc = ctx.services.maybe(AdHocInvitesApi);
      if (!c || !adhoc) return;
      const ok = adhoc.enablement(ctx.context.features, c.userId ?? null, c.self);
      if (ok === true) adhoc.invite(c.userId!, c.name);
      else ctx.services.get(Notifications).toast({ titleKey: 'meetings:commands.meetNow', messageKey: ok.reasonKey, values: { ...ok.values, name: c.name }, tone: 'warning' });
    },
  }),
  next: { keys: 'j', scope: 'screen', when: 'screen' },
  previous: { keys: 'k', scope: 'screen', when: 'screen' },
} as const satisfies Record<string, CommandRow>;

/** Every row but the navigations runs in the lazy chunk, with the screen's strings. */
export const meetingsCommands = defineCommands('meetings', meetingsTable, {
  screen: onScreen,
  lazy: () => import('./lazy').then(async (m) => (await m.strings(), m.runs)),
});

/** The id other plugins run to join (the dashboard's "Join"), declared in the contract: checked to be this table's. */
export const joinCommandId: typeof MEETINGS_JOIN_COMMAND = meetingsCommands.ids.join;

import { subscribe } from 'valtio';
import { Notifications, toDisposable, type CommandContext, type Enablement, type PluginLater } from '../../kernel';
import { AdHocInvitesApi, ContactsApi } from '../../contracts';
import { meetingsCommands } from './commands';
import { readCanCreate } from './canCreate';
import { meetingsState, palette, selectedMeeting } from './state';

/*
 * The later part (loaded after the first screen): the words the palette finds each command by,
 * whether it may run (read from the list, the selection and the permissions, with the reason shown
 * beside it when it may not), "Meet now"'s run, and the palette's meetings and rooms.
 */

const loaded = (): Enablement => (meetingsState.items ? true : { reasonKey: 'meetings:reasons.loading' });
/**
 * Starting and scheduling follow uc-can-create-meetings (the server's rule: web meeting management,
 * and not a limited-access account). Before it is read the command is offered: its run asks again.
 * The reason names web meeting management when that is what is off.
 */
export const mayCreate = (canCreate: boolean | null, features: { webMeetingManagement: boolean }): Enablement =>
  canCreate !== false ? true : { reasonKey: features.webMeetingManagement ? 'meetings:reasons.noCreate' : 'meetings:reasons.noManagement' };
const create = (ctx: CommandContext) => mayCreate(meetingsState.canCreate, ctx.context.features);
/** Edit and delete act on a meeting the user booked: the detail pane's, or the one named. */
const mayEdit = (): Enablement => {
  if (!meetingsState.items) return { reasonKey: 'meetings:reasons.loading' };
  const m = selectedMeeting();
  return !m || m.editable ? true : { reasonKey: 'meetings:reasons.notEditable' };
};
/** What the palette can know before a contact is named: the features (the reasons as the buttons show them). */
const mayMeetNow = (ctx: CommandContext): Enablement => {
  const f = ctx.context.features;
  if (!f.webMeetingManagement) return { reasonKey: 'meetings:reasons.adhoc.noManagement' };
  if (!f.adhocEnabled) return { reasonKey: 'meetings:reasons.adhoc.noAdhoc' };
  return ctx.services.has(AdHocInvitesApi) ? true : { reasonKey: 'shell:commandUnavailable' };
};

export const later: PluginLater = {
  commands: meetingsCommands.later({
    go: { keywords: ['meetings', 'calendar', 'video'] },
    rooms: { keywords: ['rooms', 'video rooms'] },
    new: { keywords: ['start meeting', 'instant meeting', 'meet now', 'video call'], enabled: create },
    schedule: { keywords: ['book', 'plan', 'invite'], enabled: create },
    join: { keywords: ['enter meeting', 'video'] },
    joinById: { keywords: ['meeting id', 'pin', 'dial in'] },
    edit: { enabled: mayEdit },
    delete: { enabled: mayEdit },
    addToCalendar: { keywords: ['ics', 'download', 'outlook'], enabled: loaded },
    copyLink: { keywords: ['url', 'share'], enabled: loaded },
    calendars: { keywords: ['ics', 'feed', 'outlook', 'google calendar', 'subscribe'] },
    newRoom: { keywords: ['book room', 'video room'], enabled: () => (meetingsState.permissions?.can_book_rooms ? true : { reasonKey: 'meetings:reasons.noRooms' }) },
    mute: { keywords: ['microphone', 'unmute', 'audio'] },
    camera: { keywords: ['video', 'webcam', 'camera off'] },
    share: { keywords: ['present', 'screen share', 'stop sharing'] },
    hand: { keywords: ['raise hand', 'lower hand'] },
    participants: { keywords: ['people', 'attendees', 'who is here'] },
    meetingChat: { keywords: ['chat', 'message everyone'] },
    devices: { keywords: ['microphone', 'camera', 'speaker', 'headset', 'webcam'] },
    speaker: { keywords: ['who is speaking', 'active speaker'] },
    leave: { keywords: ['hang up', 'exit meeting', 'end'] },
    meetNow: {
      keywords: ['meet now', 'ad-hoc meeting', 'video call', 'invite', 'instant meeting'],
      enabled: mayMeetNow,
      run: (ctx, args) => {
        const c = args.contact ? ctx.services.maybe(ContactsApi)?.resolve(args.contact.id) : undefined;
        const adhoc = ctx.services.maybe(AdHocInvitesApi);
        if (!c || !adhoc) return;
        const ok = adhoc.enablement(ctx.context.features, c.userId ?? null, c.self);
        if (ok === true) adhoc.invite(c.userId!, c.name);
        else ctx.services.get(Notifications).toast({ titleKey: 'meetings:commands.meetNow', messageKey: ok.reasonKey, values: { ...ok.values, name: c.name }, tone: 'warning' });
      },
    },
  }),
  // The entities are built by the lazy chunk once the list is in.
  searchProviders: [{ id: 'meetings', kindKey: 'meetings:kind', items: () => palette.entities, subscribe: (onChange) => toDisposable(subscribe(palette, onChange)) }],
  activate(ctx) {
    // "New meeting" and "Schedule meeting" follow uc-can-create-meetings; a run before it is read asks itself.
    void readCanCreate(ctx.services);
  },
};

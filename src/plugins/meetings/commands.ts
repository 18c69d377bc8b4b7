import { defineCommands, Navigation, type CommandRow, type WhenFn } from '../../kernel';
import { CONTACTS_PROVIDER, type MEETINGS_JOIN_COMMAND } from '../../contracts';
import { loadLazy } from './chunk';
import { meetingsState, MEETINGS_PATH, ROOMS_PATH } from './state';

/*
 * Titles, reasons and the navigation entry are boot strings (`locales/`): the commands exist from
 * sign-in. Their palette words and whether they may run come with the later part (`later.ts`).
 */
const onScreen: WhenFn = (ctx) => ctx.route.startsWith(MEETINGS_PATH);
/** A meeting's (or a room's) occurrence key: an entity's action, a button; without it, the meeting shown. */
const meeting = { key: 'string' } as const;
/** The meeting page's commands exist while its media is joined (Ctrl+D and Ctrl+E as other meeting products have them). */
const inMeeting: WhenFn = () => meetingsState.live !== null;
/** "Meet now ▸ Bob": the palette asks for the contact; the rule on the contact is checked when it runs. */
const meetNowArgs = [{ name: 'contact', titleKey: 'meetings:args.contact', kind: 'choice', provider: CONTACTS_PROVIDER }] as const;
const joinArgs = [{ name: 'meeting', titleKey: 'meetings:args.meeting', kind: 'choice', provider: 'meetings' }] as const;

/*
 * "New meeting" opens the modal on its Start tab (an instant meeting), "Schedule meeting" on its
 * Schedule tab, from anywhere. The commands on one meeting are listed only on the meetings screen,
 * where that meeting is in view; elsewhere they are a meeting's actions (palette ▸ meeting ▸ Tab).
 */
export const meetingsTable = {
  go: { keys: 'g e', run: (ctx) => ctx.services.get(Navigation).navigate(MEETINGS_PATH) },
  rooms: { keys: 'g o', run: (ctx) => ctx.services.get(Navigation).navigate(ROOMS_PATH) },
  new: { keys: 'n', scope: 'screen' },
  schedule: { keys: 's', scope: 'screen' },
  join: { keys: 'Shift+J', scope: 'screen', args: joinArgs, given: meeting },
  joinById: { keys: 'Shift+I', scope: 'screen' },
  open: { listed: 'never', given: meeting },
  edit: { keys: 'e', scope: 'screen', listed: 'screen', given: meeting },
  delete: { keys: 'Delete', scope: 'screen', listed: 'screen', given: meeting },
  addToCalendar: { keys: 'Shift+D', scope: 'screen', listed: 'screen', given: meeting },
  copyLink: { keys: 'y', scope: 'screen', listed: 'screen', given: meeting },
  calendars: {},
  newRoom: {},
  mute: { keys: '$mod+d', allowInInputs: true, when: inMeeting },
  camera: { keys: '$mod+e', allowInInputs: true, when: inMeeting },
  share: { keys: '$mod+Alt+s', allowInInputs: true, when: inMeeting },
  hand: { keys: '$mod+Alt+h', allowInInputs: true, when: inMeeting },
  participants: { keys: '$mod+Alt+p', allowInInputs: true, when: inMeeting },
  meetingChat: { keys: '$mod+Alt+c', allowInInputs: true, when: inMeeting },
  devices: { when: inMeeting },
  speaker: { keys: '$mod+Alt+w', allowInInputs: true, when: inMeeting },
  leave: { when: inMeeting },
  // In the later part: the invite modal opens at once; the chunk (the offer, the modal) follows.
  meetNow: { args: meetNowArgs, run: 'later' },
  next: { keys: 'j', scope: 'screen', when: 'screen' },
  previous: { keys: 'k', scope: 'screen', when: 'screen' },
} as const satisfies Record<string, CommandRow>;

/** Every row but the navigations and "Meet now" runs in the lazy chunk, with the screen's strings. */
export const meetingsCommands = defineCommands('meetings', meetingsTable, {
  screen: onScreen,
  lazy: () => loadLazy().then(async (m) => (await m.strings(), m.runs)),
});

/** The id other plugins run to join (the dashboard's "Join"), declared in the contract: checked to be this table's. */
export const joinCommandId: typeof MEETINGS_JOIN_COMMAND = meetingsCommands.ids.join;

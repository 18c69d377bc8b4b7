import { Video } from 'lucide-react';
import { subscribe } from 'valtio';
import { definePlugin, provide } from '../../kernel';
import { AdHocInvitesApi, JoinMeetingDialog, MeetingsApi, PeerPresenceApi, TodaysMeetingsApi } from '../../contracts';
import { loadLazy } from './chunk';
import { meetingsCommands } from './commands';
import { adHocInvites, joinMeetingDialog, listenForInvites, meetingsService, todaysMeetings } from './service';
import { AdHocHost } from './ui/AdHocHost';
import { LOBBY_PATH, meetingsState, MEETINGS_PATH, ROOMS_PATH, SCHEDULE_PATH } from './state';

/*
 * The boot part is this manifest, the command table, the state proxy and the boot strings (titles,
 * commands, reasons); the commands' words and enablement and the palette's provider are the later
 * part (`later.ts`); the screens, the modal, the API calls and the palette's entities are one lazy
 * chunk, fetched after the first screen has painted.
 */
/** Meetings and rooms: list, detail, the create/edit modal, join, rooms, external calendars. */
export const meetingsPlugin = definePlugin({
  id: 'meetings',
  titleKey: 'meetings:title',
  i18n: { namespace: 'meetings' },
  provides: [provide(MeetingsApi, (ctx) => meetingsService(ctx.services)), provide(JoinMeetingDialog, () => joinMeetingDialog), provide(TodaysMeetingsApi, () => todaysMeetings), provide(AdHocInvitesApi, (ctx) => adHocInvites(ctx.services))],
  routes: [
    // One route with an optional id: choosing a meeting keeps the same screen.
    { id: 'meetings', path: `${MEETINGS_PATH}/{-$id}`, titleKey: 'meetings:title', component: () => loadLazy().then(async (m) => (await m.strings(), { default: m.MeetingsScreen })) },
    { id: 'meetings.schedule', path: SCHEDULE_PATH, titleKey: 'meetings:commands.schedule', component: () => loadLazy().then(async (m) => (await m.strings(), { default: m.ScheduleScreen })) },
    { id: 'meetings.lobby', path: LOBBY_PATH, titleKey: 'meetings:lobbyTitle', guest: true, component: () => loadLazy().then(async (m) => (await m.strings(), { default: m.LobbyScreen })) },
    { id: 'meetings.rooms', path: `${ROOMS_PATH}/{-$id}`, titleKey: 'meetings:roomsTitle', component: () => loadLazy().then(async (m) => (await m.strings(), { default: m.RoomsScreen })) },
  ],
  nav: [{ id: 'meetings', titleKey: 'meetings:title', to: MEETINGS_PATH, icon: Video, order: 17, command: meetingsCommands.ids.go }],
  // The ad-hoc invite modal opens over any screen (from a chat, a contact, the palette).
  panels: [{ id: 'meetings.adhoc', slot: 'callDock', component: AdHocHost }],
  menus: [{ id: 'meetings.plus', menu: 'plusMenu', command: meetingsCommands.ids.new, order: 40 }],
  commands: meetingsCommands.commands,
  hotkeys: meetingsCommands.hotkeys,
  later: () => import('./later').then((m) => m.later),
  activate(ctx) {
    // The commands read the list, the selection and the permissions; the meeting page's exist while its media is joined.
    ctx.commandsRead((onChange) => subscribe(meetingsState, onChange));
    // "Meet now" needs the colleague available: buttons follow their presence.
    ctx.commandsRead((onChange) => {
      const sub = ctx.services.maybe(PeerPresenceApi)?.onChange(onChange);
      return () => sub?.dispose();
    });
    ctx.afterFirstScreen(() => {
      const listening = listenForInvites(ctx.services);
      return () => listening?.dispose();
    });
    ctx.afterFirstScreen(async () => (await loadLazy()).start(ctx.services), { idle: true });
  },
});

export default meetingsPlugin;

import i18next from 'i18next';
import { ref, subscribe } from 'valtio';
import { Navigation, type LazyRuns, type PaletteEntity, type ServiceLookup } from '../../kernel';
import type { Meeting } from '../../wire/meetings';
import { startAdHoc } from './adhoc/invites';
import { loadFeeds, loadList, loadPermissions, loadRooms, keepRoomsFresh, stopRooms } from './api';
import type { meetingsTable } from './commands';
import { addToCalendar, confirmDelete, copyLink, joinMeeting, meetingByKey, openModal } from './meeting';
import { announceSpeaker, leaveMeeting, toggleCamera, toggleHand, toggleMute, togglePanel, toggleShare } from './media/controls';
import { joinOrder, oneOccurrenceEach } from './model';
import { meetingsState, MEETINGS_PATH, NEW_ROOM_ID, palette, resetMeetingsState, ROOMS_PATH } from './state';
import { strings } from './strings';

export { strings } from './strings';
export { default as MeetingsScreen, ScheduleScreen } from './ui/MeetingsScreen';
export { default as RoomsScreen } from './ui/RoomsScreen';
export { default as LobbyScreen } from './ui/Lobby';
export { JoinByIdDialog } from './ui/JoinByIdDialog';
export { AdHocInviteModal } from './ui/AdHocInviteModal';
export { AdHocInviteCard } from './ui/AdHocInviteCard';
export { invite as inviteAdHoc, onPayload as onAdHocPayload } from './adhoc/invites';

const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A meeting (its next occurrence) or a room in the palette: Enter opens it, Tab offers the rest. */
export function entityFor(m: Meeting, when: string): PaletteEntity {
  const args = { key: m.key };
  const actions = m.is_room
    ? ['open', 'join', 'copyLink']
    : ['open', 'join', 'copyLink', ...(m.editable ? ['edit', 'delete'] : []), ...(m.source === 'uc' ? ['addToCalendar'] : [])];
  return {
    id: `meetings:${m.key}`,
    label: m.meeting_name,
    detail: m.is_room ? undefined : when,
    keywords: [m.meeting_access_code ?? '', m.booked_by, m.is_room ? { key: 'meetings:kindRoom' } : { key: 'meetings:kindMeeting' }].filter(Boolean),
    actions: actions.map((c) => ({ command: `meetings.${c}`, args })),
  };
}

function rebuildEntities(): void {
  const fmt = new Intl.DateTimeFormat(i18next.language, { dateStyle: 'medium', timeStyle: 'short' });
  const now = Date.now();
  const meetings = joinOrder(oneOccurrenceEach(meetingsState.items ?? [], now), now, zone());
  palette.entities = ref([...meetings, ...(meetingsState.rooms ?? [])].map((m) => entityFor(m, m.start ? fmt.format(Date.parse(m.start)) : '')));
}

let started = false;
/** Loads the permissions, the list and the rooms (refreshed), and keeps the palette's entities; returns what stops them. */
export function start(services: ServiceLookup): () => void {
  if (started) return () => undefined;
  started = true;
  void strings();
  void loadPermissions(services);
  void loadList(services);
  void loadRooms(services).then(() => keepRoomsFresh(services));
  void loadFeeds(services);
  const stopAdHoc = startAdHoc(services);
  let last = [meetingsState.items, meetingsState.rooms];
  const unsub = subscribe(meetingsState, () => {
    if (last[0] === meetingsState.items && last[1] === meetingsState.rooms) return;
    last = [meetingsState.items, meetingsState.rooms];
    rebuildEntities();
  });
  const onLanguage = () => rebuildEntities();
  i18next.on('languageChanged', onLanguage);
  return () => {
    started = false;
    stopAdHoc();
    unsub();
    stopRooms();
    i18next.off('languageChanged', onLanguage);
    resetMeetingsState();
  };
}

/** Moves the detail pane to the next or previous row of the list. */
export function step(services: ServiceLookup, by: 1 | -1): void {
  const items = meetingsState.items ?? [];
  if (!items.length) return;
  const at = items.findIndex((m) => m.key === meetingsState.selectedKey);
  const next = items[Math.max(0, Math.min(items.length - 1, at < 0 ? 0 : at + by))]!;
  meetingsState.selectedKey = next.key;
  services.get(Navigation).navigate(`${MEETINGS_PATH}/${next.id}`, { replace: true });
}

/** The palette hands the picked entity; buttons and entity actions an occurrence key. */
const keyOf = (args: { readonly key?: string; readonly meeting?: PaletteEntity }): string | undefined => args.key ?? args.meeting?.id.slice('meetings:'.length);

export const runs: LazyRuns<typeof meetingsTable> = {
  new: (ctx) => openModal(ctx.services, 'start'),
  schedule: (ctx) => openModal(ctx.services, 'schedule'),
  join: (ctx, args) => {
    const m = meetingByKey(keyOf(args));
    if (m) joinMeeting(ctx.services, m);
  },
  joinById: (ctx) => {
    meetingsState.joinByIdOpen = true;
    if (!location.pathname.startsWith(MEETINGS_PATH)) ctx.services.get(Navigation).navigate(MEETINGS_PATH);
  },
  open: (ctx, args) => {
    const m = meetingByKey(args.key);
    if (!m) return;
    if (m.is_room) {
      meetingsState.selectedRoomId = m.id;
      ctx.services.get(Navigation).navigate(`${ROOMS_PATH}/${m.id}`);
    } else {
      meetingsState.selectedKey = m.key;
      ctx.services.get(Navigation).navigate(`${MEETINGS_PATH}/${m.id}`);
    }
  },
  edit: async (ctx, args) => {
    const m = meetingByKey(args.key);
    if (m?.editable) {
      meetingsState.selectedKey = m.key;
      await openModal(ctx.services, 'edit', m.id);
    }
  },
  delete: async (ctx, args) => {
    const m = meetingByKey(args.key);
    if (m?.editable) await confirmDelete(ctx.services, m);
  },
  addToCalendar: async (ctx, args) => {
    const m = meetingByKey(args.key);
    if (m && !m.is_room) await addToCalendar(ctx.services, m);
  },
  copyLink: async (ctx, args) => {
    const m = meetingByKey(args.key);
    if (m) await copyLink(ctx.services, m);
  },
  calendars: (ctx) => {
    meetingsState.feedsOpen = true;
    ctx.services.get(Navigation).navigate(MEETINGS_PATH);
  },
  newRoom: (ctx) => ctx.services.get(Navigation).navigate(`${ROOMS_PATH}/${NEW_ROOM_ID}`),
  mute: () => toggleMute(),
  camera: (ctx) => toggleCamera(ctx.services),
  share: (ctx) => toggleShare(ctx.services),
  hand: () => toggleHand(),
  participants: () => togglePanel('participants'),
  meetingChat: () => togglePanel('chat'),
  devices: () => togglePanel('devices'),
  speaker: (ctx) => announceSpeaker(ctx.services),
  leave: () => leaveMeeting(),
  next: (ctx) => step(ctx.services, 1),
  previous: (ctx) => step(ctx.services, -1),
};

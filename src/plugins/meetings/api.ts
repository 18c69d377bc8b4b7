import { Api, ApiError, Notifications, Session, type ServiceLookup } from '../../kernel';
import { UcSettings } from '../../wire/ucSettings';
import {
  CalendarFeed,
  CalendarFeedsResponse,
  JoinResponse,
  Lobby,
  Meeting,
  MeetingInfo,
  MeetingMedia,
  MeetingPermissions,
  MeetingPhones,
  WaitingRoom,
  MeetingsPage,
  ROOM_REFRESH_AFTER_UPDATE_MS,
  RoomsResponse,
  type CalendarFeedInput,
  type LobbyJoin,
  type MeetingInput,
  type RoomInput,
} from '../../wire/meetings';
import { log } from './log';
import { meetingsState, PAGE_SIZE } from './state';

const DAY = 86_400_000;
/** The list's window: from yesterday (today's ended meetings stay in view) to two months on. */
const windowFrom = (now: number) => new Date(now - DAY).toISOString();
const windowTo = (now: number) => new Date(now + 60 * DAY).toISOString();

/** The server's words for a refusal, else none (the caller says "please try again"). */
export const serverMessage = (err: unknown): string | undefined => (err instanceof ApiError && err.status < 500 ? err.body.message : undefined);

export async function loadPermissions(s: ServiceLookup): Promise<void> {
  try {
    meetingsState.permissions = await s.get(Api).get('/v1/meetings/permissions', undefined, MeetingPermissions);
  } catch (err) {
    log.warn('permissions not read', err);
  }
}

/** Which list a response belongs to: a newer filter or search makes an older answer stale. */
let listVersion = 0;

/** The first page of the list for the current filter and search. */
export async function loadList(s: ServiceLookup): Promise<void> {
  const version = ++listVersion;
  const now = Date.now();
  try {
    const page = await s.get(Api).get(
      '/v1/meetings',
      { from: windowFrom(now), to: windowTo(now), filter: meetingsState.filter ?? undefined, search: meetingsState.search, offset: 0, limit: PAGE_SIZE },
      MeetingsPage,
    );
    if (version !== listVersion) return;
    meetingsState.items = page.items;
    meetingsState.total = page.total;
    meetingsState.loadFailed = false;
  } catch (err) {
    if (version !== listVersion) return;
    meetingsState.loadFailed = meetingsState.items === null;
    log.error('list failed', err);
  }
}

/** "Show more": the next page, appended. */
export async function loadMore(s: ServiceLookup): Promise<void> {
  const items = meetingsState.items;
  if (!items || meetingsState.loadingMore || items.length >= meetingsState.total) return;
  const version = listVersion;
  meetingsState.loadingMore = true;
  const now = Date.now();
  try {
    const page = await s.get(Api).get(
      '/v1/meetings',
      { from: windowFrom(now), to: windowTo(now), filter: meetingsState.filter ?? undefined, search: meetingsState.search, offset: items.length, limit: PAGE_SIZE },
      MeetingsPage,
    );
    if (version !== listVersion) return;
    const known = new Set(items.map((m) => m.key));
    meetingsState.items = [...items, ...page.items.filter((m) => !known.has(m.key))];
    meetingsState.total = page.total;
  } catch (err) {
    log.error('more failed', err);
    s.get(Notifications).toast({ titleKey: 'meetings:list.moreFailed', tone: 'error' });
  } finally {
    meetingsState.loadingMore = false;
  }
}

export const fetchMeeting = (s: ServiceLookup, id: number) => s.get(Api).get(`/v1/meetings/${id}`, undefined, Meeting);
export const createMeeting = (s: ServiceLookup, input: MeetingInput) => s.get(Api).post('/v1/meetings', input, Meeting);
export const updateMeeting = (s: ServiceLookup, id: number, input: MeetingInput) => s.get(Api).put(`/v1/meetings/${id}`, input, Meeting);

/** The join popup: a meeting or room by its ID (and PIN), when its window is open. */
export const joinByCode = (s: ServiceLookup, access_code: string, pin: string | null) => s.get(Api).post('/v1/meetings/join', { access_code, pin }, JoinResponse);

// ---- the meeting window's lobby ---------------------------------------------------------------

export const fetchMeetingInfo = (s: ServiceLookup, slug: string) => s.get(Api).get(`/v1/meetings/by-slug/${encodeURIComponent(slug)}`, undefined, MeetingInfo);
/** Takes the window's place in the lobby, or renews it (the heartbeat). */
export const enterLobby = (s: ServiceLookup, id: number, body: LobbyJoin) => s.get(Api).post(`/v1/meetings/${id}/presence`, body, Lobby);
/** The meeting's videoroom, its PIN and TURN credentials: only for who came through the lobby. */
export const joinMedia = (s: ServiceLookup, id: number) => s.get(Api).post(`/v1/meetings/${id}/media`, {}, MeetingMedia);
/** The user's "start meetings with video" setting; off when it cannot be read (the camera stays private). */
export function startWithVideo(s: ServiceLookup): Promise<boolean> {
  const session = s.maybe(Session);
  // A guest has no settings: the camera starts off, as the setting's default has it.
  if (!session) return Promise.resolve(false);
  return s
    .get(Api)
    .get(`/v1/users/${session.userId}/settings/uc`, undefined, UcSettings)
    .then((u) => u.start_with_video, () => false);
}
/** The host's rights over the meeting's media (the server checks them: booker or moderator). */
export const moderateParticipant = (s: ServiceLookup, id: number, feed: number, mid: string, mute: boolean) => s.get(Api).post(`/v1/meetings/${id}/media/moderate`, { feed, mid, mute });
export const removeParticipant = (s: ServiceLookup, id: number, feed: number) => s.get(Api).post(`/v1/meetings/${id}/media/remove`, { feed });
export const endForAll = (s: ServiceLookup, id: number) => s.get(Api).delete(`/v1/meetings/${id}/media`);
export const readWaiting = (s: ServiceLookup, id: number) => s.get(Api).get(`/v1/meetings/${id}/media/waiting`, undefined, WaitingRoom);
export const admit = (s: ServiceLookup, id: number, occupant: number, yes: boolean) => s.get(Api).post(`/v1/meetings/${id}/media/admit`, { occupant, admit: yes });
/** The phones dialled in; with `wait` (the `state` last read), once they are no longer so. */
export const readPhones = (s: ServiceLookup, id: number, wait?: string, signal?: AbortSignal) =>
  s.get(Api).get(`/v1/meetings/${id}/media/phones`, wait ? { wait } : undefined, MeetingPhones, signal);
export const mutePhone = (s: ServiceLookup, id: number, phone: number, mute: boolean) => s.get(Api).post(`/v1/meetings/${id}/media/phones/mute`, { phone, mute });
export const removePhone = (s: ServiceLookup, id: number, phone: number) => s.get(Api).post(`/v1/meetings/${id}/media/phones/remove`, { phone });
export const readLobby = (s: ServiceLookup, id: number) => s.get(Api).get(`/v1/meetings/${id}/presence`, undefined, Lobby);
/** Kept alive past the window's closing, so that the place is given up rather than left to lapse. */
export const leaveLobby = (s: ServiceLookup, id: number, client: string) =>
  s.get(Api).raw('DELETE', `/v1/meetings/${id}/presence/${encodeURIComponent(client)}`, { keepalive: true });

/** Deletes a meeting with the catalogue's toasts: MEETING_DELETED (4 s), or OOP_DELETE with the server's words. */
export async function deleteMeeting(s: ServiceLookup, id: number): Promise<boolean> {
  const notify = s.get(Notifications);
  try {
    await s.get(Api).delete(`/v1/meetings/${id}`);
  } catch (err) {
    log.warn('delete failed', err);
    const message = serverMessage(err);
    notify.toast({ titleKey: 'meetings:toasts.deleteFailed', ...(message ? { message } : { messageKey: 'meetings:toasts.tryAgain' }), tone: 'error' });
    return false;
  }
  if (meetingsState.items) meetingsState.items = meetingsState.items.filter((m) => m.id !== id);
  notify.toast({ titleKey: 'meetings:toasts.success', messageKey: 'meetings:toasts.deleted', tone: 'success', timeoutMs: 4000 });
  return true;
}

/** "Add to calendar": the meeting as an .ics file, saved by the browser. */
export async function downloadIcs(s: ServiceLookup, id: number, name: string): Promise<void> {
  try {
    const res = await s.get(Api).raw('GET', `/v1/meetings/${id}/ics`);
    const blob = await res.blob();
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `${name.replace(/[\\/:*?"<>|]+/g, '').trim().slice(0, 60) || 'meeting'}.ics`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (err) {
    log.warn('ics failed', err);
    s.get(Notifications).toast({ titleKey: 'meetings:toasts.icsFailed', tone: 'error' });
  }
}

// ---- rooms -------------------------------------------------------------------------------------

let roomsTimer: ReturnType<typeof setTimeout> | null = null;

export async function loadRooms(s: ServiceLookup): Promise<void> {
  try {
    const r = await s.get(Api).get('/v1/rooms', undefined, RoomsResponse);
    meetingsState.rooms = r.rooms;
    meetingsState.roomRefreshMs = r.refresh_interval_ms;
    meetingsState.roomsFailed = false;
  } catch (err) {
    meetingsState.roomsFailed = meetingsState.rooms === null;
    log.error('rooms failed', err);
  }
}

/** The rooms list refreshes every room_refresh_interval_ms, and 31 s after a change (others' clients catch up by then). */
export function keepRoomsFresh(s: ServiceLookup, afterUpdate = false): void {
  if (roomsTimer) clearTimeout(roomsTimer);
  roomsTimer = setTimeout(
    () => void loadRooms(s).then(() => keepRoomsFresh(s)),
    afterUpdate ? ROOM_REFRESH_AFTER_UPDATE_MS : meetingsState.roomRefreshMs,
  );
}

export function stopRooms(): void {
  if (roomsTimer) clearTimeout(roomsTimer);
  roomsTimer = null;
}

export async function saveRoom(s: ServiceLookup, id: number | null, input: RoomInput): Promise<Meeting> {
  const api = s.get(Api);
  const room = id === null ? await api.post('/v1/rooms', input, Meeting) : await api.put(`/v1/rooms/${id}`, input, Meeting);
  meetingsState.rooms = [...(meetingsState.rooms ?? []).filter((r) => r.id !== room.id), room].sort((a, b) => a.meeting_name.localeCompare(b.meeting_name));
  keepRoomsFresh(s, true);
  return room;
}

export async function deleteRoom(s: ServiceLookup, id: number): Promise<boolean> {
  try {
    await s.get(Api).delete(`/v1/rooms/${id}`);
  } catch (err) {
    const message = serverMessage(err);
    s.get(Notifications).toast({ titleKey: 'meetings:toasts.deleteFailed', ...(message ? { message } : { messageKey: 'meetings:toasts.tryAgain' }), tone: 'error' });
    return false;
  }
  meetingsState.rooms = (meetingsState.rooms ?? []).filter((r) => r.id !== id);
  keepRoomsFresh(s, true);
  s.get(Notifications).toast({ titleKey: 'meetings:toasts.success', messageKey: 'meetings:toasts.roomDeleted', tone: 'success', timeoutMs: 4000 });
  return true;
}

// ---- external calendars ------------------------------------------------------------------------

export async function loadFeeds(s: ServiceLookup): Promise<void> {
  try {
    meetingsState.feeds = (await s.get(Api).get('/v1/calendar-feeds', undefined, CalendarFeedsResponse)).feeds;
  } catch (err) {
    log.warn('feeds failed', err);
  }
}

export async function addFeed(s: ServiceLookup, input: CalendarFeedInput): Promise<void> {
  const feed = await s.get(Api).post('/v1/calendar-feeds', input, CalendarFeed);
  meetingsState.feeds = [...(meetingsState.feeds ?? []), feed];
}

export async function refreshFeed(s: ServiceLookup, id: number): Promise<void> {
  const feed = await s.get(Api).post(`/v1/calendar-feeds/${id}/refresh`, undefined, CalendarFeed);
  meetingsState.feeds = (meetingsState.feeds ?? []).map((f) => (f.id === id ? feed : f));
}

export async function removeFeed(s: ServiceLookup, id: number): Promise<void> {
  await s.get(Api).delete(`/v1/calendar-feeds/${id}`);
  meetingsState.feeds = (meetingsState.feeds ?? []).filter((f) => f.id !== id);
}

import i18next from 'i18next';
import { Api, Dialogs, Navigation, Notifications, Session, type ServiceLookup } from '../../kernel';
import { PresenceApi } from '../../contracts';
import type { Meeting } from '../../wire/meetings';
import { createMeeting, deleteMeeting, deleteRoom, downloadIcs, fetchMeeting, loadList, serverMessage, updateMeeting } from './api';
import { log } from './log';
import { readCanCreate } from './canCreate';
import { checkForm, COPY_RESET_MS, joinState, meetingWindowUrl, REOPEN_AFTER_FAILURE_MS, type Checked, type MeetingForm, type ModalTab, type WindowParams } from './model';
import { meetingsState, MEETINGS_PATH, ROOMS_PATH, SCHEDULE_PATH, selectedMeeting } from './state';

/*
 * What a meeting's buttons and commands do, shared by the screens and the palette's runs.
 */

const currentPath = () => globalThis.location?.pathname ?? '';

/** The meeting or room an action names by its occurrence key, else the one shown. */
export function meetingByKey(key: string | undefined): Meeting | undefined {
  if (!key) return selectedMeeting() ?? meetingsState.rooms?.find((r) => r.id === meetingsState.selectedRoomId);
  return meetingsState.items?.find((m) => m.key === key) ?? meetingsState.rooms?.find((r) => r.key === key);
}

export const isWebMeetingManagement = (s: ServiceLookup): boolean => s.get(Session).config.features.webMeetingManagement;

/**
 * Opens the modal on a tab. Without web meeting management there is nothing to schedule: the user
 * is told so and offered the rooms, which are always open to join.
 */
export async function openModal(s: ServiceLookup, tab: ModalTab, editingId: number | null = null): Promise<void> {
  if (tab !== 'edit' && (meetingsState.canCreate ?? (await readCanCreate(s))) === false && isWebMeetingManagement(s)) {
    // Allowed to nobody of the account's kind (limited access), whatever the organisation does.
    s.get(Notifications).toast({ titleKey: 'meetings:reasons.noCreate', tone: 'info' });
    return;
  }
  if (tab !== 'edit' && !isWebMeetingManagement(s)) {
    const { confirmed } = await s.get(Dialogs).confirm({ titleKey: 'meetings:noCreate.title', messageKey: 'meetings:noCreate.body', confirmLabelKey: 'meetings:noCreate.rooms' });
    if (confirmed) s.get(Navigation).navigate(ROOMS_PATH);
    return;
  }
  meetingsState.modal = { tab, editingId, seed: null };
  if (!currentPath().startsWith(MEETINGS_PATH)) s.get(Navigation).navigate(MEETINGS_PATH);
}

/**
 * Join: opens the meeting's window (the loading page named for the meeting first, then the lobby at
 * the meeting's address). Outside the join window it says when it opens instead.
 */
export function joinMeeting(s: ServiceLookup, m: Meeting, now = Date.now()): void {
  const notify = s.get(Notifications);
  const state = joinState(m, now);
  if (state.kind !== 'open') {
    const at = state.kind === 'early' ? new Intl.DateTimeFormat(i18next.language, { dateStyle: 'medium', timeStyle: 'short' }).format(state.opensAt) : '';
    notify.toast({ titleKey: `meetings:join.${state.kind}`, values: { at }, tone: 'info' });
    return;
  }
  const invitees = m.attendees.flatMap((a) => (a.email ? [a.email] : []));
  void openMeetingWindow(s, m.id, m.meeting_name, (p) => meetingWindowUrl(m.url!, { ...p, invitees }));
}

/** Renews the session before the window opens on it; false when it could not be kept alive. */
async function keepSessionAlive(s: ServiceLookup): Promise<boolean> {
  try {
    await s.get(Api).renew();
    return true;
  } catch (err) {
    log.warn('session not kept alive for the meeting window', err);
    return false;
  }
}

/**
 * The window named for the meeting. It opens at once, while the user's gesture still allows a
 * window, with a loading page titled with the meeting's name; the session is kept alive meanwhile
 * and the window then goes on to the address `urlOf` builds (with `ssid`, the presence `state`
 * and, when the session could not be kept alive, `show_login_prompt=true`).
 */
export async function openMeetingWindow(s: ServiceLookup, id: number, name: string, urlOf: (p: WindowParams) => string): Promise<void> {
  const notify = s.get(Notifications);
  const win = window.open('', `uc-meeting-${id}`);
  if (!win) {
    notify.toast({ titleKey: 'meetings:join.blocked', tone: 'warning' });
    return;
  }
  const loading = i18next.t('meetings:join.loading', { name });
  try {
    win.document.title = loading;
    win.document.documentElement.lang = i18next.language;
    const status = win.document.createElement('p');
    status.setAttribute('role', 'status');
    status.textContent = loading;
    win.document.body.replaceChildren(status);
  } catch {
    /* a window of that name already shows the meeting: it is only moved on */
  }
  win.opener = null;
  const alive = await keepSessionAlive(s);
  win.location.replace(urlOf({ ssid: s.get(Api).sessionId, presence: s.maybe(PresenceApi)?.ownState(), showLoginPrompt: !alive }));
  notify.announce(i18next.t('meetings:join.opened', { name }));
}

let copyTimer: ReturnType<typeof setTimeout> | null = null;
/** Which meeting's link was just copied ("Copied" shows for 3 s). */
export const copied = { key: null as string | null, listeners: new Set<() => void>() };

export async function copyLink(s: ServiceLookup, m: Meeting): Promise<void> {
  if (!m.url) return;
  try {
    await navigator.clipboard.writeText(m.url);
  } catch {
    s.get(Notifications).toast({ titleKey: 'meetings:detail.copyFailed', tone: 'error' });
    return;
  }
  copied.key = m.key;
  copied.listeners.forEach((l) => l());
  s.get(Notifications).announce(i18next.t('meetings:detail.copied'));
  if (copyTimer) clearTimeout(copyTimer);
  copyTimer = setTimeout(() => {
    copied.key = null;
    copied.listeners.forEach((l) => l());
  }, COPY_RESET_MS);
}

/** Asks first; deleting the meeting shown goes back to the list. */
export async function confirmDelete(s: ServiceLookup, m: Meeting): Promise<void> {
  const { confirmed } = await s.get(Dialogs).confirm({
    titleKey: m.is_room ? 'meetings:delete.roomTitle' : 'meetings:delete.title',
    messageKey: m.is_recurring ? 'meetings:delete.series' : 'meetings:delete.body',
    values: { name: m.meeting_name },
    confirmLabelKey: 'meetings:delete.confirm',
    tone: 'danger',
  });
  if (!confirmed) return;
  if (m.is_room) {
    if (await deleteRoom(s, m.id)) s.get(Navigation).navigate(ROOMS_PATH, { replace: true });
    return;
  }
  const shown = selectedMeeting()?.id === m.id;
  if ((await deleteMeeting(s, m.id)) && shown) {
    meetingsState.selectedKey = null;
    s.get(Navigation).navigate(MEETINGS_PATH, { replace: true });
  }
}

export const addToCalendar = (s: ServiceLookup, m: Meeting) => downloadIcs(s, m.id, m.meeting_name);

export function closeModal(s: ServiceLookup): void {
  meetingsState.modal = null;
  if (currentPath() === SCHEDULE_PATH) s.get(Navigation).navigate(MEETINGS_PATH, { replace: true });
}

/**
 * The modal's save (the specification's "Meeting modal" state). The rules first: a refusal keeps
 * the modal open with what was typed (the returned errors). Then the modal closes and the request
 * goes: a new meeting opens at `meetings/{id}` (an instant one is joined, a scheduled one's details
 * are fetched), an update goes back to `meetings` without a selection, and a failure reopens the
 * modal after 175 ms with what was typed and an error toast (the server's words when it gave some).
 */
export async function saveMeetingForm(s: ServiceLookup, tab: ModalTab, editingId: number | null, typed: MeetingForm, now: number, zone: string): Promise<Checked> {
  const checked = checkForm(typed, tab, now, zone);
  if (!checked.input) return checked;
  const input = checked.input;
  const nav = s.get(Navigation);
  const notify = s.get(Notifications);
  closeModal(s);
  try {
    if (editingId !== null) {
      await updateMeeting(s, editingId, input);
      notify.toast({ titleKey: 'meetings:toasts.updated', tone: 'success' });
      void loadList(s);
      nav.navigate(MEETINGS_PATH);
      return checked;
    }
    const created = await createMeeting(s, input);
    notify.toast({ titleKey: tab === 'start' ? 'meetings:toasts.started' : 'meetings:toasts.scheduled', tone: 'success' });
    nav.navigate(`${MEETINGS_PATH}/${created.id}`);
    if (tab === 'start') joinMeeting(s, created, now);
    void loadList(s);
    if (tab !== 'start') void fetchMeeting(s, created.id).catch((err: unknown) => log.warn('details not read', err));
  } catch (err) {
    log.warn('save failed', err);
    const message = serverMessage(err);
    notify.toast({ titleKey: 'meetings:toasts.saveFailed', ...(message ? { message } : { messageKey: 'meetings:toasts.tryAgain' }), tone: 'error' });
    setTimeout(() => (meetingsState.modal = { tab, editingId, seed: { form: checked.form } }), REOPEN_AFTER_FAILURE_MS);
  }
  return checked;
}

import { CalendarDateTime, fromAbsolute, parseDate, toZoned } from '@internationalized/date';
import {
  isBookmark,
  MEETING_INCREMENT_MINUTES,
  MEETING_INVITEES_MAX,
  MEETING_JOIN_WINDOW_MS,
  MEETING_MAX_DURATION_MS,
  MEETING_MIN_DURATION_MS,
  type Meeting,
  type MeetingInput,
} from '../../wire/meetings';

/*
 * The meeting rules of the specification, pure: the modal, the detail pane and the commands use
 * them, and the unit tests hold them with a fixed clock in several zones. The server checks the same
 * input with the same wire rules (src/wire/meetings.ts); the words the user reads are ours.
 */

const MIN = 60_000;
const INCREMENT_MS = MEETING_INCREMENT_MINUTES * MIN;
/** A new meeting's length, and where an end before the start goes back to: four increments. */
export const DEFAULT_LENGTH_MS = 4 * INCREMENT_MS;
/** The attendee tooltip names about this many; the rest are counted. */
export const TOOLTIP_NAMES_MAX = 47;
/** The avatar stack draws this many faces, then "+n". */
export const AVATAR_STACK_MAX = 2;
/** "Copied" shows this long after a link is copied. */
export const COPY_RESET_MS = 3000;
/** A failed save reopens the modal after this long. */
export const REOPEN_AFTER_FAILURE_MS = 175;
/** What a PIN looks like when it is not shown; typed at join it means "no PIN". */
export const MASKED_PIN = '****';

/**
 * What a phone dials to join the meeting's audio: each dial-in number, the meeting ID and the phone
 * PIN (server/meetings/dial-in.ts); none for those not given the PIN.
 */
export function dialIns(m: Pick<Meeting, 'phone_numbers' | 'phone_pin' | 'meeting_access_code'>): string[] {
  if (!m.phone_pin || !m.meeting_access_code) return [];
  return m.phone_numbers.map((n) => `${n}*${m.meeting_access_code}*${m.phone_pin}`);
}

// ---- times -------------------------------------------------------------------------------------

const TIME = /^(1[0-2]|0?[1-9]):([0-5]\d) ?([AaPp])[Mm]$/;

/** "h:mm AM" or "h:mm PM" to minutes after midnight; anything else is null. */
export function parseTime(text: string): number | null {
  const m = TIME.exec(text.trim());
  if (!m) return null;
  const hour = Number(m[1]) % 12;
  return (hour + (m[3]!.toUpperCase() === 'P' ? 12 : 0)) * 60 + Number(m[2]);
}

/** Minutes after midnight as "h:mm AM/PM" (the specification's format, in every language). */
export function formatTime(minutes: number): string {
  const h = Math.floor(minutes / 60) % 24;
  const m = minutes % 60;
  return `${h % 12 || 12}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

/** The next increment at or after `ms` (a past start moves there). */
export const roundUpToIncrement = (ms: number): number => Math.ceil(ms / INCREMENT_MS) * INCREMENT_MS;

/** A wall-clock date ("2026-03-08") and time in `zone` as an instant; a time a DST jump skips moves forward. */
export function instantOf(date: string, minutes: number, zone: string): number {
  const d = parseDate(date);
  return toZoned(new CalendarDateTime(d.year, d.month, d.day, Math.floor(minutes / 60), minutes % 60), zone, 'later').toDate().getTime();
}

/** An instant as the wall-clock date and minutes in `zone`. */
export function wallClockOf(ms: number, zone: string): { date: string; minutes: number } {
  const z = fromAbsolute(ms, zone);
  return { date: `${String(z.year).padStart(4, '0')}-${String(z.month).padStart(2, '0')}-${String(z.day).padStart(2, '0')}`, minutes: z.hour * 60 + z.minute };
}

// ---- the modal's form --------------------------------------------------------------------------

export type ModalTab = 'start' | 'schedule' | 'edit';
/** 0: does not repeat; otherwise the specification's `occurs` (1 daily, 2 weekly, 3 fortnightly). */
export type Occurs = 0 | 1 | 2 | 3;

export type FormInvitee = { kind: 'user'; userId: number; name: string } | { kind: 'email'; email: string; name: string };

export interface MeetingForm {
  name: string;
  description: string;
  startDate: string;
  startTime: string;
  endDate: string;
  endTime: string;
  occurs: Occurs;
  /** Monday first. */
  days: boolean[];
  bookmarks: string[];
  /** What is typed in the bookmarks field and not yet accepted. */
  bookmarkText: string;
  pin: string;
  password: string;
  waitingRoom: boolean;
  invitees: FormInvitee[];
}

export type FormField = 'name' | 'startTime' | 'endTime' | 'end' | 'days' | 'bookmarks' | 'pin' | 'password' | 'invitees';
/** Keys of `meetings:errors.*`; the server's MEETING_ERRORS have the same names. */
export type RuleError = 'nameRequired' | 'badTime' | 'endTooSoon' | 'tooLong' | 'durationZero' | 'weekdayRequired' | 'bookmark' | 'pin' | 'password' | 'tooManyInvitees';

const NO_DAYS = () => [false, false, false, false, false, false, false];

/** A new meeting: starting at the next increment, four increments long. */
export function newForm(now: number, zone: string, invitees: FormInvitee[] = []): MeetingForm {
  const start = roundUpToIncrement(now);
  const s = wallClockOf(start, zone);
  const e = wallClockOf(start + DEFAULT_LENGTH_MS, zone);
  return {
    name: '',
    description: '',
    startDate: s.date,
    startTime: formatTime(s.minutes),
    endDate: e.date,
    endTime: formatTime(e.minutes),
    occurs: 0,
    days: NO_DAYS(),
    bookmarks: [],
    bookmarkText: '',
    pin: '',
    password: '',
    waitingRoom: false,
    invitees,
  };
}

/** The form of an existing meeting (its series' first occurrence when recurring). */
export function formOf(m: Meeting, zone: string): MeetingForm {
  const startMs = Date.parse(m.series_start ?? m.start ?? new Date().toISOString());
  const s = wallClockOf(startMs, zone);
  const e = wallClockOf(startMs + (m.duration_ms ?? DEFAULT_LENGTH_MS), zone);
  return {
    name: m.meeting_name,
    description: m.meeting_description,
    startDate: s.date,
    startTime: formatTime(s.minutes),
    endDate: e.date,
    endTime: formatTime(e.minutes),
    occurs: (m.recurrence?.occurs ?? 0) as Occurs,
    days: m.recurrence?.day_in_week.length === 7 ? [...m.recurrence.day_in_week] : NO_DAYS(),
    bookmarks: [...m.bookmarks],
    bookmarkText: '',
    pin: m.pin ?? '',
    password: m.password ?? '',
    waitingRoom: m.waiting_room,
    invitees: m.attendees
      .filter((a) => a.user_id !== m.booked_by_id || a.user_id === null)
      .map((a): FormInvitee => (a.user_id !== null ? { kind: 'user', userId: a.user_id, name: a.name } : { kind: 'email', email: a.email ?? '', name: a.name })),
  };
}

/** An end date before the start date goes back to the start plus four increments. */
export function withEndDateChecked(form: MeetingForm, zone: string): MeetingForm {
  if (form.endDate >= form.startDate) return form;
  const start = parseTime(form.startTime);
  if (start === null) return { ...form, endDate: form.startDate };
  const e = wallClockOf(instantOf(form.startDate, start, zone) + DEFAULT_LENGTH_MS, zone);
  return { ...form, endDate: e.date, endTime: formatTime(e.minutes) };
}

/** Bookmarks typed with spaces between them: the valid ones are taken, the others stay typed. */
export function splitBookmarks(text: string): { accepted: string[]; rest: string } {
  const accepted: string[] = [];
  const rest: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) (isBookmark(word) ? accepted : rest).push(word);
  return { accepted, rest: rest.join(' ') };
}

/** A PIN or password: empty, or exactly four digits. */
export const isCode = (text: string): boolean => text === '' || /^\d{4}$/.test(text);
/** Sent as four digits (a PIN is text: "0042" stays "0042"); none is null. */
export const codeToWire = (text: string): string | null => (text === '' ? null : text.padStart(4, '0'));

export interface Checked {
  errors: Partial<Record<FormField, RuleError>>;
  /** The form as it should now read (bookmarks taken from the text, a past start moved on). */
  form: MeetingForm;
  /** The request, when there are no errors. */
  input: MeetingInput | null;
}

/**
 * Every rule of the modal. `tab` start is an instant meeting (now, four increments); schedule moves
 * a past start to the next increment (keeping the length); edit leaves the start where it is.
 */
export function checkForm(original: MeetingForm, tab: ModalTab, now: number, zone: string): Checked {
  const errors: Checked['errors'] = {};
  const { accepted, rest } = splitBookmarks(original.bookmarkText);
  let form: MeetingForm = { ...original, bookmarks: [...new Set([...original.bookmarks, ...accepted])], bookmarkText: rest };
  if (rest) errors.bookmarks = 'bookmark';
  if (!form.name.trim()) errors.name = 'nameRequired';
  if (!isCode(form.pin)) errors.pin = 'pin';
  if (!isCode(form.password)) errors.password = 'password';
  if (form.invitees.length > MEETING_INVITEES_MAX) errors.invitees = 'tooManyInvitees';
  let times: Pick<MeetingInput, 'instant' | 'start' | 'end'> = { instant: true };
  if (tab !== 'start') {
    const startMin = parseTime(form.startTime);
    const endMin = parseTime(form.endTime);
    if (startMin === null) errors.startTime = 'badTime';
    if (endMin === null) errors.endTime = 'badTime';
    if (startMin !== null && endMin !== null) {
      let start = instantOf(form.startDate, startMin, zone);
      let end = instantOf(form.endDate, endMin, zone);
      if (tab === 'schedule' && start < now) {
        const moved = roundUpToIncrement(now);
        end += moved - start;
        start = moved;
        const s = wallClockOf(start, zone);
        const e = wallClockOf(end, zone);
        form = { ...form, startDate: s.date, startTime: formatTime(s.minutes), endDate: e.date, endTime: formatTime(e.minutes) };
      }
      const length = end - start;
      if (length === 0) errors.end = 'durationZero';
      else if (length < MEETING_MIN_DURATION_MS) errors.end = 'endTooSoon';
      else if (length > MEETING_MAX_DURATION_MS) errors.end = 'tooLong';
      times = { instant: false, start: new Date(start).toISOString(), end: new Date(end).toISOString() };
    }
    if ((form.occurs === 2 || form.occurs === 3) && !form.days.some(Boolean)) errors.days = 'weekdayRequired';
  }
  if (Object.keys(errors).length) return { errors, form, input: null };
  const recurring = tab !== 'start' && form.occurs !== 0;
  return {
    errors,
    form,
    input: {
      meeting_name: form.name.trim(),
      meeting_description: form.description,
      bookmarks: form.bookmarks,
      pin: codeToWire(form.pin),
      password: codeToWire(form.password),
      waiting_room: form.waitingRoom,
      ...times,
      time_zone: zone,
      recurrence: recurring ? { occurs: form.occurs as 1 | 2 | 3, day_in_week: form.days, until: null } : null,
      invitees: form.invitees.map((i) => (i.kind === 'user' ? { user_id: i.userId, is_moderator: false } : { email: i.email, is_moderator: false })),
    },
  };
}

// ---- join --------------------------------------------------------------------------------------

export type JoinState = { kind: 'open' } | { kind: 'early'; opensAt: number } | { kind: 'ended' } | { kind: 'noId' };

/** From 10 minutes before the start until the end, and only with an ID; a room is always open. */
export function joinState(m: Pick<Meeting, 'meeting_access_code' | 'is_room' | 'start' | 'end' | 'url'>, now: number): JoinState {
  if (!m.meeting_access_code || !m.url) return { kind: 'noId' };
  if (m.is_room) return { kind: 'open' };
  const start = m.start ? Date.parse(m.start) : NaN;
  const end = m.end ? Date.parse(m.end) : NaN;
  if (!Number.isFinite(start) || !Number.isFinite(end)) return { kind: 'noId' };
  if (now >= end) return { kind: 'ended' };
  if (now < start - MEETING_JOIN_WINDOW_MS) return { kind: 'early', opensAt: start - MEETING_JOIN_WINDOW_MS };
  return { kind: 'open' };
}

/** The join popup's PIN: none when empty or the masked '****' (which does nothing); null when it is not a PIN. */
export function pinForJoin(text: string): { pin: string | null } | null {
  const t = text.trim();
  if (t === '' || t === MASKED_PIN) return { pin: null };
  return /^\d{4}$/.test(t) ? { pin: t } : null;
}

/** A meeting ID as typed ("123 456 789" or "123-456-789"): its digits, when there are 6 to 12. */
export function accessCodeOf(text: string): string | null {
  const digits = text.replace(/[\s-]/g, '');
  return /^\d{6,12}$/.test(digits) ? digits : null;
}

/** The meeting window's `state`: xa, dnd or away when the user's own presence is one of those. */
export function presenceParam(state: string | undefined): 'xa' | 'dnd' | 'away' | null {
  switch (state) {
    case 'unavailable':
      return 'xa';
    case 'busy':
    case 'donotdisturb':
      return 'dnd';
    case 'away':
    case 'lunch':
      return 'away';
    default:
      return null;
  }
}

/** What the meeting window is told besides the meeting's address. */
export interface WindowParams {
  /** The session the window was opened from (the access token's `sid`), when known. */
  ssid?: string | null;
  /** The invitees' e-mail addresses. */
  invitees?: readonly string[];
  /** The user's own presence (the window's `state` when it is xa, dnd or away). */
  presence?: string | undefined;
  /** The session could not be kept alive: the window offers sign-in. */
  showLoginPrompt?: boolean;
  /** A PIN typed in the join popup: carried only when it is one (a masked '****' is not). */
  pin?: string | null;
}

/**
 * The meeting window's address: the meeting URL with `ssid`, a repeated `invitees[]`, the presence
 * `state`, `show_login_prompt=true` when the session could not be kept alive, and a valid PIN.
 */
export function meetingWindowUrl(url: string, p: WindowParams = {}): string {
  const u = new URL(url);
  if (p.ssid) u.searchParams.set('ssid', p.ssid);
  for (const i of p.invitees ?? []) u.searchParams.append('invitees[]', i);
  const show = presenceParam(p.presence);
  if (show) u.searchParams.set('state', show);
  if (p.showLoginPrompt) u.searchParams.set('show_login_prompt', 'true');
  if (p.pin && /^\d{4}$/.test(p.pin)) u.searchParams.set('pin', p.pin);
  return u.toString();
}

/** What the lobby reads of its address; anything malformed is ignored rather than trusted. */
export interface LobbyParams {
  ssid: string | null;
  invitees: string[];
  state: 'xa' | 'dnd' | 'away' | null;
  showLoginPrompt: boolean;
  pin: string | null;
}

export function lobbyParams(search: string): LobbyParams {
  const q = new URLSearchParams(search);
  const ssid = q.get('ssid');
  const state = q.get('state');
  const pin = pinForJoin(q.get('pin') ?? '');
  return {
    ssid: ssid && /^[A-Za-z0-9_-]{1,64}$/.test(ssid) ? ssid : null,
    invitees: [...new Set(q.getAll('invitees[]').map((i) => i.trim()).filter((i) => i.includes('@') && i.length <= 254))],
    state: state === 'xa' || state === 'dnd' || state === 'away' ? state : null,
    showLoginPrompt: q.get('show_login_prompt') === 'true',
    pin: pin?.pin ?? null,
  };
}

/** Who arrived in and who left the lobby between two readings (by user: a second window is no arrival). */
export function lobbyChanges<T extends { user_id: number; is_self: boolean }>(before: readonly T[], after: readonly T[]): { arrived: T[]; left: T[] } {
  const was = new Set(before.map((o) => o.user_id));
  const is = new Set(after.map((o) => o.user_id));
  return { arrived: after.filter((o) => !o.is_self && !was.has(o.user_id)), left: before.filter((o) => !o.is_self && !is.has(o.user_id)) };
}

export const canJoin = (m: Parameters<typeof joinState>[0], now: number): boolean => joinState(m, now).kind === 'open';

// ---- permissions -------------------------------------------------------------------------------

export interface Viewer {
  userId: number | null;
  roleId: number | null;
  webMeetingManagement: boolean;
}

/** Editable (and deletable) only when not a room, the product's own, web meeting management on, and booked by the viewer. */
export const canEditMeeting = (m: Pick<Meeting, 'is_room' | 'source' | 'booked_by_id'>, v: Viewer): boolean =>
  !m.is_room && m.source === 'uc' && v.webMeetingManagement && v.userId !== null && m.booked_by_id === v.userId;

/** The rooms booking area: web meeting management and video administration, or an administrator (role 2). */
export const canBookRooms = (v: Viewer, videoAdmin: boolean): boolean => (v.webMeetingManagement && videoAdmin) || v.roleId === 2;

// ---- the list and the detail ------------------------------------------------------------------

/** The title search: case-insensitive, anywhere in the title. */
export const titleMatches = (m: Pick<Meeting, 'meeting_name'>, term: string): boolean => m.meeting_name.toLowerCase().includes(term.trim().toLowerCase());

/** The attendee tooltip: up to about 47 names, then how many more. */
export function attendeeTooltip(names: readonly string[], max = TOOLTIP_NAMES_MAX): { names: string[]; more: number } {
  return { names: names.slice(0, max), more: Math.max(0, names.length - max) };
}

/** The avatar stack: the first faces, then "+n". */
export function avatarStack<T>(people: readonly T[], max = AVATAR_STACK_MAX): { shown: T[]; more: number } {
  return { shown: people.slice(0, max), more: Math.max(0, people.length - max) };
}

export const initialsOf = (name: string): string =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => [...w][0]!.toUpperCase())
    .join('') || '?';

/** The palette's "Join meeting ▸": today's meetings first (by start), then the others by ID. */
export function joinOrder(items: readonly Meeting[], now: number, zone: string): Meeting[] {
  const today = wallClockOf(now, zone).date;
  const isToday = (m: Meeting) => m.start !== null && wallClockOf(Date.parse(m.start), zone).date === today;
  const todays = items.filter(isToday).sort((a, b) => Date.parse(a.start!) - Date.parse(b.start!));
  const others = items.filter((m) => !isToday(m)).sort((a, b) => (a.meeting_access_code ?? '').localeCompare(b.meeting_access_code ?? ''));
  return [...todays, ...others];
}

/** One row per meeting for the palette: the occurrence that has not ended yet, else the last one. */
export function oneOccurrenceEach(items: readonly Meeting[], now: number): Meeting[] {
  const byId = new Map<number, Meeting>();
  for (const m of items) {
    const had = byId.get(m.id);
    const ended = (x: Meeting) => x.end !== null && Date.parse(x.end) <= now;
    if (!had || (ended(had) && !ended(m))) byId.set(m.id, m);
  }
  return [...byId.values()];
}

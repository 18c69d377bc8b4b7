import type { Viewer } from '../auth/viewer';
import type { Queryable } from '../db/types';
import { ApiError, forbidden } from '../errors';
import { ROLE } from '../../src/wire/roles';
import { MEETING_DIAL_IN } from '../../src/wire/services';
import { MEETING_ERRORS, MEETING_INCREMENT_MINUTES, MEETING_JOIN_WINDOW_MS, type Meeting, type MeetingAttendee } from '../../src/wire/meetings';
import type * as z from 'zod/mini';
import { parseOrThrow } from '../errors';
import type { IcsMeeting } from './ics';
import { bitsToDayFlags, durationProblem, joinableSpan, meetingSlug, meetingUrl, occurrences, recurrenceProblem, roundUpPastStart, type Recurrence, type Span, type TimeProblem } from './model';
import * as repo from './repository';

/** Decisions the meeting, room and join routes share; the routes read requests, the repository queries. */

export interface MeetingsConfig {
  webMeetingManagement: boolean;
  /** The base of meeting URLs. */
  meetingUrl: string;
  /** The UID domain of invitations. */
  domain: string;
  now: () => number;
}

/** Invitees by meeting id (Map.groupBy needs a newer Node than the project's minimum). */
export function byMeeting(rows: readonly repo.InviteeRow[]): Map<number, repo.InviteeRow[]> {
  const out = new Map<number, repo.InviteeRow[]>();
  for (const r of rows) {
    const list = out.get(r.meeting_id);
    if (list) list.push(r);
    else out.set(r.meeting_id, [r]);
  }
  return out;
}

export const ms = (d: Date | string | null): number | null => (d === null ? null : new Date(d).getTime());
const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

/** Room booking: administrators, or video administrators where web meeting management is on. */
export async function canBookRooms(q: Queryable, cfg: MeetingsConfig, viewer: Viewer): Promise<boolean> {
  if (viewer.roleId === ROLE.ADMINISTRATOR) return true;
  return cfg.webMeetingManagement && (await repo.isVideoAdmin(q, viewer.userId));
}

/** Edit and delete: not a room, the product's own, web meeting management on, and the caller booked it. */
export const canEditMeeting = (cfg: MeetingsConfig, row: repo.MeetingRow, viewer: Viewer): boolean =>
  row.meeting_type === 'meeting' && cfg.webMeetingManagement && row.booked_by_id === viewer.userId;

const RULE_TEXTS = new Set<string>(Object.values(MEETING_ERRORS));
const problem = (key: TimeProblem, path: string) => new ApiError(400, 'validation_failed', MEETING_ERRORS[key], [{ path, message: MEETING_ERRORS[key] }]);

/** parseOrThrow, with the rule's own words as the message when one of the meeting rules failed. */
export function parseMeetingInput<S extends z.ZodMiniType>(schema: S, data: unknown, what: string): z.output<S> {
  try {
    return parseOrThrow(schema, data, what);
  } catch (err) {
    const known = err instanceof ApiError ? err.details?.find((d) => RULE_TEXTS.has(d.message)) : undefined;
    if (known && err instanceof ApiError) throw new ApiError(400, 'validation_failed', known.message, err.details);
    throw err;
  }
}

export interface TimesInput {
  instant: boolean;
  start?: string | undefined;
  end?: string | undefined;
  duration_ms?: number | undefined;
  recurrence: { occurs: 1 | 2 | 3; day_in_week: boolean[]; until: string | null } | null;
}

/**
 * The meeting's span and recurrence from the modal's fields. A start in the past moves to the next
 * increment (keeping the duration), unless it is the start the meeting already has (an edit of a
 * meeting under way). No end: start plus four increments.
 */
export function resolveTimes(input: TimesInput, now: number, keepStart: number | null): { start: number; durationMs: number; recurrence: Recurrence | null } {
  if (input.end !== undefined && input.duration_ms !== undefined) throw problem('endOrDuration', 'end');
  let start: number;
  if (input.instant) start = now;
  else if (input.start !== undefined) start = Date.parse(input.start);
  else throw new ApiError(400, 'validation_failed', 'A scheduled meeting needs a start', [{ path: 'start', message: 'required' }]);
  const fourSteps = 4 * MEETING_INCREMENT_MINUTES * 60_000;
  const end = input.end !== undefined ? Date.parse(input.end) : start + (input.duration_ms ?? fourSteps);
  const bad = durationProblem(start, end);
  if (bad) throw problem(bad, input.end !== undefined ? 'end' : 'duration_ms');
  const durationMs = end - start;
  if (start !== keepStart) start = roundUpPastStart(start, now);
  let recurrence: Recurrence | null = null;
  if (input.recurrence) {
    recurrence = { occurs: input.recurrence.occurs, dayInWeek: input.recurrence.day_in_week, until: input.recurrence.until ? Date.parse(input.recurrence.until) : null };
    const r = recurrenceProblem(recurrence);
    if (r) throw problem(r, 'recurrence.day_in_week');
    if (recurrence.until !== null && recurrence.until < start) {
      throw new ApiError(400, 'validation_failed', 'The recurrence ends before the first meeting', [{ path: 'recurrence.until', message: 'before_start' }]);
    }
  }
  return { start, durationMs, recurrence };
}

export const recurrenceOf = (row: repo.MeetingRow): Recurrence | null =>
  row.occurs === null ? null : { occurs: row.occurs, dayInWeek: bitsToDayFlags(row.day_in_week), until: ms(row.recurrence_until) };

/**
 * Invitees as stored: colleagues by id (anyone else refused, without saying who exists), e-mail
 * addresses of colleagues as those colleagues, other addresses as guests; duplicates and the
 * booker left out.
 */
export async function resolveInvitees(
  q: Queryable,
  viewer: Viewer,
  input: ReadonlyArray<{ user_id: number; is_moderator: boolean } | { email: string; is_moderator: boolean }>,
): Promise<repo.NewInvitee[]> {
  const ids = input.flatMap((i) => ('user_id' in i ? [i.user_id] : []));
  const known = await repo.colleagueIds(q, viewer.organizationId, ids);
  if (ids.some((id) => !known.has(id))) throw new ApiError(400, 'validation_failed', MEETING_ERRORS.unknownInvitee, [{ path: 'invitees', message: MEETING_ERRORS.unknownInvitee }]);
  const emails = input.flatMap((i) => ('email' in i ? [i.email.toLowerCase()] : []));
  const byEmail = await repo.colleaguesByEmail(q, viewer.organizationId, emails);
  const users = new Map<number, boolean>();
  const guests = new Set<string>();
  for (const i of input) {
    if ('user_id' in i) users.set(i.user_id, (users.get(i.user_id) ?? false) || i.is_moderator);
    else {
      const email = i.email.toLowerCase();
      const colleague = byEmail.get(email);
      if (colleague !== undefined) users.set(colleague, users.get(colleague) ?? false);
      else guests.add(email);
    }
  }
  users.delete(viewer.userId);
  return [
    ...[...users].map(([userId, isModerator]) => ({ userId, email: null, isModerator })),
    ...[...guests].map((email) => ({ userId: null, email, isModerator: false })),
  ];
}

export function toWire(
  cfg: MeetingsConfig,
  row: repo.MeetingRow,
  invitees: readonly repo.InviteeRow[],
  viewer: Viewer,
  opts: { span?: Span; mayBookRooms?: boolean } = {},
): Meeting {
  const start = ms(row.starts_at);
  const span = opts.span ?? (start === null ? null : { start, end: start + row.duration_ms! });
  const invited = invitees.some((i) => i.user_id === viewer.userId);
  const mayKnowCodes = row.booked_by_id === viewer.userId || invited || (row.meeting_type === 'room' && !!opts.mayBookRooms);
  const editable = row.meeting_type === 'room' ? !!opts.mayBookRooms : canEditMeeting(cfg, row, viewer);
  const rec = recurrenceOf(row);
  const attendees: MeetingAttendee[] = invitees.map((i) => ({ user_id: i.user_id, email: i.email, name: i.name, is_moderator: i.is_moderator, is_guest: i.user_id === null }));
  return {
    id: row.id,
    key: `uc:${row.id}:${span?.start ?? 'room'}`,
    meeting_type: row.meeting_type,
    is_room: row.meeting_type === 'room',
    source: 'uc',
    meeting_name: row.name,
    meeting_description: row.description,
    start: iso(span?.start ?? null),
    end: iso(span?.end ?? null),
    duration_ms: row.duration_ms,
    series_start: iso(start),
    time_zone: row.time_zone,
    is_recurring: rec !== null,
    recurrence: rec && { occurs: rec.occurs, day_in_week: rec.dayInWeek, until: iso(rec.until) },
    bookmarks: row.bookmarks,
    meeting_access_code: row.access_code,
    has_pin: row.pin !== null,
    pin: mayKnowCodes ? row.pin : null,
    has_password: row.password !== null,
    password: mayKnowCodes ? row.password : null,
    phone_numbers: [MEETING_DIAL_IN],
    phone_pin: mayKnowCodes ? row.phone_pin : null,
    waiting_room: row.waiting_room,
    member_bypass: row.member_bypass,
    only_mods: row.only_mods,
    is_private: row.is_private,
    ad_hoc: row.ad_hoc,
    max_participants: row.max_participants,
    attendees,
    booked_by: row.booker_name,
    booked_by_id: row.booked_by_id,
    slug: meetingSlug(row.id),
    url: meetingUrl(cfg.meetingUrl, row.booker_username, row.id),
    editable,
    feed_id: null,
  };
}

export function externalToWire(e: repo.ExternalEventRow): Meeting {
  const start = ms(e.starts_at)!;
  const end = ms(e.ends_at)!;
  return {
    id: e.id,
    key: `${e.source}:${e.id}:${start}`,
    meeting_type: 'meeting',
    is_room: false,
    source: e.source,
    meeting_name: e.name,
    meeting_description: e.description,
    start: iso(start),
    end: iso(end),
    duration_ms: Math.min(end - start, 2 ** 31 - 1),
    series_start: iso(start),
    time_zone: 'UTC',
    is_recurring: e.is_recurring,
    recurrence: null,
    bookmarks: [],
    meeting_access_code: null,
    has_pin: false,
    pin: null,
    has_password: false,
    password: null,
    phone_numbers: [],
    phone_pin: null,
    waiting_room: false,
    member_bypass: false,
    only_mods: false,
    is_private: false,
    ad_hoc: false,
    max_participants: null,
    attendees: [],
    booked_by: e.organizer ?? '',
    booked_by_id: null,
    slug: null,
    url: e.url,
    editable: false,
    feed_id: e.feed_id,
  };
}

export function icsOf(cfg: MeetingsConfig, row: repo.MeetingRow, invitees: readonly repo.InviteeRow[]): IcsMeeting {
  const start = ms(row.starts_at)!;
  const rec = recurrenceOf(row);
  const attendees = invitees.filter((i) => i.address).map((i) => ({ name: i.name, email: i.address, moderator: i.is_moderator }));
  return {
    id: row.id,
    uidDomain: cfg.domain,
    name: row.name,
    description: row.description,
    start: new Date(start),
    end: new Date(start + row.duration_ms!),
    timeZone: row.time_zone,
    recurrence: rec && { occurs: rec.occurs, dayInWeek: rec.dayInWeek, until: rec.until === null ? null : new Date(rec.until) },
    url: meetingUrl(cfg.meetingUrl, row.booker_username, row.id),
    accessCode: row.access_code,
    sequence: row.sequence,
    organizer: { name: row.booker_name, email: row.booker_email },
    attendees,
  };
}

/** How an invitation names the time: the booker's zone, spelt out. */
export function whenText(row: repo.MeetingRow): string {
  const start = ms(row.starts_at);
  if (start === null) return 'any time';
  const fmt = new Intl.DateTimeFormat('en-US', { timeZone: row.time_zone, dateStyle: 'full', timeStyle: 'short' });
  const recurring = row.occurs === null ? '' : row.occurs === 1 ? ', daily' : row.occurs === 2 ? ', weekly' : ', every two weeks';
  return `${fmt.format(new Date(start))} (${row.time_zone})${recurring}`;
}

/**
 * Who may create (start or schedule) meetings: the one rule behind the preference
 * uc-can-create-meetings, the permissions call and the create call. Web meeting management must be
 * on (the specification), and limited-access accounts do not book meetings (docs/DECISIONS.md).
 */
export const mayCreateMeetings = (webMeetingManagement: boolean, roleId: number): boolean => webMeetingManagement && roleId !== ROLE.LIMITED_ACCESS;

export const requireCreate = (cfg: MeetingsConfig, viewer: Pick<Viewer, 'roleId'>) => {
  if (!mayCreateMeetings(cfg.webMeetingManagement, viewer.roleId)) throw forbidden(cfg.webMeetingManagement ? MEETING_ERRORS.createNotPermitted : MEETING_ERRORS.createNotAllowed);
};

/** An ad-hoc meeting is an instant private meeting with one colleague, never oneself (the chat's invite). */
export function checkAdHoc(input: { instant: boolean; is_private: boolean; recurrence: unknown; invitees: ReadonlyArray<{ user_id?: number; email?: string }> }, viewer: Viewer): void {
  if (!input.instant || !input.is_private || input.recurrence !== null) {
    throw new ApiError(400, 'validation_failed', MEETING_ERRORS.adHocShape, [{ path: 'ad_hoc', message: 'ad_hoc_shape' }]);
  }
  const [only, ...more] = input.invitees;
  if (!only || more.length || only.user_id === undefined || only.user_id === viewer.userId) {
    throw new ApiError(400, 'validation_failed', MEETING_ERRORS.adHocInvitee, [{ path: 'invitees', message: 'ad_hoc_invitee' }]);
  }
}

const DAY = 86_400_000;

/**
 * The occurrence open to join at `now` (its end; null for a room, always open), else the refusal
 * the join popup and the lobby both give: too early, or ended.
 */
export function openOccurrence(row: repo.MeetingRow, now: number): { end: number | null; start: number | null } {
  if (row.meeting_type === 'room') return { start: null, end: null };
  // Of a recurring meeting, the occurrence under way or about to start.
  const spans = occurrences(ms(row.starts_at)!, row.duration_ms!, row.time_zone, recurrenceOf(row), now, now + 400 * DAY, 5);
  const span = joinableSpan(spans, now);
  if (span) return span;
  if (spans.some((s) => s.start - MEETING_JOIN_WINDOW_MS > now)) throw new ApiError(403, 'join_too_early', MEETING_ERRORS.joinTooEarly);
  throw new ApiError(410, 'meeting_ended', MEETING_ERRORS.joinEnded);
}

/** The occurrence a lobby names: the one under way or the next (null for a room or when none is to come). */
export function shownOccurrence(row: repo.MeetingRow, now: number): Span | null {
  if (row.meeting_type === 'room') return null;
  return occurrences(ms(row.starts_at)!, row.duration_ms!, row.time_zone, recurrenceOf(row), now, now + 400 * DAY, 1)[0] ?? null;
}

/** The booker and the invitees know the way in; anyone else gives the PIN. */
export const needsPin = (row: repo.MeetingRow, invitees: readonly repo.InviteeRow[], viewer: Viewer): boolean =>
  row.pin !== null && row.booked_by_id !== viewer.userId && !invitees.some((i) => i.user_id === viewer.userId);

/** The PIN check of joining: the booker and the invitees know the way in; anyone else gives the PIN. */
export function checkPin(row: repo.MeetingRow, invitees: readonly repo.InviteeRow[], viewer: Viewer, pin: string | null): void {
  if (needsPin(row, invitees, viewer) && pin !== row.pin) throw new ApiError(403, 'wrong_pin', MEETING_ERRORS.wrongPin);
}

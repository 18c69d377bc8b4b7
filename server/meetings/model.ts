import { randomInt } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Weekday } from 'rrule';
import Sqids from 'sqids';
import {
  MEETING_ERRORS,
  MEETING_INCREMENT_MINUTES,
  MEETING_JOIN_WINDOW_MS,
  MEETING_MAX_DURATION_MS,
  MEETING_MIN_DURATION_MS,
  MEETING_SLUG_ALPHABET,
  MEETING_SLUG_MIN_LENGTH,
  OCCURS,
} from '../../src/wire/meetings';

/** Pure meeting rules: slugs, URLs, times, recurrence and the join window. */

// rrule is a UMD bundle without an ESM entry Node can read: required, as Node and vitest agree on that.
const { RRule } = createRequire(import.meta.url)('rrule') as typeof import('rrule');

const sqids = new Sqids({ alphabet: MEETING_SLUG_ALPHABET, minLength: MEETING_SLUG_MIN_LENGTH });

export const meetingSlug = (id: number): string => sqids.encode([id]);

/** The meeting id of a slug, or null; only the one canonical slug of an id is accepted (sqids decodes others too). */
export function meetingIdOfSlug(slug: string): number | null {
  const ids = sqids.decode(slug);
  if (ids.length !== 1 || !Number.isSafeInteger(ids[0]) || ids[0]! < 1 || ids[0]! > 2 ** 31 - 1) return null;
  return meetingSlug(ids[0]!) === slug ? ids[0]! : null;
}

/** `{meeting_url}/uc/{alias}/{slug}`; the alias is the booker's username, which URLs can carry as it is. */
export function meetingUrl(base: string, alias: string, id: number): string {
  return `${base.replace(/\/+$/, '')}/uc/${encodeURIComponent(alias.toLowerCase())}/${meetingSlug(id)}`;
}

/** The number typed in the join popup: nine digits, not starting with 0. */
export const newAccessCode = (): string => String(randomInt(100_000_000, 1_000_000_000));

export interface Span {
  start: number;
  end: number;
}

export type TimeProblem = keyof typeof MEETING_ERRORS;

/** The end and duration rules of the modal, on an end however it was given. */
export function durationProblem(start: number, end: number): TimeProblem | null {
  const duration = end - start;
  if (duration <= 0) return 'durationZero';
  if (duration < MEETING_MIN_DURATION_MS) return 'endTooSoon';
  if (duration > MEETING_MAX_DURATION_MS) return 'tooLong';
  return null;
}

/** A start already past (a stale modal) moves to the next increment, as the modal itself does. */
export function roundUpPastStart(start: number, now: number): number {
  if (start >= now) return start;
  const step = MEETING_INCREMENT_MINUTES * 60_000;
  return Math.ceil(now / step) * step;
}

// ---- time zones ---------------------------------------------------------------------------------

const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, f);
  }
  return f;
}

/** The wall-clock time of an instant in a zone, as the UTC instant with the same fields ("floating"). */
export function toFloating(t: number, zone: string): number {
  const parts = Object.fromEntries(formatOf(zone).formatToParts(new Date(t)).map((p) => [p.type, p.value]));
  return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second)) + (t % 1000);
}

/** The instant a wall-clock time (floating) names in a zone; a time the clocks skip moves forward. */
export function fromFloating(floating: number, zone: string): number {
  const first = floating - (toFloating(floating, zone) - floating);
  const offset = toFloating(first, zone) - first;
  return floating - offset;
}

// ---- recurrence ---------------------------------------------------------------------------------

export interface Recurrence {
  occurs: number;
  /** Seven flags, Monday first. */
  dayInWeek: boolean[];
  until: number | null;
}

const WEEKDAYS: Weekday[] = [RRule.MO, RRule.TU, RRule.WE, RRule.TH, RRule.FR, RRule.SA, RRule.SU];

export const dayFlagsToBits = (flags: readonly boolean[]): number => flags.reduce((bits, on, i) => (on ? bits | (1 << i) : bits), 0);
export const bitsToDayFlags = (bits: number): boolean[] => WEEKDAYS.map((_, i) => (bits & (1 << i)) !== 0);

export function recurrenceProblem(r: Recurrence): TimeProblem | null {
  if ((r.occurs === OCCURS.WEEKLY || r.occurs === OCCURS.FORTNIGHTLY) && !r.dayInWeek.some(Boolean)) return 'weekdayRequired';
  return null;
}

/**
 * The occurrences of a meeting that overlap [from, to). Weekdays and the time of day are those of
 * the meeting's zone, so a weekly 9:00 stays 9:00 across daylight-saving changes. Daily meetings
 * with weekday flags occur on those days only (every working day, say).
 */
export function occurrences(start: number, durationMs: number, zone: string, r: Recurrence | null, from: number, to: number, limit = 2000): Span[] {
  if (!r) return start < to && start + durationMs > from ? [{ start, end: start + durationMs }] : [];
  const days = WEEKDAYS.filter((_, i) => r.dayInWeek[i]);
  const rule = new RRule({
    freq: r.occurs === OCCURS.DAILY ? RRule.DAILY : RRule.WEEKLY,
    interval: r.occurs === OCCURS.FORTNIGHTLY ? 2 : 1,
    wkst: RRule.MO,
    dtstart: new Date(toFloating(start, zone)),
    ...(days.length ? { byweekday: days } : {}),
    ...(r.until !== null ? { until: new Date(toFloating(r.until, zone)) } : {}),
  });
  // Floating times are within a day of the instants they stand for; the exact filter comes after.
  const day = 86_400_000;
  const spans: Span[] = [];
  for (const d of rule.between(new Date(toFloating(from, zone) - durationMs - day), new Date(toFloating(to, zone) + day), true)) {
    const s = fromFloating(d.getTime(), zone);
    if (s < to && s + durationMs > from) spans.push({ start: s, end: s + durationMs });
    if (spans.length >= limit) break;
  }
  return spans;
}

/** The occurrence one joins at `now`: the one under way, else the next within the join window. */
export function joinableSpan(spans: readonly Span[], now: number): Span | null {
  return spans.find((s) => now >= s.start - MEETING_JOIN_WINDOW_MS && now < s.end) ?? null;
}

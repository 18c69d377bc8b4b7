import type { CallRecordingWire } from '../../wire/callRecordings';
import type { Recording } from './state';

export const REFRESH_MS = 60_000;
export const PAGE_SIZE = 50;
/** A start date earlier than the 3-month limit moves to the limit plus one day after this delay. */
export const START_CORRECTION_MS = 2_000;
export const RANGES = ['all', 'past-week', 'two-weeks', 'past-month', 'custom'] as const;
export type RangeType = (typeof RANGES)[number];

export interface RecordingFilter {
  phoneNumber: string;
  range: RangeType;
  /** ISO days (YYYY-MM-DD), inclusive. */
  startDate: string;
  endDate: string;
}

export function fromWire(w: CallRecordingWire): Recording {
  return {
    id: String(w.recording_id),
    direction: w.direction,
    phoneNumber: w.remoteParty,
    cnam: w.cnam?.trim() || null,
    timestamp: new Date(w.timestamp).toISOString(),
    durationSeconds: w.duration,
    mediaUrl: w.media_url,
  };
}

export const isoDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
export function parseDay(s: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
}
const addDays = (d: Date, n: number) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);

/** The earliest day the list may start: 3 months before today. */
export function limitDay(now: Date): string {
  return isoDay(new Date(now.getFullYear(), now.getMonth() - 3, now.getDate()));
}

/** The range types' days, inclusive of today. "all" is the whole 3 months. */
export function rangeDays(range: Exclude<RangeType, 'custom'>, now: Date): { startDate: string; endDate: string } {
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const start = { all: parseDay(limitDay(now))!, 'past-week': addDays(today, -6), 'two-weeks': addDays(today, -13), 'past-month': new Date(today.getFullYear(), today.getMonth() - 1, today.getDate()) }[range];
  return { startDate: isoDay(start), endDate: isoDay(today) };
}

export function defaultFilter(now: Date): RecordingFilter {
  return { phoneNumber: '', range: 'all', ...rangeDays('all', now) };
}

/** Null when the start date is allowed, else the date it is corrected to: the limit plus one day. */
export function correctedStart(startDate: string, now: Date): string | null {
  const limit = limitDay(now);
  return startDate && startDate < limit ? isoDay(addDays(parseDay(limit)!, 1)) : null;
}

/** The query the API takes; the dates are sent as typed (inclusive), the search as digits or a name. */
export function toQuery(f: RecordingFilter, offset: number, tz: number) {
  return { offset, limit: PAGE_SIZE, search_term: f.phoneNumber.trim() || undefined, start_date: f.startDate || undefined, end_date: f.endDate || undefined, tz };
}

/** Specification: time today, the weekday within 7 days, otherwise a date. */
export function timestampKind(iso: string, now: Date): 'time' | 'weekday' | 'date' {
  const t = new Date(iso);
  if (isoDay(t) === isoDay(now)) return 'time';
  return now.getTime() - t.getTime() < 7 * 86_400_000 ? 'weekday' : 'date';
}

export function formatTimestamp(iso: string, now: Date, locale: string): string {
  const kind = timestampKind(iso, now);
  const opts: Intl.DateTimeFormatOptions = kind === 'time' ? { timeStyle: 'short' } : kind === 'weekday' ? { weekday: 'long' } : { dateStyle: 'medium' };
  return new Intl.DateTimeFormat(locale, opts).format(new Date(iso));
}

/** The audio element's duration unless it is off by more than 50 % from the listed one (then the listed one). */
export function playerDuration(elementSeconds: number, listedSeconds: number): number {
  if (!Number.isFinite(elementSeconds) || elementSeconds <= 0) return listedSeconds;
  if (listedSeconds > 0 && Math.abs(elementSeconds - listedSeconds) / listedSeconds > 0.5) return listedSeconds;
  return elementSeconds;
}

export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60));
  return h ? `${h}:${mm.padStart(2, '0')}:${String(s % 60).padStart(2, '0')}` : `${mm}:${String(s % 60).padStart(2, '0')}`;
}

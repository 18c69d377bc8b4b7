/**
 * Display formats for durations, times and numbers. Everything goes through Intl in the current
 * language so the 20 languages need no per-language code; `timeZone` exists for tests and defaults
 * to the browser's zone.
 */

const cache = new Map<string, unknown>();

function cached<T>(key: string, make: () => T): T {
  let v = cache.get(key) as T | undefined;
  if (v === undefined) {
    v = make();
    cache.set(key, v);
  }
  return v;
}

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached(`dt|${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

function relativeFormat(locale: string): Intl.RelativeTimeFormat {
  return cached(`rt|${locale}`, () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'long' }));
}

function unitFormat(locale: string, unit: 'second' | 'minute', unitDisplay: 'short' | 'long'): Intl.NumberFormat {
  return cached(`nu|${locale}|${unit}|${unitDisplay}`, () => new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay }));
}

function capitalise(text: string, locale: string): string {
  return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);
}

/** A call's duration: seconds under a minute, otherwise rounded minutes ("45 sec", "3 min"). */
export function formatDuration(seconds: number, locale: string, unitDisplay: 'short' | 'long' = 'short'): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return unitFormat(locale, 'second', unitDisplay).format(s);
  return unitFormat(locale, 'minute', unitDisplay).format(Math.round(s / 60));
}

export interface TimeOptions {
  locale: string;
  now: Date;
  timeZone?: string;
}

/** Days since 1970 of the calendar day an instant falls on in `timeZone`. */
function dayNumber(date: Date, timeZone: string | undefined): number {
  const parts = dateFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return Math.round(Date.UTC(part('year'), part('month') - 1, part('day')) / 86_400_000);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * A list timestamp: relative within the last hour ("2 minutes ago"), the time today, "Yesterday",
 * the weekday within a week, otherwise the date.
 */
export function formatListTime(iso: string, { locale, now, timeZone }: TimeOptions): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const ago = now.getTime() - at.getTime();
  // A minute of tolerance: the server's clock may be slightly ahead of this one.
  if (ago > -MINUTE && ago < HOUR) {
    const minutes = Math.floor(Math.max(0, ago) / MINUTE);
    const rtf = relativeFormat(locale);
    return capitalise(minutes === 0 ? rtf.format(0, 'second') : rtf.format(-minutes, 'minute'), locale);
  }
  const days = dayNumber(now, timeZone) - dayNumber(at, timeZone);
  if (days === 0) return dateFormat(locale, { timeStyle: 'short', timeZone }).format(at);
  if (days === 1) return capitalise(relativeFormat(locale).format(-1, 'day'), locale);
  if (days > 1 && days < 7) return capitalise(dateFormat(locale, { weekday: 'long', timeZone }).format(at), locale);
  return dateFormat(locale, { dateStyle: 'medium', timeZone }).format(at);
}

/** The detail pane's full date and time. */
export function formatFullDateTime(iso: string, locale: string, timeZone?: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return dateFormat(locale, { dateStyle: 'full', timeStyle: 'short', timeZone }).format(at);
}

/**
 * North American numbers as (415) 555-0142, with +1 when dialled internationally; extensions and
 * other countries' numbers stay as the server sent them.
 */
export function formatPhone(number: string): string {
  const trimmed = number.trim();
  if (!/^\+?[\d\s().-]+$/.test(trimmed)) return trimmed;
  const digits = trimmed.replace(/\D/g, '');
  const local = (d: string) => `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
  if (digits.length === 10 && !trimmed.startsWith('+')) return local(digits);
  if (digits.length === 11 && digits.startsWith('1')) return `+1 ${local(digits.slice(1))}`;
  return trimmed;
}

/** What a row and the detail are titled with: a known contact, the caller name, else the number. */
export function displayName(record: { cnam: string | null; phoneNumber: string }, contactName?: string): string {
  return contactName?.trim() || record.cnam || formatPhone(record.phoneNumber);
}

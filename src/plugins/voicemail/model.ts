import type { VoiceMessageV1, VoicemailV2 } from '../../wire/voicemail';
import type { Voicemail, VoicemailGroup } from './state';

export const REFRESH_MS = 60_000;
/** Refreshes closer together than this are dropped (specification: one per 3000 ms). */
export const RATE_LIMIT_MS = 3_000;
export const GROUPS: readonly VoicemailGroup[] = ['ALL', 'UNREAD', 'READ'];
export const GROUP_STORAGE_KEY = 'voicemail-search-group';

/** v1: a Succeeded transcript with empty text is treated as Failed. */
export function fromV1(w: VoiceMessageV1): Voicemail {
  const emptySuccess = w.vm_text_state === 'Succeeded' && !w.vm_text?.trim();
  return {
    id: String(w.vm_id),
    status: w.status,
    callerNumber: w.caller_number,
    callerName: w.caller_name?.trim() || null,
    durationSeconds: w.duration,
    timestamp: new Date(w.vm_timestamp).toISOString(),
    transcriptState: emptySuccess ? 'Failed' : w.vm_text_state,
    transcript: emptySuccess ? null : (w.vm_text ?? null),
  };
}

export function fromV2(w: VoicemailV2): Voicemail {
  return {
    id: w.msg_id,
    status: w.status === 'Unread' ? 'UNREAD' : 'READ',
    callerNumber: w.caller_id_number,
    callerName: w.caller_id_name?.trim() || null,
    durationSeconds: w.duration,
    timestamp: new Date(w.origtime * 1000).toISOString(),
    transcriptState: w.transcription.state,
    transcript: w.transcription.text,
  };
}

/** v2 only: a Succeeded transcript whose text the list left out is fetched. */
export function needsTranscriptFetch(v: Voicemail, generation: 1 | 2): boolean {
  return generation === 2 && v.transcriptState === 'Succeeded' && v.transcript === null;
}

export function parseGroup(value: unknown): VoicemailGroup {
  return value === 'UNREAD' || value === 'READ' ? value : 'ALL';
}

/** Lower-cased search keys per message, computed once per message object (10,000 messages stay smooth). */
const searchKeys = new WeakMap<Voicemail, { name: string; digits: string; text: string }>();
function keysOf(v: Voicemail) {
  let k = searchKeys.get(v);
  if (!k) {
    k = { name: v.callerName?.toLowerCase() ?? '', digits: v.callerNumber.replace(/\D/g, ''), text: v.transcript?.toLowerCase() ?? '' };
    searchKeys.set(v, k);
  }
  return k;
}

const normalise = (term: string) => {
  const text = term.trim().toLowerCase();
  return { text, digits: text.replace(/\D/g, '') };
};

/** The group filter and the search (name, any digits of the number, or transcript words). */
export function filterVoicemails(items: readonly Voicemail[], group: VoicemailGroup, term: string): Voicemail[] {
  const { text: t, digits } = normalise(term);
  return items.filter((v) => {
    if (group !== 'ALL' && v.status !== group) return false;
    if (!t) return true;
    const k = keysOf(v);
    return k.name.includes(t) || (digits !== '' && k.digits.includes(digits)) || k.text.includes(t);
  });
}

/** Whether every message `next` finds `prev` finds too: the text grows around the old one, and digits only extend digits. */
export function narrowsTerm(prev: string, next: string): boolean {
  const a = normalise(prev);
  const b = normalise(next);
  return b.text.includes(a.text) && (b.digits === '' || (a.digits !== '' && b.digits.includes(a.digits)));
}

/** filterVoicemails for a term typed key by key: a term that narrows the previous one filters the previous rows only. */
export function voicemailSearch(): (items: readonly Voicemail[], group: VoicemailGroup, term: string) => Voicemail[] {
  let last: { items: readonly Voicemail[]; group: VoicemailGroup; term: string; rows: Voicemail[] } | null = null;
  return (items, group, term) => {
    const from = last && last.items === items && last.group === group && narrowsTerm(last.term, term) ? last.rows : items;
    const rows = filterVoicemails(from, group, term);
    last = { items, group, term, rows };
    return rows;
  };
}

/** A refresh timer that drops requests closer together than the rate limit. */
export function rateLimited(run: () => void, limitMs = RATE_LIMIT_MS, now: () => number = Date.now): () => boolean {
  let last = -Infinity;
  return () => {
    const t = now();
    if (t - last < limitMs) return false;
    last = t;
    run();
    return true;
  };
}

const DAY_MS = 86_400_000;
const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();

export type TimestampKind = 'time' | 'yesterday' | 'weekday' | 'date';

/** Specification: under 1 day the time, yesterday "Yesterday", under 9 days the weekday, else the date. */
export function timestampKind(iso: string, now: Date): TimestampKind {
  const t = new Date(iso);
  const age = now.getTime() - t.getTime();
  if (age < DAY_MS) return 'time';
  const days = Math.round((startOfDay(now) - startOfDay(t)) / DAY_MS);
  if (days === 1) return 'yesterday';
  if (age < 9 * DAY_MS) return 'weekday';
  return 'date';
}

/**
 * Intl formatters by locale and style: making one costs a thousand times more than using it, and
 * each visible row asks for two (its time and its duration) on every keystroke of the search.
 */
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function formatter<F extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => F): F {
  let f = formatters.get(key) as F | undefined;
  if (!f) formatters.set(key, (f = make()));
  return f;
}
const dateFormat = (locale: string, style: 'time' | 'weekday' | 'date') =>
  formatter(`${locale}|${style}`, () => new Intl.DateTimeFormat(locale, style === 'time' ? { timeStyle: 'short' } : style === 'weekday' ? { weekday: 'long' } : { dateStyle: 'medium' }));

export function formatTimestamp(iso: string, now: Date, locale: string, yesterday: string): string {
  const d = new Date(iso);
  switch (timestampKind(iso, now)) {
    case 'time':
      return dateFormat(locale, 'time').format(d);
    case 'yesterday':
      return yesterday;
    case 'weekday':
      return dateFormat(locale, 'weekday').format(d);
    default:
      return dateFormat(locale, 'date').format(d);
  }
}

/** Specification: seconds under a minute, otherwise rounded minutes. */
export function durationParts(seconds: number): { value: number; unit: 'second' | 'minute' } {
  return seconds < 60 ? { value: Math.max(0, Math.round(seconds)), unit: 'second' } : { value: Math.round(seconds / 60), unit: 'minute' };
}

export function formatDuration(seconds: number, locale: string): string {
  const { value, unit } = durationParts(seconds);
  return formatter(`${locale}|${unit}`, () => new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short' })).format(value);
}

/** Player clock: m:ss. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

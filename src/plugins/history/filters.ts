import type { CallType } from '../../wire/history';

export type HistoryView = 'recents' | 'missed';

/**
 * The screen's URL search params. Only what differs from the defaults is kept, so a plain
 * `/history` means "recents, past week, every call type".
 */
export interface HistorySearch {
  filter: HistoryView;
  /** Selected record id. */
  id?: number;
  term?: string;
  /** Inclusive local days, YYYY-MM-DD. */
  from?: string;
  to?: string;
  /** Call types shown under Recents; absent means chosen. */
  in?: boolean;
  out?: boolean;
  missed?: boolean;
}

export interface CallTypeChoice {
  incoming: boolean;
  outgoing: boolean;
  missed: boolean;
}

/** Everything the list query depends on, with defaults applied. */
export interface HistoryFilter {
  view: HistoryView;
  term: string;
  from: string;
  to: string;
  types: CallTypeChoice;
}

/** The API refuses longer terms. */
export const TERM_MAX = 200;
/** The default range: today and the six days before it. */
export const DEFAULT_RANGE_DAYS = 7;
/** The empty state's next action widens the range to this many days. */
export const WIDE_RANGE_DAYS = 30;

// ---- local calendar days ------------------------------------------------------------------------

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The local calendar day of an instant, as YYYY-MM-DD. */
export function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Local midnight of a YYYY-MM-DD day, or null when it is not a real day (2024-02-30). */
export function parseIsoDay(value: string): Date | null {
  const m = ISO_DAY.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(y, mo - 1, d);
  return date.getFullYear() === y && date.getMonth() === mo - 1 && date.getDate() === d ? date : null;
}

/** Calendar arithmetic on local dates, so a daylight-saving change never skips or repeats a day. */
export function addDays(date: Date, days: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
}

/** The last `days` local days ending today, inclusive: 7 gives today−6 … today. */
export function lastDays(now: Date, days: number): { from: string; to: string } {
  return { from: isoDay(addDays(now, -(days - 1))), to: isoDay(now) };
}

export function defaultRange(now: Date): { from: string; to: string } {
  return lastDays(now, DEFAULT_RANGE_DAYS);
}

/** Minutes east of UTC, as the API's `tz` wants (getTimezoneOffset counts west). */
export function tzOffsetMinutes(at: Date): number {
  const offset = -at.getTimezoneOffset();
  return offset === 0 ? 0 : offset;
}

// ---- call types ---------------------------------------------------------------------------------

/** When none of incoming, outgoing, missed is chosen, all three are set back to true: an empty choice means every call. */
export function applyTypeRule(types: CallTypeChoice): CallTypeChoice {
  return types.incoming || types.outgoing || types.missed ? { ...types } : { incoming: true, outgoing: true, missed: true };
}

/** The API's `call_type` list; undefined when every type is wanted. */
export function callTypeParam(filter: Pick<HistoryFilter, 'view' | 'types'>): string | undefined {
  if (filter.view === 'missed') return 'missed';
  const t = applyTypeRule(filter.types);
  const chosen: CallType[] = [];
  if (t.incoming) chosen.push('inbound');
  if (t.outgoing) chosen.push('outbound');
  if (t.missed) chosen.push('missed');
  return chosen.length === 3 ? undefined : chosen.join(',');
}

// ---- URL search params --------------------------------------------------------------------------

function asBoolean(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return undefined;
}

function asId(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function asDay(v: unknown): string | undefined {
  return typeof v === 'string' && parseIsoDay(v) ? v : undefined;
}

function asTerm(v: unknown): string | undefined {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v : '';
  return s.trim() ? s.slice(0, TERM_MAX) : undefined;
}

/** Drops undefined keys and defaults, so URLs stay short and equal filters give equal URLs. */
function compact(s: HistorySearch): HistorySearch {
  const out: HistorySearch = { filter: s.filter === 'missed' ? 'missed' : 'recents' };
  if (s.id !== undefined) out.id = s.id;
  if (s.term !== undefined && s.term.trim()) out.term = s.term;
  if (s.from !== undefined) out.from = s.from;
  if (s.to !== undefined) out.to = s.to;
  const types = applyTypeRule({ incoming: s.in !== false, outgoing: s.out !== false, missed: s.missed !== false });
  if (!types.incoming) out.in = false;
  if (!types.outgoing) out.out = false;
  if (!types.missed) out.missed = false;
  return out;
}

/** The route's validateSearch: tolerant of hand-edited URLs; anything unusable falls back to its default. */
export function validateHistorySearch(raw: Record<string, unknown>): HistorySearch {
  return compact({
    filter: raw.filter === 'missed' ? 'missed' : 'recents',
    id: asId(raw.id),
    term: asTerm(raw.term),
    from: asDay(raw.from),
    to: asDay(raw.to),
    in: asBoolean(raw.in),
    out: asBoolean(raw.out),
    missed: asBoolean(raw.missed),
  });
}

/** Search params for the URL: the default view is left out. */
export function toUrlSearch(s: HistorySearch): Record<string, unknown> {
  const { filter, ...rest } = compact(s);
  return filter === 'missed' ? { filter, ...rest } : rest;
}

const FILTER_KEYS = ['filter', 'term', 'from', 'to', 'in', 'out', 'missed'] as const;

/**
 * Applies a change to the search params. A change to any filter drops the selection: the selected
 * call may not be in the new list, and the first one is picked again.
 */
export function updateSearch(current: HistorySearch, patch: Partial<HistorySearch>): HistorySearch {
  const next: HistorySearch = { ...current, ...patch };
  const filterChanged = FILTER_KEYS.some((k) => k in patch && patch[k] !== current[k]);
  if (filterChanged && !('id' in patch)) delete next.id;
  return compact(next);
}

/** The search params' call types with the reset-to-all rule applied. */
export function typesOf(s: HistorySearch): CallTypeChoice {
  return applyTypeRule({ incoming: s.in !== false, outgoing: s.out !== false, missed: s.missed !== false });
}

/** Search params for a new choice of call types, after the reset-to-all rule. */
export function typesToSearch(types: CallTypeChoice): Pick<HistorySearch, 'in' | 'out' | 'missed'> {
  const t = applyTypeRule(types);
  return { in: t.incoming ? undefined : false, out: t.outgoing ? undefined : false, missed: t.missed ? undefined : false };
}

/**
 * The filter the list is fetched with. Missing days take the default range; a reversed range is
 * read the right way round rather than refused (the server answers 400 to it).
 */
export function resolveFilter(search: HistorySearch, now: Date): HistoryFilter {
  const def = defaultRange(now);
  let from = search.from ?? def.from;
  let to = search.to ?? def.to;
  if (from > to) [from, to] = [to, from];
  return { view: search.filter, term: search.term?.trim() ?? '', from, to, types: typesOf(search) };
}

export function defaultFilter(now: Date): HistoryFilter {
  return resolveFilter({ filter: 'recents' }, now);
}

/** Query params of `GET /v2/users/{id}/call-history` (see HistoryQueryV2). */
export interface HistoryQueryParams {
  [key: string]: string | number | undefined;
  offset: number;
  limit: number;
  sort: 'desc';
  term?: string;
  start_date?: string;
  end_date?: string;
  tz: number;
  call_type?: string;
}

export function toHistoryQuery(filter: HistoryFilter, page: { offset: number; limit: number; tz: number }): HistoryQueryParams {
  return {
    offset: page.offset,
    limit: page.limit,
    sort: 'desc',
    term: filter.term || undefined,
    start_date: filter.from,
    end_date: filter.to,
    tz: page.tz,
    call_type: callTypeParam(filter),
  };
}

import { CALL_TYPES, type CallType } from '../../src/wire/history';
import { SORT_DIRECTION_ERROR, SortDirection } from '../../src/wire/common';
import { ApiError } from '../errors';

const sortDirectionError = () => new ApiError(400, 'invalid_sort', SORT_DIRECTION_ERROR);

/** v2 `sort`: asc or desc (any letter case), nothing else. */
export function parseSortDirection(sort: string): SortDirection {
  const parsed = SortDirection.safeParse(sort.trim().toLowerCase());
  if (!parsed.success) throw sortDirectionError();
  return parsed.data;
}

/** v1 `sort_by`: `call_time` with an optional `:asc|:desc` (default desc). */
export function parseSortBy(sortBy: string): SortDirection {
  const trimmed = sortBy.trim();
  const colon = trimmed.indexOf(':');
  const field = colon < 0 ? trimmed : trimmed.slice(0, colon);
  if (field !== 'call_time') throw new ApiError(400, 'invalid_sort', 'Sort field not supported');
  return colon < 0 ? 'desc' : parseSortDirection(trimmed.slice(colon + 1));
}

/**
 * The `call_type` comma list. Undefined means no filter: when nothing (or everything) is chosen the
 * list shows every call, as the filter bar does: choosing none of incoming, outgoing, missed turns
 * all three back on.
 */
export function parseCallTypes(value: string | undefined): CallType[] | undefined {
  const tokens = (value ?? '')
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
  const unknown = tokens.filter((t) => !(CALL_TYPES as readonly string[]).includes(t));
  if (unknown.length) {
    throw new ApiError(400, 'validation_failed', 'Invalid history query', [
      { path: 'call_type', message: `Unknown call type "${unknown[0]}": use inbound, outbound or missed` },
    ]);
  }
  const chosen = CALL_TYPES.filter((t) => tokens.includes(t));
  return chosen.length === 0 || chosen.length === CALL_TYPES.length ? undefined : chosen;
}

/**
 * Inclusive calendar days in the user's zone (`tz` minutes east of UTC) → a half-open UTC instant
 * range [from, to).
 */
export function dayRange(startDate: string | undefined, endDate: string | undefined, tzMinutes: number): { from?: Date; to?: Date } {
  const midnight = (isoDay: string, plusDays: number) => {
    const [y, m, d] = isoDay.split('-').map(Number) as [number, number, number];
    return new Date(Date.UTC(y, m - 1, d + plusDays) - tzMinutes * 60_000);
  };
  const from = startDate ? midnight(startDate, 0) : undefined;
  const to = endDate ? midnight(endDate, 1) : undefined;
  if (from && to && from >= to) {
    throw new ApiError(400, 'validation_failed', 'Invalid history query', [
      { path: 'start_date', message: 'start_date must not be after end_date' },
    ]);
  }
  return { from, to };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A search term matches names (cnam, caller id) as typed, case-insensitively, and phone numbers by
 * their digits only, so "(415) 555-0142" finds +14155550142.
 */
export function termPatterns(term: string | undefined): { name: string; digits: string | null } | undefined {
  const t = term?.trim();
  if (!t) return undefined;
  const digits = t.replace(/\D/g, '');
  return { name: `%${escapeLike(t)}%`, digits: digits ? `%${digits}%` : null };
}

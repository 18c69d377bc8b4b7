import type { ApiClient } from '../../kernel';
import { HistoryPageWire } from '../../wire/bootResponses';
import type { HistoryPageWire as HistoryPage } from '../../wire/history';
import { isoDay, toHistoryQuery, tzOffsetMinutes, type HistoryFilter, type HistoryQueryParams } from './filters';
import { EXPORT_PAGE_SIZE, mergePages, toUtcIso, type HistoryRecord } from './model';

type Getter = Pick<ApiClient, 'get'>;

export function historyPath(userId: number): string {
  return `/v2/users/${userId}/call-history`;
}

export function fetchHistoryPage(api: Getter, userId: number, query: HistoryQueryParams, signal?: AbortSignal): Promise<HistoryPage> {
  return api.get(historyPath(userId), query, HistoryPageWire, signal);
}

export interface ExportProgress {
  loaded: number;
  total: number;
}

/** Every record of a filter, page by page at the API's maximum page size. */
export async function fetchAllHistory(
  api: Getter,
  userId: number,
  filter: HistoryFilter,
  opts: { now?: Date; signal?: AbortSignal; onProgress?: (p: ExportProgress) => void } = {},
): Promise<HistoryRecord[]> {
  const tz = tzOffsetMinutes(opts.now ?? new Date());
  const pages: HistoryPage[] = [];
  let loaded = 0;
  for (;;) {
    const page = await fetchHistoryPage(api, userId, toHistoryQuery(filter, { offset: loaded, limit: EXPORT_PAGE_SIZE, tz }), opts.signal);
    pages.push(page);
    loaded += page.items.length;
    opts.onProgress?.({ loaded: Math.min(loaded, page.total), total: page.total });
    if (page.items.length === 0 || loaded >= page.total) break;
  }
  return mergePages(pages).records;
}

/** Enough to tell 0…99 exactly; the badge shows 99+ beyond that anyway. */
export const BADGE_SAMPLE = 100;

/**
 * Missed calls after `seenAt`. The API filters by whole days, so the newest missed calls from the
 * day of `seenAt` on are fetched and the ones before `seenAt` on that day are left out. When the
 * whole sample is newer, the day-based total stands in: it is at least the sample size.
 */
export async function countMissedSince(api: Getter, userId: number, seenAt: number, now: Date, signal?: AbortSignal): Promise<number> {
  const page = await fetchHistoryPage(
    api,
    userId,
    {
      offset: 0,
      limit: BADGE_SAMPLE,
      sort: 'desc',
      start_date: isoDay(new Date(seenAt)),
      tz: tzOffsetMinutes(now),
      call_type: 'missed',
    },
    signal,
  );
  const newer = page.items.filter((i) => new Date(toUtcIso(i.call_time)).getTime() > seenAt).length;
  return newer === page.items.length && page.total > newer ? page.total : newer;
}

import { keepPreviousData, useInfiniteQuery, useQuery, type InfiniteData } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { Api, Queries, Session, toDisposable, useContextSnapshot, useService, type ApiClient, type Disposable, type ServiceLookup } from '../../kernel';
import { TelephonyApi } from '../../contracts';
import { HistoryPageWire } from '../../wire/bootResponses';
import type { HistoryPageWire as HistoryPage } from '../../wire/history';
import { HISTORY_PATH } from './commands';
import { isoDay, toHistoryQuery, tzOffsetMinutes, type HistoryFilter, type HistoryQueryParams } from './filters';
import { EXPORT_PAGE_SIZE, mergePages, nextOffset, PAGE_SIZE, REFRESH_MS, toUtcIso, type HistoryList, type HistoryRecord } from './model';
import { historyState, seenAtFor, seenStorageKey, syncSeenFromStorage } from './state';
import { log } from './log';

type Getter = Pick<ApiClient, 'get'>;

/** Query keys, all prefixed with the plugin id so `['history']` invalidates everything. */
export const historyKeys = {
  all: ['history'] as const,
  list: (userId: number, filter: HistoryFilter) => ['history', 'list', userId, filter] as const,
  missedSince: (userId: number, seenAt: number) => ['history', 'missedSince', userId, seenAt] as const,
};

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

/* The list and the missed-calls badge as TanStack queries over the calls above. */
/** A history fetch failure is logged, never toasted: the list keeps what it had (or offers a retry). */
function logged<T>(what: string, work: Promise<T>): Promise<T> {
  return work.catch((err: unknown) => {
    if (!(err instanceof DOMException && err.name === 'AbortError')) log.error(`${what} failed`, err);
    throw err;
  });
}

const selectList = (data: InfiniteData<HistoryPage, number>): HistoryList => mergePages(data.pages);

/** The list, 50 at a time, refreshed every 180 s. */
export function useHistoryList(filter: HistoryFilter) {
  const api = useService(Api);
  const { userId } = useService(Session);
  return useInfiniteQuery({
    queryKey: historyKeys.list(userId, filter),
    queryFn: ({ pageParam, signal }) =>
      logged(
        'list',
        fetchHistoryPage(api, userId, toHistoryQuery(filter, { offset: pageParam, limit: PAGE_SIZE, tz: tzOffsetMinutes(new Date()) }), signal),
      ),
    initialPageParam: 0,
    getNextPageParam: (_last, pages) => nextOffset(pages),
    refetchInterval: REFRESH_MS,
    // While a new term or range loads, the previous rows stay (marked busy) instead of flashing.
    placeholderData: keepPreviousData,
    select: selectList,
  });
}

/** The navigation badge: missed calls since the user last opened the history. */
export function useMissedBadge(): number {
  const api = useService(Api);
  const { userId } = useService(Session);
  const { route } = useContextSnapshot();
  const stored = useSnapshot(historyState).seenAt[userId];
  const seenAt = stored ?? seenAtFor(userId, new Date());

  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === seenStorageKey(userId)) syncSeenFromStorage(userId, e.newValue);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [userId]);

  const { data } = useQuery({
    queryKey: historyKeys.missedSince(userId, seenAt),
    queryFn: ({ signal }) => logged('missed count', countMissedSince(api, userId, seenAt, new Date(), signal)),
    refetchInterval: REFRESH_MS,
  });
  // On the history screen the user is looking at those calls already.
  return route.startsWith(HISTORY_PATH) ? 0 : (data ?? 0);
}

/** How long after a call ends the history asks the server once more (see TelephonyService.onCallEnded). */
const CALL_RECORD_LAG_MS = 2000;

/**
 * A call just ended is in the history at once, not at the next 3-minute refresh; asked again after
 * CALL_RECORD_LAG_MS for the side that hung up, whose record may be filed just after.
 */
export function refreshWhenCallsEnd(services: ServiceLookup): Disposable {
  const refresh = () => void services.maybe(Queries)?.invalidateQueries({ queryKey: historyKeys.all });
  let again: ReturnType<typeof setTimeout> | undefined;
  const ended = services.maybe(TelephonyApi)?.onCallEnded(() => {
    refresh();
    clearTimeout(again);
    again = setTimeout(refresh, CALL_RECORD_LAG_MS);
  });
  return toDisposable(() => {
    ended?.dispose();
    clearTimeout(again);
  });
}

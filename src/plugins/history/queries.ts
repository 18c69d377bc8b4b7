import { keepPreviousData, useInfiniteQuery, useQuery, type InfiniteData } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { Api, Queries, Session, toDisposable, useContextSnapshot, useService, type Disposable, type ServiceLookup } from '../../kernel';
import { TelephonyApi } from '../../contracts';
import type { HistoryPageWire } from '../../wire/history';
import { countMissedSince, fetchHistoryPage, historyKeys } from './api';
import { HISTORY_PATH } from './commands';
import { toHistoryQuery, tzOffsetMinutes, type HistoryFilter } from './filters';
import { mergePages, nextOffset, PAGE_SIZE, REFRESH_MS, type HistoryList } from './model';
import { historyState, seenAtFor, seenStorageKey, syncSeenFromStorage } from './state';
import { log } from './log';

/** A history fetch failure is logged, never toasted: the list keeps what it had (or offers a retry). */
function logged<T>(what: string, work: Promise<T>): Promise<T> {
  return work.catch((err: unknown) => {
    if (!(err instanceof DOMException && err.name === 'AbortError')) log.error(`${what} failed`, err);
    throw err;
  });
}

const selectList = (data: InfiniteData<HistoryPageWire, number>): HistoryList => mergePages(data.pages);

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

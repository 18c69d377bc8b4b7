import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useSnapshot } from 'valtio';
import { Api, Session, toDisposable, useContextSnapshot, useService, type Disposable, type ServiceLookup } from '../../kernel';
import { TelephonyApi } from '../../contracts';
import type { HistoryPageWire as HistoryPage } from '../../wire/history';
import { countMissedSince, fetchHistoryPage } from './api';
import { HISTORY_PATH } from './commands';
import { toHistoryQuery, tzOffsetMinutes, type HistoryFilter } from './filters';
import { log } from './log';
import { mergePages, nextOffset, PAGE_SIZE, REFRESH_MS, type HistoryList } from './model';
import { historyState, seenAtFor, seenStorageKey, syncSeenFromStorage } from './state';

/*
 * The list and the missed-calls badge, loaded as voicemail's list is: plain calls and a little
 * state, no query library on the first screen (issue 17: TanStack Query alone was 10 kB of it).
 * What the user sees is what the query library gave: the previous rows stay (marked busy) while
 * another filter loads, a list seen in the last 30 s shows at once, one retry before an error,
 * a refresh every 180 s and whenever a call ends.
 */

/** A list loaded this recently is shown without asking again (going back to a filter just seen). */
export const FRESH_MS = 30_000;
/** One retry after this long before the list says it failed. */
export const RETRY_MS = 1_000;
/** Lists kept for going back to: a filter is a handful of fields, so a few dozen cost nothing. */
const CACHE_MAX = 20;

interface Loaded {
  pages: HistoryPage[];
  list: HistoryList;
  at: number;
  stale: boolean;
}

const cache = new Map<string, Loaded>();
const invalidated = new Set<() => void>();

/** Whatever the server may have changed (a call ended, "Refresh"): every list and badge asks again. */
export function invalidateHistory(): void {
  for (const loaded of cache.values()) loaded.stale = true;
  for (const l of [...invalidated]) l();
}

export function onHistoryInvalidated(l: () => void): () => void {
  invalidated.add(l);
  return () => invalidated.delete(l);
}

/** Signing out forgets every list. */
export function clearHistoryCache(): void {
  cache.clear();
}

function remember(key: string, pages: HistoryPage[]): Loaded {
  const loaded: Loaded = { pages, list: mergePages(pages), at: Date.now(), stale: false };
  cache.delete(key);
  cache.set(key, loaded);
  while (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  return loaded;
}

const aborted = (err: unknown) => err instanceof DOMException && err.name === 'AbortError';

export type PageFetcher = (offset: number, limit: number, signal: AbortSignal) => Promise<HistoryPage>;

/** What the screen reads of the list (the shape the query library's infinite query had). */
export interface HistoryListView {
  data: HistoryList | undefined;
  /** Nothing to show yet: no rows, no error. */
  isPending: boolean;
  isSuccess: boolean;
  /** The rows shown are the previous filter's, while this one loads. */
  isPlaceholderData: boolean;
  dataUpdatedAt: number;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage(): Promise<void>;
  refetch(): Promise<void>;
}

/** One list on screen: the filter it shows, its pages, and the requests for them. */
export class HistoryListLoader {
  private key = '';
  private fetcher: PageFetcher | null = null;
  private loaded: Loaded | undefined;
  private previous: Loaded | undefined;
  private failed = false;
  private more = false;
  private controller: AbortController | null = null;
  private version = 0;
  private view: HistoryListView | null = null;
  private readonly listeners = new Set<() => void>();

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  snapshot = (): number => this.version;

  private changed(): void {
    this.version++;
    this.view = null;
    for (const l of [...this.listeners]) l();
  }

  /** Shows the list of `key`: at once when it was loaded lately, else the previous rows until it is. */
  show(key: string, fetcher: PageFetcher): void {
    if (key === this.key) return;
    this.key = key;
    this.fetcher = fetcher;
    this.controller?.abort();
    this.more = false;
    this.failed = false;
    if (this.loaded) this.previous = this.loaded;
    this.loaded = cache.get(key);
    this.changed();
    if (!this.loaded || this.loaded.stale || Date.now() - this.loaded.at > FRESH_MS) void this.refetch();
  }

  /** Asks again for every page shown (or the first), one request after the other as the list grows. */
  async refetch(): Promise<void> {
    const key = this.key;
    const fetcher = this.fetcher;
    if (!fetcher) return;
    this.controller?.abort();
    const controller = (this.controller = new AbortController());
    const wanted = Math.max(1, this.loaded?.pages.length ?? 1);
    try {
      const pages = await this.withRetry(async () => {
        const got: HistoryPage[] = [];
        while (got.length < wanted) {
          const offset = got.length ? nextOffset(got) : 0;
          if (offset === undefined) break;
          got.push(await fetcher(offset, PAGE_SIZE, controller.signal));
        }
        return got;
      }, controller.signal);
      if (controller.signal.aborted || key !== this.key) return;
      this.loaded = remember(key, pages);
      this.previous = undefined;
      this.failed = false;
    } catch (err) {
      if (aborted(err) || controller.signal.aborted || key !== this.key) return;
      log.error('list failed', err);
      // Rows already shown stay; without any, the screen offers a retry.
      if (!this.loaded) (this.failed = true), (this.previous = undefined);
    }
    this.changed();
  }

  /** The next 50. */
  async fetchNextPage(): Promise<void> {
    const loaded = this.loaded;
    const offset = loaded ? nextOffset(loaded.pages) : undefined;
    if (!loaded || offset === undefined || this.more || !this.fetcher) return;
    const key = this.key;
    const controller = this.controller ?? (this.controller = new AbortController());
    this.more = true;
    this.changed();
    try {
      const page = await this.withRetry(() => this.fetcher!(offset, PAGE_SIZE, controller.signal), controller.signal);
      if (key === this.key && this.loaded === loaded) this.loaded = remember(key, [...loaded.pages, page]);
    } catch (err) {
      if (!aborted(err)) log.error('list failed', err);
    } finally {
      if (key === this.key) this.more = false;
      this.changed();
    }
  }

  private async withRetry<T>(work: () => Promise<T>, signal: AbortSignal): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (aborted(err) || signal.aborted) throw err;
      await new Promise((r) => setTimeout(r, RETRY_MS));
      if (signal.aborted) throw new DOMException('aborted', 'AbortError');
      return work();
    }
  }

  get current(): HistoryListView {
    if (this.view) return this.view;
    const shown = this.loaded ?? this.previous;
    this.view = {
      data: shown?.list,
      isPending: !shown && !this.failed,
      isSuccess: !!shown,
      isPlaceholderData: !this.loaded && !!this.previous,
      dataUpdatedAt: this.loaded?.at ?? 0,
      hasNextPage: !!this.loaded && nextOffset(this.loaded.pages) !== undefined,
      isFetchingNextPage: this.more,
      fetchNextPage: () => this.fetchNextPage(),
      refetch: () => this.refetch(),
    };
    return this.view;
  }

  dispose(): void {
    this.controller?.abort();
    this.listeners.clear();
  }
}

/** The list of the screen, 50 at a time, refreshed every 180 s and when a call ends. */
export function useHistoryList(filter: HistoryFilter): HistoryListView {
  const api = useService(Api);
  const { userId } = useService(Session);
  const loader = useMemo(() => new HistoryListLoader(), [api, userId]);
  useSyncExternalStore(loader.subscribe, loader.snapshot);
  const key = `${userId}:${JSON.stringify(filter)}`;
  useEffect(() => {
    loader.show(key, (offset, limit, signal) => fetchHistoryPage(api, userId, toHistoryQuery(filter, { offset, limit, tz: tzOffsetMinutes(new Date()) }), signal));
    // `filter` is in the key.
  }, [loader, key]);
  useEffect(() => {
    const timer = setInterval(() => void loader.refetch(), REFRESH_MS);
    const off = onHistoryInvalidated(() => void loader.refetch());
    return () => {
      clearInterval(timer);
      off();
      loader.dispose();
    };
  }, [loader]);
  return loader.current;
}

/** The navigation badge: missed calls since the user last opened the history. */
export function useMissedBadge(): number {
  const api = useService(Api);
  const { userId } = useService(Session);
  const { route } = useContextSnapshot();
  const stored = useSnapshot(historyState).seenAt[userId];
  const seenAt = stored ?? seenAtFor(userId, new Date());
  const key = `${userId}:${seenAt}`;
  const [count, setCount] = useState<{ key: string; n: number } | null>(null);

  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === seenStorageKey(userId)) syncSeenFromStorage(userId, e.newValue);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [userId]);

  useEffect(() => {
    let controller: AbortController | null = null;
    const ask = () => {
      controller?.abort();
      const c = (controller = new AbortController());
      countMissedSince(api, userId, seenAt, new Date(), c.signal).then(
        (n) => !c.signal.aborted && setCount({ key, n }),
        (err: unknown) => aborted(err) || log.error('missed count failed', err),
      );
    };
    ask();
    const timer = setInterval(ask, REFRESH_MS);
    const off = onHistoryInvalidated(ask);
    return () => {
      controller?.abort();
      clearInterval(timer);
      off();
    };
  }, [api, userId, seenAt, key]);
  // On the history screen the user is looking at those calls already.
  return route.startsWith(HISTORY_PATH) ? 0 : count?.key === key ? count.n : 0;
}

/** How long after a call ends the history asks the server once more (see TelephonyService.onCallEnded). */
const CALL_RECORD_LAG_MS = 2000;

/**
 * A call just ended is in the history at once, not at the next 3-minute refresh; asked again after
 * CALL_RECORD_LAG_MS for the side that hung up, whose record may be filed just after.
 */
export function refreshWhenCallsEnd(services: ServiceLookup): Disposable {
  const refresh = invalidateHistory;
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

import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HistoryPageWire } from '../../wire/history';
import { clearHistoryCache, FRESH_MS, HistoryListLoader, invalidateHistory, onHistoryInvalidated, RETRY_MS, type PageFetcher } from './load';
import { wire } from './test-fixtures';

/** A server with `count` calls whose answers the test releases (or fails) one by one. */
function server(count: number) {
  const all = Array.from({ length: count }, (_, i) => wire({ id: count - i }));
  const asked: Array<{ offset: number; answer: () => void; fail: () => void }> = [];
  const fetcher: PageFetcher = (offset, limit) =>
    new Promise<HistoryPageWire>((resolve, reject) => {
      asked.push({
        offset,
        answer: () => resolve({ items: all.slice(offset, offset + limit), total: all.length, offset, limit }),
        fail: () => reject(new Error('503')),
      });
    });
  /** Answers the oldest unanswered request. */
  const answer = async () => {
    const next = asked.shift();
    if (!next) throw new Error('nothing asked');
    next.answer();
    await vi.advanceTimersByTimeAsync(0);
    return next.offset;
  };
  const fail = async () => {
    asked.shift()!.fail();
    await vi.advanceTimersByTimeAsync(0);
  };
  return { fetcher, asked, answer, fail };
}

/** A list showing 'recents' over a server of `count` calls, fake timers on; nothing answered yet. */
function showing(count: number) {
  vi.useFakeTimers();
  const s = server(count);
  const list = new HistoryListLoader();
  list.show('recents', s.fetcher);
  return { s, list };
}

afterEach(() => {
  clearHistoryCache();
  vi.useRealTimers();
});

describe('the history list', () => {
  it('is pending, then shows the first 50 and loads the next 50 on demand', async () => {
    const { s, list } = showing(120);
    expect(list.current).toMatchObject({ isPending: true, isSuccess: false, data: undefined });
    expect(await s.answer()).toBe(0);
    expect(list.current).toMatchObject({ isPending: false, isSuccess: true, isPlaceholderData: false, hasNextPage: true });
    expect(list.current.data?.records).toHaveLength(50);
    void list.current.fetchNextPage();
    expect(list.current.isFetchingNextPage).toBe(true);
    expect(await s.answer()).toBe(50);
    expect(list.current.data?.records).toHaveLength(100);
    expect(list.current.isFetchingNextPage).toBe(false);
  });

  it('keeps the previous rows, marked as such, while another filter loads', async () => {
    const { s, list } = showing(10);
    await s.answer();
    list.show('missed', s.fetcher);
    expect(list.current).toMatchObject({ isPending: false, isPlaceholderData: true });
    expect(list.current.data?.records).toHaveLength(10);
    await s.answer();
    expect(list.current.isPlaceholderData).toBe(false);
  });

  it('shows a list seen in the last 30 s at once without asking, and asks again after that', async () => {
    const { s, list } = showing(10);
    await s.answer();
    list.show('missed', s.fetcher);
    await s.answer();
    list.show('recents', s.fetcher);
    expect(list.current.isPlaceholderData).toBe(false);
    expect(s.asked).toHaveLength(0);
    vi.advanceTimersByTime(FRESH_MS + 1);
    list.show('missed', s.fetcher);
    expect(s.asked).toHaveLength(1);
  });

  it('asks again for every page shown when the history changed (a call ended)', async () => {
    const { s, list } = showing(120);
    await s.answer();
    void list.fetchNextPage();
    await s.answer();
    const off = onHistoryInvalidated(() => void list.refetch());
    invalidateHistory();
    expect(await s.answer()).toBe(0);
    expect(await s.answer()).toBe(50);
    expect(s.asked).toHaveLength(0);
    expect(list.current.data?.records).toHaveLength(100);
    off();
  });

  it('retries once after a second; a second failure without rows offers the retry, and rows already shown stay', async () => {
    const { s, list } = showing(10);
    await s.fail();
    expect(s.asked).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(RETRY_MS);
    expect(s.asked).toHaveLength(1);
    await s.fail();
    expect(list.current).toMatchObject({ isPending: false, isSuccess: false, data: undefined });
    void list.current.refetch();
    await s.answer();
    expect(list.current.data?.records).toHaveLength(10);
    void list.refetch();
    await s.fail();
    await vi.advanceTimersByTimeAsync(RETRY_MS);
    await s.fail();
    expect(list.current.data?.records).toHaveLength(10);
  });

  it('forgets every list when the user signs out', async () => {
    const { s, list } = showing(10);
    await s.answer();
    clearHistoryCache();
    const next = new HistoryListLoader();
    next.show('recents', s.fetcher);
    expect(next.current.isPending).toBe(true);
  });
});

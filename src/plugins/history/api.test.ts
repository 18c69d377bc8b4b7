import { describe, expect, it } from 'vitest';
import { BADGE_SAMPLE, countMissedSince, fetchAllHistory, historyPath } from './api';
import { resolveFilter } from './filters';
import { wire, fakeHistoryApi } from './test-fixtures';

const now = new Date(2024, 2, 5, 12, 0);

describe('fetchAllHistory', () => {
  it('pages through the API 500 at a time and reports progress', async () => {
    const all = Array.from({ length: 1203 }, (_, i) => wire({ id: i + 1 }));
    const api = fakeHistoryApi(all);
    const progress: Array<[number, number]> = [];
    const filter = resolveFilter({ filter: 'missed', term: 'ada' }, now);
    const records = await fetchAllHistory(api, 7, filter, { now, onProgress: (p) => progress.push([p.loaded, p.total]) });
    expect(records).toHaveLength(1203);
    expect(api.calls.map((c) => c.query.offset)).toEqual([0, 500, 1000]);
    expect(api.calls.every((c) => c.path === historyPath(7) && c.query.limit === 500 && c.query.call_type === 'missed' && c.query.term === 'ada')).toBe(true);
    expect(api.calls[0]?.query).toMatchObject({ start_date: '2024-02-28', end_date: '2024-03-05', sort: 'desc' });
    expect(progress).toEqual([
      [500, 1203],
      [1000, 1203],
      [1203, 1203],
    ]);
  });

  it('makes one request for an empty period', async () => {
    const api = fakeHistoryApi([]);
    expect(await fetchAllHistory(api, 7, resolveFilter({ filter: 'recents' }, now), { now })).toEqual([]);
    expect(api.calls).toHaveLength(1);
  });
});

describe('countMissedSince', () => {
  const seenAt = new Date('2024-03-05T10:00:00Z').getTime();

  it('counts only missed calls after the moment the history was seen', async () => {
    const api = fakeHistoryApi([
      wire({ id: 3, call_time: '2024-03-05T11:00:00Z' }),
      wire({ id: 2, call_time: '2024-03-05T10:30:00Z' }),
      wire({ id: 1, call_time: '2024-03-05T09:00:00Z' }),
    ]);
    expect(await countMissedSince(api, 7, seenAt, now)).toBe(2);
    expect(api.calls[0]?.query).toMatchObject({ call_type: 'missed', limit: BADGE_SAMPLE, offset: 0 });
    expect(api.calls[0]?.query.start_date).toMatch(/^2024-03-0[45]$/);
  });

  it('uses the total when the whole sample is newer', async () => {
    const api = fakeHistoryApi(Array.from({ length: 250 }, (_, i) => wire({ id: i, call_time: '2024-03-05T11:00:00Z' })));
    expect(await countMissedSince(api, 7, seenAt, now)).toBe(250);
  });

  it('is zero when nothing was missed', async () => {
    expect(await countMissedSince(fakeHistoryApi([]), 7, seenAt, now)).toBe(0);
  });
});

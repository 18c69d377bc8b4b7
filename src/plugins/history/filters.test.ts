import { describe, expect, it } from 'vitest';
import { HistoryQueryV2 } from '../../wire/history';
import {
  applyTypeRule,
  callTypeParam,
  defaultRange,
  isoDay,
  lastDays,
  parseIsoDay,
  resolveFilter,
  toHistoryQuery,
  toUrlSearch,
  typesOf,
  typesToSearch,
  tzOffsetMinutes,
  updateSearch,
  validateHistorySearch,
} from './filters';

// Local dates on purpose: the rules are about the user's calendar days, whatever zone the test runs in.
const now = new Date(2024, 2, 5, 10, 15);

describe('default range', () => {
  it('is the past week: today−6 … today, inclusive', () => {
    expect(defaultRange(now)).toEqual({ from: '2024-02-28', to: '2024-03-05' });
  });

  it('crosses months and years on calendar days', () => {
    expect(defaultRange(new Date(2024, 0, 3, 23, 59))).toEqual({ from: '2023-12-28', to: '2024-01-03' });
    expect(lastDays(now, 30)).toEqual({ from: '2024-02-05', to: '2024-03-05' });
  });

  it('reads and writes local days', () => {
    expect(isoDay(new Date(2024, 11, 31, 23, 59))).toBe('2024-12-31');
    expect(parseIsoDay('2024-02-29')?.getDate()).toBe(29);
    expect(parseIsoDay('2023-02-29')).toBeNull();
    expect(parseIsoDay('2024-2-1')).toBeNull();
  });
});

describe('call type rule', () => {
  it('sets all three back to true when none is chosen', () => {
    expect(applyTypeRule({ incoming: false, outgoing: false, missed: false })).toEqual({ incoming: true, outgoing: true, missed: true });
  });

  it('keeps any other choice', () => {
    expect(applyTypeRule({ incoming: false, outgoing: true, missed: false })).toEqual({ incoming: false, outgoing: true, missed: false });
  });

  it('applies when reading the URL and when writing it', () => {
    expect(typesOf({ filter: 'recents', in: false, out: false, missed: false })).toEqual({ incoming: true, outgoing: true, missed: true });
    expect(typesToSearch({ incoming: false, outgoing: false, missed: false })).toEqual({ in: undefined, out: undefined, missed: undefined });
    expect(typesToSearch({ incoming: true, outgoing: false, missed: true })).toEqual({ in: undefined, out: false, missed: undefined });
  });

  it('maps to the API call_type list', () => {
    const all = { incoming: true, outgoing: true, missed: true };
    expect(callTypeParam({ view: 'recents', types: all })).toBeUndefined();
    expect(callTypeParam({ view: 'recents', types: { incoming: true, outgoing: false, missed: true } })).toBe('inbound,missed');
    expect(callTypeParam({ view: 'recents', types: { incoming: false, outgoing: false, missed: false } })).toBeUndefined();
    expect(callTypeParam({ view: 'missed', types: { incoming: true, outgoing: true, missed: false } })).toBe('missed');
  });
});

describe('search params', () => {
  it('defaults to recents and drops what is unusable', () => {
    expect(validateHistorySearch({})).toEqual({ filter: 'recents' });
    expect(validateHistorySearch({ filter: 'bogus', id: 'x', from: '2024-13-01', to: 5, in: 'maybe' })).toEqual({ filter: 'recents' });
  });

  it('reads typed and string forms', () => {
    expect(validateHistorySearch({ filter: 'missed', id: '42', term: 'ada', from: '2024-03-01', to: '2024-03-05', in: 'false', out: false })).toEqual({
      filter: 'missed',
      id: 42,
      term: 'ada',
      from: '2024-03-01',
      to: '2024-03-05',
      in: false,
      out: false,
    });
  });

  it('applies the reset-to-all rule to the URL', () => {
    expect(validateHistorySearch({ in: false, out: false, missed: false })).toEqual({ filter: 'recents' });
  });

  it('keeps a term within the API limit', () => {
    expect(validateHistorySearch({ term: 'x'.repeat(300) }).term).toHaveLength(200);
    expect(validateHistorySearch({ term: '   ' }).term).toBeUndefined();
  });

  it('leaves the default view out of URLs', () => {
    expect(toUrlSearch({ filter: 'recents', id: 3 })).toEqual({ id: 3 });
    expect(toUrlSearch({ filter: 'missed' })).toEqual({ filter: 'missed' });
  });

  it('drops the selection when a filter changes, not when only the selection does', () => {
    const current = { filter: 'recents' as const, id: 7, term: 'ada' };
    expect(updateSearch(current, { term: 'bob' })).toEqual({ filter: 'recents', term: 'bob' });
    expect(updateSearch(current, { filter: 'missed' })).toEqual({ filter: 'missed', term: 'ada' });
    expect(updateSearch(current, { id: 9 })).toEqual({ filter: 'recents', id: 9, term: 'ada' });
    expect(updateSearch(current, { term: 'ada' })).toEqual(current);
  });
});

describe('resolveFilter', () => {
  it('fills in the default week', () => {
    expect(resolveFilter({ filter: 'recents' }, now)).toEqual({
      view: 'recents',
      term: '',
      from: '2024-02-28',
      to: '2024-03-05',
      types: { incoming: true, outgoing: true, missed: true },
    });
  });

  it('reads a reversed range the right way round', () => {
    const f = resolveFilter({ filter: 'recents', from: '2024-03-10', to: '2024-03-01' }, now);
    expect([f.from, f.to]).toEqual(['2024-03-01', '2024-03-10']);
  });

  it('builds an API query the shared wire schema accepts', () => {
    const f = resolveFilter({ filter: 'recents', term: ' ada ', out: false }, now);
    const q = toHistoryQuery(f, { offset: 50, limit: 50, tz: 120 });
    expect(q).toEqual({
      offset: 50,
      limit: 50,
      sort: 'desc',
      term: 'ada',
      start_date: '2024-02-28',
      end_date: '2024-03-05',
      tz: 120,
      call_type: 'inbound,missed',
    });
    expect(HistoryQueryV2.safeParse(q).success).toBe(true);
  });

  it('gives the zone offset east of UTC', () => {
    const at = new Date();
    expect(tzOffsetMinutes(at)).toBe(-at.getTimezoneOffset() || 0);
    expect(Object.is(tzOffsetMinutes(at), -0)).toBe(false);
  });
});

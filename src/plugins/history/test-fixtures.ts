import type { HistoryPageWire, HistoryRecordWire } from '../../wire/history';

/** A wire record for tests: an answered inbound call from a named caller. */
export function wire(overrides: Partial<HistoryRecordWire> = {}): HistoryRecordWire {
  return {
    id: 1,
    call_time: '2024-03-05T14:30:00.000Z',
    direction: 'inbound',
    disposition: 'ANSWERED',
    source_phone: '+14155550142',
    dest_phone: '1001',
    duration: 185,
    is_primary: true,
    caller_id: 'ACME Support',
    cnam: 'Ada Lovelace',
    ...overrides,
  };
}

/** A fake `api.get` answering from an in-memory list with the server's paging and total. */
export function fakeHistoryApi(all: HistoryRecordWire[]) {
  const calls: Array<{ path: string; query: Record<string, unknown> }> = [];
  const api = {
    calls,
    get: async <T>(path: string, query?: Record<string, unknown>): Promise<T> => {
      calls.push({ path, query: { ...query } });
      const offset = Number(query?.offset ?? 0);
      const limit = Number(query?.limit ?? 50);
      const page: HistoryPageWire = { items: all.slice(offset, offset + limit), total: all.length, offset, limit };
      return page as T;
    },
  };
  return api;
}

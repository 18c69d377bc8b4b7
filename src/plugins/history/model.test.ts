import { describe, expect, it } from 'vitest';
import type { HistoryPageWire, HistoryRecordWire } from '../../wire/history';
import { wire } from './test-fixtures';
import { hasMorePages, historyType, mergePages, nextOffset, toHistoryRecord, toHms, toUtcIso } from './model';

function page(items: HistoryRecordWire[], total: number, offset = 0): HistoryPageWire {
  return { items, total, offset, limit: 50 };
}

describe('toHistoryRecord', () => {
  it('maps every field of an inbound answered call', () => {
    expect(toHistoryRecord(wire())).toEqual({
      id: 1,
      dateTime: '2024-03-05T14:30:00.000Z',
      phoneNumber: '+14155550142',
      cnam: 'Ada Lovelace',
      callerId: 'ACME Support',
      direction: 'inbound',
      disposition: 'ANSWERED',
      type: 'INBOUND',
      duration: '00:03:05',
      durationSeconds: 185,
      isPrimary: true,
    });
  });

  it('takes the other party: the caller for inbound, the callee for outbound', () => {
    expect(toHistoryRecord(wire({ direction: 'inbound', source_phone: '111', dest_phone: '222' })).phoneNumber).toBe('111');
    expect(toHistoryRecord(wire({ direction: 'outbound', source_phone: '111', dest_phone: '222' })).phoneNumber).toBe('222');
  });

  it('types an unanswered inbound call as missed (UNANSWERED), an unanswered outbound one as OUTBOUND', () => {
    expect(toHistoryRecord(wire({ disposition: 'UNANSWERED' })).type).toBe('UNANSWERED');
    expect(toHistoryRecord(wire({ direction: 'outbound', disposition: 'UNANSWERED' })).type).toBe('OUTBOUND');
    expect(historyType('outbound', 'ANSWERED')).toBe('OUTBOUND');
  });

  it('turns blank names into null', () => {
    const r = toHistoryRecord(wire({ cnam: '  ', caller_id: null }));
    expect(r.cnam).toBeNull();
    expect(r.callerId).toBeNull();
  });
});

describe('toUtcIso', () => {
  it('keeps instants with a zone and reads zone-less times as UTC', () => {
    expect(toUtcIso('2024-03-05T14:30:00Z')).toBe('2024-03-05T14:30:00.000Z');
    expect(toUtcIso('2024-03-05T16:30:00+02:00')).toBe('2024-03-05T14:30:00.000Z');
    expect(toUtcIso('2024-03-05 14:30:00')).toBe('2024-03-05T14:30:00.000Z');
    expect(toUtcIso('2024-03-05T14:30:00')).toBe('2024-03-05T14:30:00.000Z');
  });

  it('leaves an unreadable time as it came', () => {
    expect(toUtcIso('yesterday-ish')).toBe('yesterday-ish');
  });
});

describe('toHms', () => {
  it('formats hh:mm:ss', () => {
    expect(toHms(0)).toBe('00:00:00');
    expect(toHms(59)).toBe('00:00:59');
    expect(toHms(3600 + 62)).toBe('01:01:02');
    expect(toHms(100 * 3600)).toBe('100:00:00');
    expect(toHms(-5)).toBe('00:00:00');
  });
});

describe('paging', () => {
  it('has more pages while fewer are loaded than the total', () => {
    expect(hasMorePages(50, 120)).toBe(true);
    expect(hasMorePages(120, 120)).toBe(false);
    expect(hasMorePages(0, 0)).toBe(false);
  });

  it('asks for the next offset until everything is loaded', () => {
    const fifty = Array.from({ length: 50 }, (_, i) => wire({ id: i + 1 }));
    expect(nextOffset([page(fifty, 120)])).toBe(50);
    expect(nextOffset([page(fifty, 100), page(fifty.map((w) => ({ ...w, id: w.id + 50 })), 100, 50)])).toBeUndefined();
    expect(nextOffset([])).toBeUndefined();
  });

  it('stops on an empty page even if the total says otherwise', () => {
    expect(nextOffset([page([wire()], 10), page([], 10, 1)])).toBeUndefined();
  });

  it('merges pages keeping each record once, in order', () => {
    const merged = mergePages([page([wire({ id: 3 }), wire({ id: 2 })], 4), page([wire({ id: 2 }), wire({ id: 1 })], 4, 2)]);
    expect(merged.records.map((r) => r.id)).toEqual([3, 2, 1]);
    expect(merged.total).toBe(4);
  });
});

import type { HistoryPageWire, HistoryRecordWire } from '../../wire/history';

/** Records per page of the history list (the product pages history by 50). */
export const PAGE_SIZE = 50;
/** Records per request when exporting everything to CSV (the API's maximum limit). */
export const EXPORT_PAGE_SIZE = 500;
/** The list and the missed-calls badge refresh every 180 s. */
export const REFRESH_MS = 180_000;

export type HistoryType = 'INBOUND' | 'OUTBOUND' | 'UNANSWERED';

/** A call history record as the client uses it (the product's field names: dateTime, phoneNumber, cnam…). */
export interface HistoryRecord {
  id: number;
  /** ISO 8601 instant in UTC. */
  dateTime: string;
  /** The other party: the caller of an inbound call, the callee of an outbound one. */
  phoneNumber: string;
  cnam: string | null;
  callerId: string | null;
  direction: 'inbound' | 'outbound';
  disposition: 'ANSWERED' | 'UNANSWERED';
  /** UNANSWERED is a missed call: inbound and not answered. */
  type: HistoryType;
  /** hh:mm:ss */
  duration: string;
  durationSeconds: number;
  isPrimary: boolean;
}

export function historyType(direction: HistoryRecord['direction'], disposition: HistoryRecord['disposition']): HistoryType {
  if (direction === 'outbound') return 'OUTBOUND';
  return disposition === 'UNANSWERED' ? 'UNANSWERED' : 'INBOUND';
}

export function isMissed(record: Pick<HistoryRecord, 'type'>): boolean {
  return record.type === 'UNANSWERED';
}

/** Whole seconds as hh:mm:ss; hours keep growing past 99 rather than wrapping. */
export function toHms(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(totalSeconds) ? totalSeconds : 0));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/**
 * The wire time is UTC; a value without a zone designator is read as UTC too (older servers sent
 * `YYYY-MM-DD HH:mm:ss`), so a record never shifts by the viewer's offset.
 */
export function toUtcIso(callTime: string): string {
  let text = callTime.trim();
  if (/^\d{4}-\d{2}-\d{2} \d/.test(text)) text = text.replace(' ', 'T');
  if (text.includes('T') && !/(?:Z|[+-]\d{2}:?\d{2})$/i.test(text)) text += 'Z';
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? callTime : date.toISOString();
}

export function toHistoryRecord(wire: HistoryRecordWire): HistoryRecord {
  return {
    id: wire.id,
    dateTime: toUtcIso(wire.call_time),
    phoneNumber: wire.direction === 'inbound' ? wire.source_phone : wire.dest_phone,
    cnam: wire.cnam?.trim() || null,
    callerId: wire.caller_id?.trim() || null,
    direction: wire.direction,
    disposition: wire.disposition,
    type: historyType(wire.direction, wire.disposition),
    duration: toHms(wire.duration),
    durationSeconds: wire.duration,
    isPrimary: wire.is_primary,
  };
}

/** More pages exist while fewer records are loaded than the server counts. */
export function hasMorePages(loaded: number, total: number): boolean {
  return loaded < total;
}

/**
 * Offset of the next page, or undefined when the list is complete. An empty page also ends it, so
 * a total that shrank between requests cannot make the list ask forever.
 */
export function nextOffset(pages: readonly HistoryPageWire[]): number | undefined {
  const last = pages[pages.length - 1];
  if (!last || last.items.length === 0) return undefined;
  const loaded = pages.reduce((n, p) => n + p.items.length, 0);
  return hasMorePages(loaded, last.total) ? loaded : undefined;
}

export interface HistoryList {
  records: HistoryRecord[];
  total: number;
}

/**
 * Pages are offset-based, so a call arriving between two page loads shifts the next page by one and
 * repeats a record: keep each id once, in server order.
 */
export function mergePages(pages: readonly HistoryPageWire[]): HistoryList {
  const seen = new Set<number>();
  const records: HistoryRecord[] = [];
  for (const page of pages) {
    for (const item of page.items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      records.push(toHistoryRecord(item));
    }
  }
  return { records, total: pages[pages.length - 1]?.total ?? 0 };
}

import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useMaybeService } from '../../../kernel';
import { ContactsApi } from '../../../contracts';
import { PlainGridList } from '../../../ui/PlainGridList';
import { displayName, formatDuration, formatFullDateTime, formatListTime, formatPhone } from '../format';
import { isMissed, type HistoryRecord } from '../model';

/** Row height of the virtualised list (two lines of text). */
export const ROW_HEIGHT = 52;
/** Relative times ("2 minutes ago") are refreshed this often. */
const CLOCK_MS = 30_000;

function useNow(intervalMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** Direction glyphs; the words beside or behind them carry the meaning. */
export const TYPE_GLYPH: Record<HistoryRecord['type'], string> = { INBOUND: '↙', OUTBOUND: '↗', UNANSWERED: '⤺' };

/** A row's words for screen readers: who, the kind of call, when, how long. */
function rowLabel(record: HistoryRecord, name: string, typeLabel: string, missedLabel: string, time: string, duration: string): string {
  const number = formatPhone(record.phoneNumber);
  return [name, isMissed(record) ? missedLabel : typeLabel, name !== number ? number : '', time, duration].filter(Boolean).join(', ');
}

function HistoryRowContent({ record, name, now, locale }: { record: HistoryRecord; name: string; now: Date; locale: string }) {
  const { t } = useTranslation('history');
  const missed = isMissed(record);
  const number = formatPhone(record.phoneNumber);
  const typeLabel = t(`type.${record.type}`);
  const time = formatListTime(record.dateTime, { locale, now });
  const duration = missed ? '' : formatDuration(record.durationSeconds, locale);
  // Without a name the number is already the title; the second line then names the kind of call.
  const showNumber = name !== number;
  return (
    <>
      <div className="row-main">
        <span className="row-primary">{name}</span>
        <span className="row-secondary">
          <span className="history-glyph" aria-hidden="true">
            {missed ? TYPE_GLYPH.UNANSWERED : TYPE_GLYPH[record.type]}
          </span>
          {missed ? <span className="missed">{t('row.missed')}</span> : !showNumber && <span>{typeLabel}</span>}
          {showNumber && <span>{`${missed ? ' · ' : ' '}${number}`}</span>}
        </span>
      </div>
      <div className="row-meta">
        <time dateTime={record.dateTime} title={formatFullDateTime(record.dateTime, locale)}>
          {time}
        </time>
        {duration && <div>{duration}</div>}
      </div>
    </>
  );
}

export interface HistoryListProps {
  records: readonly HistoryRecord[];
  selectedId: number | undefined;
  hasMore: boolean;
  loadingMore: boolean;
  /** Rows shown belong to the previous filter while the new one loads. */
  busy: boolean;
  onLoadMore(): void;
  /** `open`: a click or tap chose the call; `move`: arrow keys walk through the list. */
  onSelect(id: number, how: 'move' | 'open'): void;
  /** Enter or a screen reader's activation: show the call and go to it. */
  onActivate(id: number): void;
  listRef: RefObject<HTMLDivElement | null>;
}

/** Rows from the end at which the next page is asked for. */
const LOAD_MORE_WITHIN = 10;

interface Row {
  id: string;
  record: HistoryRecord;
  name: string;
}

/**
 * The calls as the product's list grid (ui/gridRow: one tab stop, arrows move the selection, Enter
 * opens), paged as it scrolls, every loaded row drawn. The first screen's list: the product's own
 * grid keeps React Aria's collections and selection, and any virtualizer, out of the first screen's
 * scripts (issue 17).
 */
export function HistoryList({ records, selectedId, hasMore, loadingMore, busy, onLoadMore, onSelect, onActivate, listRef }: HistoryListProps) {
  const { t, i18n } = useTranslation('history');
  const locale = i18n.language;
  const contacts = useMaybeService(ContactsApi);
  const now = useNow(CLOCK_MS);
  const rows = useMemo<Row[]>(
    () => records.map((r) => ({ id: String(r.id), record: r, name: displayName(r, contacts?.lookupNumber(r.phoneNumber)?.name) })),
    [records, contacts],
  );
  // A click chooses the call (the detail follows, and on narrow screens opens); Enter also goes to it.
  // Capture phase: the grid's own handlers act before a bubbling listener would run.
  const lastInput = useRef<'keyboard' | 'pointer'>('keyboard');
  useEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const onKey = () => (lastInput.current = 'keyboard');
    const onPointer = () => (lastInput.current = 'pointer');
    el.addEventListener('keydown', onKey, true);
    el.addEventListener('pointerdown', onPointer, true);
    return () => {
      el.removeEventListener('keydown', onKey, true);
      el.removeEventListener('pointerdown', onPointer, true);
    };
  }, [listRef]);
  const more = useRef({ hasMore, loadingMore, onLoadMore, count: rows.length });
  more.current = { hasMore, loadingMore, onLoadMore, count: rows.length };
  const onLastVisible = useCallback((index: number) => {
    const m = more.current;
    if (m.hasMore && !m.loadingMore && index >= m.count - LOAD_MORE_WITHIN) m.onLoadMore();
  }, []);
  // The list's rows change while the last one drawn stays: ask again when a page lands short.
  useEffect(() => {
    const el = listRef.current;
    if (el && hasMore && !loadingMore && el.scrollHeight <= el.clientHeight + ROW_HEIGHT) onLoadMore();
  }, [rows.length, hasMore, loadingMore, onLoadMore, listRef]);

  return (
    <>
      <PlainGridList
        rows={rows}
        rowCount={hasMore ? -1 : rows.length}
        selectedId={selectedId === undefined ? undefined : String(selectedId)}
        listRef={listRef}
        rowHeight={ROW_HEIGHT}
        label={t('list.label')}
        idPrefix="history-row-"
        className="list history-list"
        busy={busy}
        rowLabel={(r) =>
          rowLabel(r.record, r.name, t(`type.${r.record.type}`), t('row.missed'), formatListTime(r.record.dateTime, { locale, now }), isMissed(r.record) ? '' : formatDuration(r.record.durationSeconds, locale))
        }
        rowClassName={(r) => `row history-row${isMissed(r.record) ? ' missed' : ''}`}
        cellClassName="history-cell"
        onSelect={(id) => onSelect(Number(id), 'move')}
        onActivate={(id) => (lastInput.current === 'pointer' ? onSelect(Number(id), 'open') : onActivate(Number(id)))}
        onLastVisible={onLastVisible}
      >
        {(r) => <HistoryRowContent record={r.record} name={r.name} now={now} locale={locale} />}
      </PlainGridList>
      {loadingMore && (
        <p className="history-loading-more" role="status">
          {t('list.loadingMore')}
        </p>
      )}
    </>
  );
}

import { useEffect, useRef, useState, type RefObject } from 'react';
import { Collection, GridList, GridListItem, GridListLoadMoreItem, ListLayout, Virtualizer, type Key, type Selection } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useMaybeService } from '../../../kernel';
import { ContactsApi } from '../../../contracts';
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

function HistoryRow({ record, name, now, locale }: { record: HistoryRecord; name: string; now: Date; locale: string }) {
  const { t } = useTranslation('history');
  const missed = isMissed(record);
  const number = formatPhone(record.phoneNumber);
  const typeLabel = t(`type.${record.type}`);
  const time = formatListTime(record.dateTime, { locale, now });
  const duration = missed ? '' : formatDuration(record.durationSeconds, locale);
  // Without a name the number is already the title; the second line then names the kind of call.
  const showNumber = name !== number;
  return (
    <GridListItem id={record.id} textValue={name} className={`row history-row${missed ? ' missed' : ''}`}>
      <div className="row-main">
        <span className="row-primary">{name}</span>
        <span className="row-secondary">
          {missed ? (
            <>
              <span className="history-glyph" aria-hidden="true">
                {TYPE_GLYPH.UNANSWERED}
              </span>
              <span className="missed">{t('row.missed')}</span>
            </>
          ) : showNumber ? (
            <span className="history-glyph" role="img" aria-label={typeLabel}>
              {TYPE_GLYPH[record.type]}
            </span>
          ) : (
            <>
              <span className="history-glyph" aria-hidden="true">
                {TYPE_GLYPH[record.type]}
              </span>
              <span>{typeLabel}</span>
            </>
          )}
          {showNumber && <span>{`${missed ? ' · ' : ' '}${number}`}</span>}
        </span>
      </div>
      <div className="row-meta">
        <time dateTime={record.dateTime} title={formatFullDateTime(record.dateTime, locale)}>
          {time}
        </time>
        {duration && <div>{duration}</div>}
      </div>
    </GridListItem>
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
  /** Enter, double click, a tap or a screen reader's activation: show the call and go to it. */
  onActivate(id: number): void;
  listRef: RefObject<HTMLDivElement | null>;
}

export function HistoryList({ records, selectedId, hasMore, loadingMore, busy, onLoadMore, onSelect, onActivate, listRef }: HistoryListProps) {
  const { t, i18n } = useTranslation('history');
  const locale = i18n.language;
  const contacts = useMaybeService(ContactsApi);
  const now = useNow(CLOCK_MS);
  const lastInput = useRef<'keyboard' | 'pointer'>('keyboard');

  // Capture phase: the list's own handlers change the selection before a bubbling listener would run.
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

  const onSelectionChange = (keys: Selection) => {
    if (keys === 'all') return;
    const [key] = [...keys];
    // Arrow keys move the selection and the detail follows; only a click also opens it on narrow screens.
    if (key !== undefined) onSelect(Number(key), lastInput.current === 'pointer' ? 'open' : 'move');
  };

  return (
    <Virtualizer layout={ListLayout} layoutOptions={{ rowSize: ROW_HEIGHT, loaderSize: ROW_HEIGHT }}>
      <GridList
        ref={listRef}
        aria-label={t('list.label')}
        aria-busy={busy || undefined}
        className="list history-list"
        selectionMode="single"
        selectionBehavior="replace"
        disallowEmptySelection
        selectedKeys={selectedId === undefined ? [] : [selectedId]}
        onSelectionChange={onSelectionChange}
        onAction={(key: Key) => onActivate(Number(key))}
      >
        <Collection items={records} dependencies={[now, locale, contacts]}>
          {(r) => <HistoryRow record={r} now={now} locale={locale} name={displayName(r, contacts?.lookupNumber(r.phoneNumber)?.name)} />}
        </Collection>
        <GridListLoadMoreItem onLoadMore={hasMore && !loadingMore ? onLoadMore : undefined} isLoading={loadingMore} className="history-loading-more">
          <div className="skeleton-row" role="img" aria-label={t('list.loadingMore')} />
        </GridListLoadMoreItem>
      </GridList>
    </Virtualizer>
  );
}

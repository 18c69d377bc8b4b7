import { useEffect, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { ContactsApi, useMaybeService } from '../../kernel';
import { useVirtualGrid } from '../../kernel/ui/virtualGrid';
import { formatPhone } from '../../wire/phone';
import { formatDuration, formatTimestamp } from './model';
import type { Voicemail } from './state';

export const ROW_HEIGHT = 52;

function useNow(ms: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

export interface VoicemailListProps {
  rows: readonly Voicemail[];
  selectedId: string | undefined;
  checked: readonly string[];
  playingId: string | null;
  listRef: RefObject<HTMLDivElement | null>;
  onSelect(id: string): void;
  onActivate(id: string): void;
  onToggleCheck(id: string): void;
}

/**
 * A virtualised grid (only visible rows are in the DOM): one tab stop holding aria-activedescendant;
 * arrows, Page Up/Down, Home/End move, Enter opens, Space ticks. Once something is ticked, a click
 * ticks too (the specification: with items selected, clicking a row toggles its selection).
 */
export function VoicemailList({ rows, selectedId, checked, playingId, listRef, onSelect, onActivate, onToggleCheck }: VoicemailListProps) {
  const { t, i18n } = useTranslation('voicemail');
  const contacts = useMaybeService(ContactsApi);
  const now = useNow(30_000);
  const locale = i18n.language;
  const { virtualizer, index, onKeyDown } = useVirtualGrid({ rows, selectedId, listRef, rowHeight: ROW_HEIGHT, onSelect, onActivate, onToggleCheck });
  const checkedSet = new Set(checked);
  const selecting = checked.length > 0;

  const yesterday = t('time.yesterday');
  return (
    <div
      ref={listRef}
      role="grid"
      aria-label={t('list.label')}
      aria-rowcount={rows.length}
      aria-multiselectable={selecting || undefined}
      aria-activedescendant={index >= 0 ? `vm-row-${rows[index]!.id}` : undefined}
      tabIndex={0}
      className="list vm-list"
      onKeyDown={onKeyDown}
      onFocus={(e) => {
        if (e.target === e.currentTarget && index < 0 && rows.length) onSelect(rows[0]!.id);
      }}
    >
      <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((v) => {
          const r = rows[v.index]!;
          const contact = contacts?.lookupNumber(r.callerNumber)?.name;
          const name = contact ?? r.callerName ?? formatPhone(r.callerNumber);
          const unread = r.status === 'UNREAD';
          const time = formatTimestamp(r.timestamp, now, locale, yesterday);
          const duration = formatDuration(r.durationSeconds, locale);
          const isChecked = checkedSet.has(r.id);
          const label = [name, unread ? t('unread') : '', r.id === playingId ? t('player.playing') : '', time, duration].filter(Boolean).join(', ');
          return (
            <div
              key={r.id}
              id={`vm-row-${r.id}`}
              role="row"
              aria-rowindex={v.index + 1}
              aria-label={label}
              aria-selected={selecting ? isChecked : r.id === selectedId}
              data-selected={r.id === selectedId || undefined}
              data-focus-visible={r.id === selectedId || undefined}
              className={`row vm-row${unread ? ' unread' : ''}`}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${v.start}px)` }}
              onClick={(e) => {
                if (selecting || e.ctrlKey || e.metaKey) onToggleCheck(r.id);
                else onActivate(r.id);
              }}
            >
              <div role="gridcell" className="vm-cell">
                {selecting && (
                  <input
                    type="checkbox"
                    tabIndex={-1}
                    className="vm-check"
                    checked={isChecked}
                    aria-label={t('list.check', { name })}
                    onClick={(e) => e.stopPropagation()}
                    onChange={() => onToggleCheck(r.id)}
                  />
                )}
                <span className="vm-dot" aria-hidden="true">
                  {r.id === playingId ? '▶' : unread ? '●' : ''}
                </span>
                <span className="row-main">
                  <span className="row-primary">{name}</span>
                  <span className="row-secondary">{r.transcript ?? formatPhone(r.callerNumber)}</span>
                </span>
                <span className="row-meta">
                  <time dateTime={r.timestamp}>{time}</time>
                  <div>{duration}</div>
                </span>
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}

import { useEffect, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useMaybeService } from '../../../kernel';
import { ContactsApi } from '../../../contracts';
import { VirtualGridList } from '../../../ui/VirtualGridList';
import { formatPhone } from '../../../wire/phone';
import { formatDuration, formatTimestamp } from '../model';
import type { Voicemail } from '../state';

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
 * ticks too: with items selected, clicking a row toggles its selection instead of opening it.
 */
export function VoicemailList({ rows, selectedId, checked, playingId, listRef, onSelect, onActivate, onToggleCheck }: VoicemailListProps) {
  const { t, i18n } = useTranslation('voicemail');
  const contacts = useMaybeService(ContactsApi);
  const now = useNow(30_000);
  const locale = i18n.language;
  const selecting = checked.length > 0;
  const yesterday = t('time.yesterday');
  const nameOf = (r: Voicemail) => contacts?.lookupNumber(r.callerNumber)?.name ?? r.callerName ?? formatPhone(r.callerNumber);
  const timeOf = (r: Voicemail) => formatTimestamp(r.timestamp, now, locale, yesterday);
  const durationOf = (r: Voicemail) => formatDuration(r.durationSeconds, locale);
  const unread = (r: Voicemail) => r.status === 'UNREAD';
  return (
    <VirtualGridList
      {...{ rows, selectedId, listRef, onSelect, onActivate }}
      rowHeight={ROW_HEIGHT}
      label={t('list.label')}
      idPrefix="vm-row-"
      className="list vm-list"
      rowLabel={(r) => [nameOf(r), unread(r) ? t('unread') : '', r.id === playingId ? t('player.playing') : '', timeOf(r), durationOf(r)].filter(Boolean).join(', ')}
      rowClassName={(r) => `row vm-row${unread(r) ? ' unread' : ''}`}
      cellClassName="vm-cell"
      ticks={{ checked: new Set(checked), shown: selecting, clickTicks: selecting, boxLabel: (r) => t('list.check', { name: nameOf(r) }), boxClassName: 'vm-check', onToggle: onToggleCheck }}
    >
      {(r) => (
        <>
          <span className="vm-dot" aria-hidden="true">
            {r.id === playingId ? '▶' : unread(r) ? '●' : ''}
          </span>
          <span className="row-main">
            <span className="row-primary">{nameOf(r)}</span>
            <span className="row-secondary">{r.transcript ?? formatPhone(r.callerNumber)}</span>
          </span>
          <span className="row-meta">
            <time dateTime={r.timestamp}>{timeOf(r)}</time>
            <div>{durationOf(r)}</div>
          </span>
        </>
      )}
    </VirtualGridList>
  );
}

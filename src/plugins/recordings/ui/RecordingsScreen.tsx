import { useNavigate, useParams } from '@tanstack/react-router';
import { use, useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { Button, Input, Label, SearchField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { useKernel, useMaybeService, type ServiceLookup } from '../../../kernel';
import { ContactsApi, TelephonyApi } from '../../../contracts';
import { VirtualGridList } from '../../../ui/VirtualGridList';
import { formatPhone } from '../../../wire/phone';
import { currentFilter, load, loadMore, seek } from '../api';
import { clock, correctedStart, formatTimestamp, RANGES, rangeDays, START_CORRECTION_MS, type RangeType, type RecordingFilter } from '../model';
import { recState, RECORDINGS_PATH, type Recording } from '../state';
import { strings } from '../strings';
import { ListPending } from '../../../ui/ListPending';
import './recordings.css';

const ROW_HEIGHT = 52;

export default function RecordingsScreen() {
  const { i18n } = useTranslation('recordings');
  use(strings(i18n.language));
  return <Screen />;
}

function useServices(): ServiceLookup {
  return useKernel();
}

function Screen() {
  const { t } = useTranslation('recordings');
  const services = useServices();
  const kernel = useKernel();
  const navigate = useNavigate();
  const { id } = useParams({ strict: false }) as { id?: string };
  const snap = useSnapshot(recState);
  const items = snap.items as readonly Recording[] | null;
  const [filter, setFilter] = useState<RecordingFilter>(currentFilter);
  const selected = id ? items?.find((r) => r.id === id) : undefined;
  const listRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusDetail = useRef<string | null>(null);

  useEffect(() => {
    recState.selectedId = id ?? null;
  }, [id]);
  useEffect(() => () => void (recState.selectedId = null), []);

  // Every change of the filter reads the first page again (the term after a short pause).
  const key = JSON.stringify(filter);
  const first = useRef(true);
  useEffect(() => {
    // Coming back to the screen shows what the store has at once, then asks for the newest page in
    // the background (a call just recorded is listed seconds after it ended, not at the next 60 s
    // refresh); as with that refresh, not while something plays.
    const unchanged = first.current && recState.items !== null && JSON.stringify(currentFilter()) === key;
    first.current = false;
    if (unchanged) {
      if (recState.player.state !== 'playing' && recState.player.state !== 'loading') void load(services, filter);
      return;
    }
    const timer = setTimeout(() => void load(services, filter), filter.phoneNumber === currentFilter().phoneNumber ? 0 : 300);
    return () => clearTimeout(timer);
  }, [key, services]);

  // Specification: a start date earlier than 3 months ago moves to the limit plus one day after 2 s.
  const correction = correctedStart(filter.startDate, new Date());
  useEffect(() => {
    if (!correction) return;
    const timer = setTimeout(() => setFilter((f) => ({ ...f, startDate: correction })), START_CORRECTION_MS);
    return () => clearTimeout(timer);
  }, [correction]);

  useEffect(() => {
    if (selected && focusDetail.current === selected.id) {
      focusDetail.current = null;
      headingRef.current?.focus();
    }
  });

  const open = (rid: string | null, toDetail = false) => {
    focusDetail.current = toDetail ? rid : null;
    if (toDetail && rid && rid === recState.selectedId) {
      focusDetail.current = null;
      headingRef.current?.focus();
      return;
    }
    void navigate({ to: rid ? `${RECORDINGS_PATH}/${rid}` : RECORDINGS_PATH, replace: true });
  };

  const setRange = (range: RangeType) => setFilter((f) => (range === 'custom' ? { ...f, range } : { ...f, range, ...rangeDays(range, new Date()) }));

  let body;
  if (!items) {
    body = <ListPending failed={snap.loadFailed} onRetry={() => void load(services)} text={{ error: t('list.error'), retry: t('list.retry'), loading: t('list.loading') }} />;
  } else if (!items.length) body = <p className="empty-state">{t('list.empty')}</p>;
  else body = <RecordingList rows={items} total={snap.total} selectedId={id} listRef={listRef} onSelect={(r) => open(r)} onActivate={(r) => open(r, true)} onMore={() => void loadMore(services)} />;

  return (
    <div className="split recordings-screen" data-has-selection={selected ? true : undefined}>
      <section className="list-pane" aria-labelledby="rec-list-heading">
        <h2 id="rec-list-heading" className="visually-hidden">
          {t('list.heading')}
        </h2>
        <div className="filter-bar rec-filters" role="search" aria-label={t('filters.label')}>
          <SearchField className="field rec-search" value={filter.phoneNumber} onChange={(v) => setFilter((f) => ({ ...f, phoneNumber: v }))}>
            <Label>{t('filters.phoneNumber')}</Label>
            <Input className="input" />
          </SearchField>
          <label className="field">
            <span>{t('filters.range')}</span>
            <select className="input" value={filter.range} onChange={(e) => setRange(e.target.value as RangeType)}>
              {RANGES.map((r) => (
                <option key={r} value={r}>
                  {t(`filters.ranges.${r}`)}
                </option>
              ))}
            </select>
          </label>
          {filter.range === 'custom' && (
            <>
              <label className="field">
                <span>{t('filters.startDate')}</span>
                <input className="input" type="date" value={filter.startDate} max={filter.endDate || undefined} onChange={(e) => setFilter((f) => ({ ...f, startDate: e.target.value }))} />
              </label>
              <label className="field">
                <span>{t('filters.endDate')}</span>
                <input className="input" type="date" value={filter.endDate} min={filter.startDate || undefined} onChange={(e) => setFilter((f) => ({ ...f, endDate: e.target.value }))} />
              </label>
            </>
          )}
        </div>
        <p className="rec-note" role="status">
          {correction ? t('filters.corrected', { date: new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(`${correction}T12:00:00`)) }) : ''}
        </p>
        {items && items.length > 0 && <p className="rec-count">{t('list.count', { count: snap.total })}</p>}
        {body}
      </section>
      <section className="detail-pane" aria-label={selected ? undefined : t('detail.label')} aria-labelledby={selected ? 'rec-detail-heading' : undefined}>
        {selected ? (
          <RecordingDetail rec={selected} headingRef={headingRef} onBack={() => open(null)} run={(c) => void kernel.run(c, { id: selected.id }, 'button')} />
        ) : (
          <p className="empty-state">{t('detail.none')}</p>
        )}
      </section>
    </div>
  );
}

function RecordingList(props: { rows: readonly Recording[]; total: number; selectedId?: string; listRef: RefObject<HTMLDivElement | null>; onSelect(id: string): void; onActivate(id: string): void; onMore(): void }) {
  const { rows, total, selectedId, listRef, onSelect, onActivate, onMore } = props;
  const { t, i18n } = useTranslation('recordings');
  const contacts = useMaybeService(ContactsApi);
  const playing = useSnapshot(recState).player;
  const now = new Date();
  const nameOf = (r: Recording) => contacts?.lookupNumber(r.phoneNumber)?.name ?? r.cnam ?? formatPhone(r.phoneNumber);
  const timeOf = (r: Recording) => formatTimestamp(r.timestamp, now, i18n.language);
  const isPlaying = (r: Recording) => playing.id === r.id && playing.state === 'playing';
  // The next page is fetched when the rows drawn come within five of the end of those loaded.
  const onLastVisible = useCallback((last: number) => {
    if (last >= rows.length - 5 && rows.length < total) onMore();
  }, [rows.length, total, onMore]);
  return (
    <VirtualGridList
      {...{ rows, selectedId, listRef, onSelect, onActivate }}
      rowCount={total}
      rowHeight={ROW_HEIGHT}
      label={t('list.label')}
      idPrefix="rec-row-"
      className="list rec-list"
      rowLabel={(r) => [nameOf(r), t(`direction.${r.direction}`), isPlaying(r) ? t('player.states.playing') : '', timeOf(r), clock(r.durationSeconds)].filter(Boolean).join(', ')}
      rowClassName={() => 'row rec-row'}
      cellClassName="rec-cell"
      onLastVisible={onLastVisible}
    >
      {(r) => (
        <>
          <span className="rec-dir" aria-hidden="true">
            {isPlaying(r) ? '▶' : r.direction === 'IN' ? '↙' : '↗'}
          </span>
          <span className="row-main">
            <span className="row-primary">{nameOf(r)}</span>
            <span className="row-secondary">{`${t(`direction.${r.direction}`)} · ${formatPhone(r.phoneNumber)}`}</span>
          </span>
          <span className="row-meta">
            <time dateTime={r.timestamp}>{timeOf(r)}</time>
            <div>{clock(r.durationSeconds)}</div>
          </span>
        </>
      )}
    </VirtualGridList>
  );
}

function RecordingDetail({ rec, headingRef, onBack, run }: { rec: Recording; headingRef: RefObject<HTMLHeadingElement | null>; onBack(): void; run(c: string): void }) {
  const { t, i18n } = useTranslation('recordings');
  const contacts = useMaybeService(ContactsApi);
  const telephony = useMaybeService(TelephonyApi);
  const p = useSnapshot(recState).player;
  const mine = p.id === rec.id;
  const state = mine ? p.state : 'not playing';
  const duration = mine && p.duration > 0 ? p.duration : rec.durationSeconds;
  const position = mine ? p.position : 0;
  const contact = contacts?.lookupNumber(rec.phoneNumber);
  const name = contact?.name ?? rec.cnam ?? formatPhone(rec.phoneNumber);
  const stateKey = state === 'not playing' ? 'notPlaying' : state;
  return (
    <article className="rec-detail">
      <Button className="btn rec-back" onPress={onBack}>
        {t('detail.back')}
      </Button>
      <h2 id="rec-detail-heading" ref={headingRef} tabIndex={-1}>
        {name}
      </h2>
      <dl className="rec-facts">
        <dt>{t('detail.number')}</dt>
        <dd>{formatPhone(rec.phoneNumber)}</dd>
        <dt>{t('detail.direction')}</dt>
        <dd>{t(`direction.${rec.direction}`)}</dd>
        <dt>{t('detail.date')}</dt>
        <dd>{new Intl.DateTimeFormat(i18n.language, { dateStyle: 'full', timeStyle: 'short' }).format(new Date(rec.timestamp))}</dd>
        <dt>{t('detail.duration')}</dt>
        <dd>{clock(rec.durationSeconds)}</dd>
      </dl>
      <div className="rec-player" role="group" aria-label={t('player.label')}>
        <Button className="btn primary" isDisabled={state === 'loading'} onPress={() => run('recordings.playPause')}>
          {state === 'playing' ? t('player.pause') : t('player.play')}
        </Button>
        <input
          type="range"
          className="rec-seek"
          min={0}
          max={Math.max(1, Math.round(duration))}
          step={1}
          value={Math.round(position)}
          disabled={!mine || state === 'loading' || state === 'failed'}
          onChange={(e) => seek(Number(e.target.value))}
          aria-label={t('player.position')}
          aria-valuetext={`${clock(position)} / ${clock(duration)}`}
        />
        <span className="rec-time" aria-hidden="true">{`${clock(position)} / ${clock(duration)}`}</span>
        <span className={`rec-state${state === 'failed' ? ' error' : ''}`} data-state={state}>
          {t(`player.states.${stateKey}`)}
        </span>
      </div>
      <div className="rec-actions">
        <Button className="btn" isDisabled={!telephony} onPress={() => run('recordings.callBack')}>
          {t('detail.callBack')}
        </Button>
        <Button className="btn" onPress={() => run('recordings.download')}>
          {t('detail.download')}
        </Button>
      </div>
    </article>
  );
}

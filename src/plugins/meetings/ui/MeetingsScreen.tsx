import { useNavigate, useParams } from '@tanstack/react-router';
import { use, useCallback, useEffect, useRef, useState } from 'react';
import { Button, Input, Label, SearchField, ToggleButton, ToggleButtonGroup, type Key } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { useKernel } from '../../../kernel';
import { VirtualGridList } from '../../../ui/VirtualGridList';
import type { Meeting, MeetingFilter } from '../../../wire/meetings';
import { fetchMeeting, loadList, loadMore, loadPermissions } from '../api';
import { openModal } from '../meeting';
import { titleMatches } from '../model';
import { meetingsState, MEETINGS_PATH } from '../state';
import { strings } from '../strings';
import { FeedsDialog } from './FeedsDialog';
import { JoinByIdDialog } from './JoinByIdDialog';
import { MeetingDetail } from './MeetingDetail';
import { MeetingModal } from './MeetingModal';
import { ListPending } from '../../../ui/ListPending';
import './meetings.css';

const ROW_HEIGHT = 56;
const FILTERS = ['all', 'e', 'p', 'c'] as const;

export default function MeetingsScreen() {
  const { i18n } = useTranslation('meetings');
  use(strings(i18n.language));
  return <Screen />;
}

/** `/schedule`: the meetings screen with the modal open on its Schedule tab. */
export function ScheduleScreen() {
  const { i18n } = useTranslation('meetings');
  use(strings(i18n.language));
  const kernel = useKernel();
  useEffect(() => {
    void openModal(kernel, 'schedule');
  }, [kernel]);
  return <Screen />;
}

function Screen() {
  const { t, i18n } = useTranslation('meetings');
  const kernel = useKernel();
  const navigate = useNavigate();
  const { id } = useParams({ strict: false }) as { id?: string };
  const snap = useSnapshot(meetingsState);
  const items = snap.items as readonly Meeting[] | null;
  const [term, setTerm] = useState(snap.search);
  const listRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [fetched, setFetched] = useState<Meeting | null>(null);

  useEffect(() => {
    if (meetingsState.items === null) void loadList(kernel);
    if (meetingsState.permissions === null) void loadPermissions(kernel);
  }, [kernel]);
  // The search is the server's (it pages); the rows already loaded filter at once meanwhile.
  useEffect(() => {
    if (term === meetingsState.search) return;
    const timer = setTimeout(() => {
      meetingsState.search = term;
      void loadList(kernel);
    }, 200);
    return () => clearTimeout(timer);
  }, [term, kernel]);
  const rows = items ? items.filter((m) => titleMatches(m, term)) : null;

  // The route names a meeting; the row is its chosen occurrence, else the next one not yet over.
  const routeId = id ? Number(id) : null;
  const now = Date.now();
  const selected =
    routeId === null
      ? undefined
      : (items?.find((m) => m.id === routeId && m.key === snap.selectedKey) ??
        items?.find((m) => m.id === routeId && (!m.end || Date.parse(m.end) > now)) ??
        items?.find((m) => m.id === routeId) ??
        (fetched?.id === routeId ? fetched : undefined));
  useEffect(() => {
    meetingsState.selectedKey = selected?.key ?? null;
  }, [selected?.key]);
  // A meeting not in the list (another filter, further out): its details are fetched.
  useEffect(() => {
    if (routeId === null || !items || items.some((m) => m.id === routeId) || fetched?.id === routeId) return;
    let live = true;
    fetchMeeting(kernel, routeId).then(
      (m) => void (live && setFetched(m)),
      () => void (live && navigate({ to: MEETINGS_PATH, replace: true })),
    );
    return () => void (live = false);
  }, [routeId, items, fetched, kernel, navigate]);
  useEffect(() => () => void (meetingsState.selectedKey = null), []);

  const focusDetail = useRef<string | null>(null);
  const open = useCallback(
    (key: string, toDetail = false) => {
      const m = meetingsState.items?.find((x) => x.key === key);
      if (!m) return;
      meetingsState.selectedKey = key;
      focusDetail.current = toDetail ? key : null;
      if (toDetail && headingRef.current && selected?.key === key) {
        focusDetail.current = null;
        headingRef.current.focus();
        return;
      }
      void navigate({ to: `${MEETINGS_PATH}/${m.id}`, replace: true });
    },
    [navigate, selected?.key],
  );
  useEffect(() => {
    if (selected && focusDetail.current === selected.key) {
      focusDetail.current = null;
      headingRef.current?.focus();
    }
  });

  const setFilter = (f: (typeof FILTERS)[number]) => {
    meetingsState.filter = f === 'all' ? null : (f as MeetingFilter);
    void loadList(kernel);
  };
  const back = () => {
    void navigate({ to: MEETINGS_PATH, replace: true });
    requestAnimationFrame(() => listRef.current?.focus());
  };
  const timeFmt = new Intl.DateTimeFormat(i18n.language, { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
  const whenOf = (m: Pick<Meeting, 'start'>) => (m.start ? timeFmt.format(Date.parse(m.start)) : '');

  let body;
  if (!rows) {
    body = <ListPending failed={snap.loadFailed} onRetry={() => void loadList(kernel)} text={{ error: t('list.error'), retry: t('list.retry'), loading: t('list.loading') }} />;
  } else if (!rows.length) {
    body = (
      <div className="empty-state">
        <p>{items?.length || term ? t('list.noMatches') : t('list.empty')}</p>
      </div>
    );
  } else {
    body = (
      <VirtualGridList
        rows={rows.map((m) => ({ ...m, id: m.key, meetingId: m.id }))}
        selectedId={selected?.key}
        listRef={listRef}
        rowHeight={ROW_HEIGHT}
        label={t('list.label')}
        idPrefix="mt-row-"
        className="list mt-list"
        rowLabel={(m) => [m.meeting_name, whenOf(m), m.is_recurring ? t('list.recurring') : '', m.source !== 'uc' ? t('list.external') : ''].filter(Boolean).join(', ')}
        rowClassName={() => 'row mt-row'}
        cellClassName="mt-cell"
        onSelect={(key) => open(key)}
        onActivate={(key) => open(key, true)}
      >
        {(m) => (
          <>
            <span className="row-main">
              <span className="row-primary">{m.meeting_name}</span>
              <span className="row-secondary">{[m.booked_by, m.is_recurring ? t('list.recurring') : '', m.source !== 'uc' ? t('list.external') : ''].filter(Boolean).join(' · ')}</span>
            </span>
            <span className="row-meta">
              <time dateTime={m.start ?? undefined}>{whenOf(m)}</time>
            </span>
          </>
        )}
      </VirtualGridList>
    );
  }

  return (
    <div className="split meetings-screen" data-has-selection={selected ? true : undefined}>
      <section className="list-pane" aria-labelledby="mt-list-heading">
        <h2 id="mt-list-heading" className="visually-hidden">
          {t('list.heading')}
        </h2>
        <div className="mt-toolbar" role="toolbar" aria-label={t('toolbar.label')}>
          <Button className="btn primary" onPress={() => void kernel.run('meetings.schedule', {}, 'button')}>
            {t('toolbar.schedule')}
          </Button>
          <Button className="btn" onPress={() => void kernel.run('meetings.new', {}, 'button')}>
            {t('toolbar.start')}
          </Button>
          <Button className="btn" onPress={() => (meetingsState.joinByIdOpen = true)}>
            {t('toolbar.joinById')}
          </Button>
          <Button className="btn" onPress={() => (meetingsState.feedsOpen = true)}>
            {t('toolbar.calendars')}
          </Button>
        </div>
        <div className="filter-bar" role="search" aria-label={t('filters.label')}>
          <ToggleButtonGroup
            className="mt-filters"
            aria-label={t('filters.group')}
            selectionMode="single"
            disallowEmptySelection
            selectedKeys={[snap.filter ?? 'all']}
            onSelectionChange={(keys: Set<Key>) => setFilter(([...keys][0] as (typeof FILTERS)[number]) ?? 'all')}
          >
            {FILTERS.map((f) => (
              <ToggleButton key={f} id={f} className="btn">
                {t(`filters.${f}`)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <SearchField className="field mt-search" value={term} onChange={setTerm}>
            <Label>{t('filters.search')}</Label>
            <Input className="input" />
          </SearchField>
        </div>
        {rows && rows.length > 0 && (
          <p className="mt-count" aria-live="polite">
            {t('list.count', { count: rows.length, total: snap.total })}
          </p>
        )}
        {body}
        {items && items.length < snap.total && (
          <Button className="btn mt-more" isDisabled={snap.loadingMore} onPress={() => void loadMore(kernel)}>
            {t('list.more')}
          </Button>
        )}
      </section>
      <section className="detail-pane" aria-label={selected ? undefined : t('detail.label')} aria-labelledby={selected ? 'mt-detail-heading' : undefined}>
        {selected ? <MeetingDetail meeting={selected} headingRef={headingRef} onBack={back} /> : <p className="empty-state">{t('detail.none')}</p>}
      </section>
      {snap.modal && <MeetingModal />}
      {snap.feedsOpen && <FeedsDialog />}
      {snap.joinByIdOpen && <JoinByIdDialog />}
    </div>
  );
}

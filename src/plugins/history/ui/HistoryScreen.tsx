import { useSearch } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { ref } from 'valtio';
import { Navigation, Session, useMaybeService, useService } from '../../../kernel';
import { ContactsApi } from '../../../contracts';
import { HISTORY_PATH } from '../commands';
import { displayName } from '../format';
import {
  isoDay,
  lastDays,
  parseIsoDay,
  resolveFilter,
  toUrlSearch,
  updateSearch,
  validateHistorySearch,
  WIDE_RANGE_DAYS,
  type HistoryFilter,
  type HistorySearch,
} from '../filters';
import { ExportProgress, HistoryDetail } from './HistoryDetail';
import { HistoryFilterBar, type SearchChange } from './HistoryFilterBar';
import { HistoryList } from './HistoryList';
import { useHistoryList } from '../load';
import { historyState, markHistorySeen } from '../state';
import './history.css';

const SKELETON_ROWS = 8;
const NARROW = '(max-width: 760px)';

function rangeDays(filter: HistoryFilter): number {
  const from = parseIsoDay(filter.from);
  const to = parseIsoDay(filter.to);
  return from && to ? Math.round((to.getTime() - from.getTime()) / 86_400_000) + 1 : 0;
}

function EmptyState({ search, filter, onChange }: { search: HistorySearch; filter: HistoryFilter; onChange: SearchChange }) {
  const { t } = useTranslation('history');
  const title = filter.term ? t('empty.noMatches', { term: filter.term }) : t(search.filter === 'missed' ? 'empty.missedTitle' : 'empty.title');
  let action: { label: string; run: () => void } | null = null;
  if (filter.term) action = { label: t('empty.clearSearch'), run: () => onChange({ term: undefined }) };
  else if (rangeDays(filter) < WIDE_RANGE_DAYS) {
    const wide = lastDays(new Date(), WIDE_RANGE_DAYS);
    action = { label: t('empty.widen', { count: WIDE_RANGE_DAYS }), run: () => onChange({ from: wide.from, to: undefined }) };
  }
  return (
    <div className="empty-state history-empty">
      <p className="history-empty-title">{title}</p>
      <p>{t('empty.body')}</p>
      {action && (
        <Button className="btn" onPress={action.run}>
          {action.label}
        </Button>
      )}
    </div>
  );
}

function Skeleton() {
  const { t } = useTranslation('history');
  return (
    <div className="list history-skeleton" role="status" aria-busy="true">
      <span className="visually-hidden">{t('list.loading')}</span>
      {Array.from({ length: SKELETON_ROWS }, (_, i) => (
        <div key={i} className="skeleton-row" aria-hidden="true" />
      ))}
    </div>
  );
}

export default function HistoryScreen() {
  const { t } = useTranslation('history');
  const navigation = useService(Navigation);
  const { userId } = useService(Session);
  const contacts = useMaybeService(ContactsApi);

  const raw = useSearch({ strict: false }) as Record<string, unknown>;
  const rawKey = JSON.stringify(raw);
  // Keyed by content: the router may hand out a new object on every render.
  const search = useMemo(() => validateHistorySearch(raw), [rawKey]);
  const today = isoDay(new Date());
  // `today` is a dependency so the default range moves on at midnight.
  const filter = useMemo(() => resolveFilter(search, new Date()), [search, today]);

  // Debounced inputs commit later: they must change the search params as they are then.
  const latest = useRef(search);
  latest.current = search;
  const setSearch: SearchChange = useCallback(
    // Only while the user is still here: the list (auto-selection) or a debounced filter may come in
    // after they have gone elsewhere, and must not bring them back.
    (patch, opts) => navigation.navigate(HISTORY_PATH, { search: toUrlSearch(updateSearch(latest.current, patch)), replace: opts?.replace, ifStillOn: HISTORY_PATH }),
    [navigation],
  );

  const list = useHistoryList(filter);
  const records = list.data?.records;
  const settled = list.isSuccess && !list.isPlaceholderData;
  const selected = records?.find((r) => r.id === search.id);

  // Spec: when no call is chosen the first one is selected. Replace, so Back leaves the screen.
  useEffect(() => {
    if (!settled || !records) return;
    if (records.length === 0) {
      if (search.id !== undefined) setSearch({ id: undefined }, { replace: true });
    } else if (!selected) setSearch({ id: records[0]!.id }, { replace: true });
  }, [settled, records, selected, search.id, setSearch]);

  useEffect(() => {
    // ref(): the store points at these objects without turning them into proxies.
    historyState.search = ref(search);
    historyState.filter = ref(filter);
  }, [search, filter]);

  useEffect(() => {
    historyState.selected = selected ? ref(selected) : null;
  }, [selected]);
  useEffect(() => () => void (historyState.selected = null), []);

  useEffect(() => markHistorySeen(userId), [userId]);
  useEffect(() => {
    if (list.dataUpdatedAt) markHistorySeen(userId, list.dataUpdatedAt);
  }, [userId, list.dataUpdatedAt]);

  // On narrow screens list and detail take turns; auto-selection alone must not hide the list.
  const [detailOpen, setDetailOpen] = useState(() => search.id !== undefined);
  // A new filter means a new list to look at, not the detail of whichever call comes first in it.
  const filterKey = JSON.stringify(filter);
  const shownFilter = useRef(filterKey);
  useEffect(() => {
    if (shownFilter.current === filterKey) return;
    shownFilter.current = filterKey;
    setDetailOpen(false);
  }, [filterKey]);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const focusTarget = useRef<'detail' | 'list' | null>(null);
  // A focus request must reach the effect below even when nothing else re-renders the screen.
  const [, requestFocus] = useReducer((n: number) => n + 1, 0);

  const onSelect = useCallback(
    (id: number, how: 'move' | 'open') => {
      if (id !== latest.current.id) setSearch({ id }, { replace: true });
      if (how === 'open') {
        setDetailOpen(true);
        // Narrow screens hide the list, and the focus with it: follow to the detail.
        focusTarget.current = window.matchMedia?.(NARROW).matches ? 'detail' : null;
        requestFocus();
      }
    },
    [setSearch],
  );

  const onActivate = useCallback(
    (id: number) => {
      onSelect(id, 'open');
      focusTarget.current = 'detail';
      requestFocus();
    },
    [onSelect],
  );

  const onBack = useCallback(() => {
    setDetailOpen(false);
    focusTarget.current = 'list';
    requestFocus();
  }, []);

  useEffect(() => {
    const target = focusTarget.current;
    if (!target) return;
    if (target === 'detail' && selected) {
      focusTarget.current = null;
      headingRef.current?.focus();
    } else if (target === 'list') {
      focusTarget.current = null;
      // The grid holds the focus and points at the selected row (aria-activedescendant).
      listRef.current?.focus();
    }
  });

  const name = selected ? displayName(selected, contacts?.lookupNumber(selected.phoneNumber)?.name) : '';

  let listBody;
  if (list.isPending) listBody = <Skeleton />;
  else if (!records) {
    listBody = (
      <div className="empty-state history-error" role="alert">
        <p>{t('list.error')}</p>
        <Button className="btn" onPress={() => void list.refetch()}>
          {t('list.retry')}
        </Button>
      </div>
    );
  } else if (records.length === 0) listBody = <EmptyState search={search} filter={filter} onChange={setSearch} />;
  else {
    listBody = (
      <HistoryList
        listRef={listRef}
        records={records}
        selectedId={search.id}
        hasMore={list.hasNextPage}
        loadingMore={list.isFetchingNextPage}
        busy={list.isPlaceholderData}
        onLoadMore={() => void list.fetchNextPage()}
        onSelect={onSelect}
        onActivate={onActivate}
      />
    );
  }

  return (
    <div className="split history-screen" data-has-selection={(detailOpen && selected !== undefined) || undefined}>
      <section className="list-pane" aria-labelledby="history-list-heading">
        <h2 id="history-list-heading" className="visually-hidden">
          {t('list.heading')}
        </h2>
        <HistoryFilterBar search={search} filter={filter} onChange={setSearch} />
        {records && records.length > 0 && (
          <p className="history-count">
            {t('list.count', { count: list.data?.total ?? records.length })}
          </p>
        )}
        {listBody}
      </section>
      <section className="detail-pane" aria-label={selected ? undefined : t('detail.label')} aria-labelledby={selected ? 'history-detail-heading' : undefined}>
        {selected ? (
          <HistoryDetail record={selected} name={name} headingRef={headingRef} onBack={onBack} />
        ) : (
          <p className="empty-state">{t(list.isPending ? 'list.loading' : 'detail.none')}</p>
        )}
        <ExportProgress />
      </section>
    </div>
  );
}

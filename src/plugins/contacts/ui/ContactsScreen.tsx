import { useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { memo, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { Button, Input, Label, SearchField } from 'react-aria-components';
import { ChoiceSelect } from '../../../ui/ChoiceSelect';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Api, Navigation, useContextSnapshot, useKernel, useService } from '../../../kernel';
import { CONTACT_GROUPS, type ContactGroup } from '../../../wire/contacts';
import { contactKeys, fetchContactPage, fetchIntegrations } from '../api';
import { CONTACTS_PATH } from '../commands';
import { ContactDetail } from './ContactDetail';
import { ContactForm } from './ContactForm';
import { ContactList } from './ContactList';
import { directory, entryFromContact, type DirEntry } from '../directory';
import { loadDirectory } from '../directoryLoad';
import { directorySearch, type DirectoryHits } from '../filter';
import { parseContactsSearch, type ContactsSearch } from '../route';
import { contactsState } from '../state';
import { ListPending } from '../../../ui/ListPending';
import './contacts.css';

const SKELETON_ROWS = 8;
/** Rows a keystroke's own render lists at most (a screenful and well over, wherever the list is scrolled near the top); the rest a task later. */
const FIRST_ROWS = 200;
/** Rows asked of the server while the directory is still on its way (a screenful and then some). */
const FIRST_PAGE = 100;
/** The meeting group is who is in a meeting now (the server knows, from the meetings' lobbies): read again this often. */
const MEETING_GROUP_REFRESH_MS = 10_000;
const MEETING_GROUP_LIMIT = 500;

function useDirectory() {
  const api = useService(Api);
  const version = useSyncExternalStore(
    (fn) => directory.subscribe(fn),
    () => directory.version,
  );
  useEffect(() => {
    if (!directory.entries && !directory.loading) void loadDirectory(api);
  }, [api]);
  return { entries: directory.entries, version, error: directory.error };
}

/** Which filter groups this user sees: Google/Microsoft only with a connected, enabled integration. */
function useGroups(): ContactGroup[] {
  const api = useService(Api);
  const { features } = useContextSnapshot();
  const { data } = useQuery({
    queryKey: contactKeys.integrations,
    queryFn: ({ signal }) => fetchIntegrations(api, signal),
    staleTime: Infinity,
  });
  return CONTACT_GROUPS.filter((g) => {
    if (g === 'google') return !!data && data.google.connected && data.google.enabled;
    if (g === 'speeddial') return features.speedDial;
    if (g === 'meeting') return features.webMeetingManagement;
    return true;
  });
}

export default function ContactsScreen() {
  const { t } = useTranslation('contacts');
  const navigation = useService(Navigation);
  const api = useService(Api);
  const raw = useSearch({ strict: false }) as Record<string, unknown>;
  const rawKey = JSON.stringify(raw);
  const search = useMemo(() => parseContactsSearch(raw), [rawKey]);
  const latest = useRef(search);
  latest.current = search;
  const setSearch = useCallback(
    (patch: Partial<ContactsSearch>, replace = false) => {
      const next: Record<string, unknown> = { ...latest.current, ...patch };
      if (next.group === 'user') delete next.group;
      for (const k of Object.keys(next)) if (next[k] === undefined || next[k] === '') delete next[k];
      navigation.navigate(CONTACTS_PATH, { search: next, replace });
    },
    [navigation],
  );

  useEffect(() => {
    contactsState.view = { ...(search.group !== 'user' ? { group: search.group } : {}), ...(search.q ? { q: search.q } : {}) };
  }, [search.group, search.q]);
  const { entries, version, error } = useDirectory();
  const groups = useGroups();
  const snap = useSnapshot(contactsState);

  // The term filters in the same render as the keystroke, so the rows paint in the frame the typed
  // letter does: narrowing the previous rows (directorySearch), listing at most FIRST_ROWS and
  // drawing only the visible ones costs a few milliseconds, less than the extra frame a deferred
  // value would wait for.
  const [term, setTerm] = useState(search.q ?? '');
  useEffect(() => setTerm(search.q ?? ''), [search.q]);
  const [searchDirectory] = useState(directorySearch);
  // Until the whole directory is here (a cold start with many contacts), the server's first page
  // of the same group and term fills the screen: paged, sorted and searched in SQL.
  // The meeting group changes by the minute and the directory does not say who is in a meeting:
  // it is always the server's page, kept fresh.
  const live = search.group === 'meeting';
  const paging = !entries || live;
  const firstPage = useQuery({
    // Off once the directory is here: one key then, not a new cached query per keystroke.
    queryKey: [...contactKeys.all, 'page', search.group, paging ? term.trim() : null],
    enabled: paging,
    refetchInterval: live ? MEETING_GROUP_REFRESH_MS : false,
    queryFn: ({ signal }) => fetchContactPage(api, { group: search.group, search: term.trim() || undefined, limit: live ? MEETING_GROUP_LIMIT : FIRST_PAGE }, signal),
  });
  // A term with tens of thousands of hits ("s") is answered with its first rows in the keystroke's
  // render and in full a task later: testing and listing all of them, and the list measuring every
  // one, made such a key miss its frame (issue 18). The rows in view are the same either way.
  const quick = useMemo(
    () => (entries && !live ? searchDirectory(entries, search.group, term, FIRST_ROWS) : null),
    [entries, live, version, search.group, term, searchDirectory],
  );
  const [whole, setWhole] = useState<{ of: DirectoryHits; rows: DirEntry[] } | null>(null);
  useEffect(() => {
    if (!quick || quick.complete || !entries) return;
    const timer = setTimeout(() => setWhole({ of: quick, rows: searchDirectory(entries, search.group, term).rows }), 0);
    return () => clearTimeout(timer);
  }, [quick]);
  const counting = !!quick && !quick.complete && whole?.of !== quick;
  const local = quick && (quick.complete ? quick.rows : whole?.of === quick ? whole.rows : quick.rows);
  const paged = useMemo(() => ((!entries || live) && firstPage.data ? firstPage.data.items.map(entryFromContact) : null), [entries, live, firstPage.data]);
  const rows = local ?? paged;
  // While the whole result is on its way the count keeps the last one it gave, marked busy.
  const lastTotal = useRef(0);
  const total = counting ? lastTotal.current : local ? local.length : (firstPage.data?.total ?? 0);
  lastTotal.current = total;
  // The URL keeps the term for Back/reload, a little later so typing does not flood the history.
  useEffect(() => {
    if ((search.q ?? '') === term) return;
    const timer = setTimeout(() => setSearch({ q: term || undefined }, true), 400);
    return () => clearTimeout(timer);
  }, [term, search.q, setSearch]);

  const searchRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (snap.focusSearch) searchRef.current?.focus();
  }, [snap.focusSearch]);

  const listRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [detailOpen, setDetailOpen] = useState(() => search.contact !== undefined);
  const onSelect = useCallback((id: string) => setSearch({ contact: id, screen: undefined, editState: undefined }, true), [setSearch]);
  const onActivate = useCallback(
    (id: string) => {
      setSearch({ contact: id, screen: undefined, editState: undefined }, true);
      setDetailOpen(true);
    },
    [setSearch],
  );
  const onToggleCheck = useCallback((id: string) => {
    const set = new Set(contactsState.checked);
    if (set.has(id)) set.delete(id);
    else set.add(id);
    contactsState.checked = [...set];
  }, []);
  useEffect(() => () => void (contactsState.checked = []), []);

  const onGroup = useCallback((group: ContactGroup) => setSearch({ group, contact: undefined }), [setSearch]);
  const onNew = useCallback(() => setSearch({ screen: 'form', editState: 'CREATE' }), [setSearch]);

  const formOpen = search.screen === 'form' && search.editState !== undefined;
  const showChecks = !!search.contact || snap.checked.length > 0;

  let listBody;
  if (!rows) {
    listBody = <ListPending failed={!!error} onRetry={() => void loadDirectory(api)} text={{ error: t('list.error'), retry: t('list.retry'), loading: t('list.loading') }} skeletonRows={SKELETON_ROWS} />;
  } else if (rows.length === 0) {
    listBody = (
      <div className="empty-state">
        <p>{term ? t('empty.noMatches', { term: term }) : t(`empty.${search.group}`, { defaultValue: t('empty.default') })}</p>
        {term ? (
          <Button className="btn" onPress={() => setTerm('')}>
            {t('empty.clearSearch')}
          </Button>
        ) : (
          <Button className="btn" onPress={onNew}>
            {t('commands.new')}
          </Button>
        )}
      </div>
    );
  } else {
    listBody = (
      <ContactList
        rows={rows}
        selectedId={search.contact}
        checked={snap.checked}
        showChecks={showChecks}
        listRef={listRef}
        onSelect={onSelect}
        onActivate={onActivate}
        onToggleCheck={onToggleCheck}
      />
    );
  }

  return (
    <div className="split contacts-screen" data-has-selection={(detailOpen && !!search.contact) || formOpen || undefined}>
      {/* data-term: the term the rows on screen answer (the benchmark waits for it). */}
      <section className="list-pane" aria-labelledby="contacts-list-heading" data-term={rows ? term : undefined}>
        <h2 id="contacts-list-heading" className="visually-hidden">
          {t('list.heading')}
        </h2>
        <div className="filter-bar" role="search" aria-label={t('filters.label')}>
          <GroupFilter groups={groups.join(',')} group={search.group} onChange={onGroup} />
          <SearchField className="field contacts-search" value={term} onChange={setTerm}>
            <Label>{t('filters.search')}</Label>
            <Input ref={searchRef} className="input" placeholder={t('filters.searchPlaceholder')} />
          </SearchField>
          <NewContactButton onPress={onNew} />
        </div>
        {rows && (
          <p className="contacts-count" aria-live="polite" aria-busy={counting || undefined}>
            {t('list.count', { count: total })}
          </p>
        )}
        {snap.checked.length > 0 && <BulkBar count={snap.checked.length} />}
        {listBody}
      </section>
      <section
        className="detail-pane"
        aria-label={search.contact || formOpen ? undefined : t('detail.label')}
        aria-labelledby={search.contact || formOpen ? 'contacts-detail-heading' : undefined}
      >
        {formOpen ? (
          <ContactForm
            key={`${search.contact ?? 'new'}-${search.editState}`}
            mode={search.editState!}
            contactId={search.editState === 'CREATE' ? undefined : search.contact}
            onDone={(id) => setSearch({ contact: id ?? latest.current.contact, screen: undefined, editState: undefined })}
          />
        ) : search.contact ? (
          <ContactDetail
            id={search.contact}
            headingRef={headingRef}
            onBack={() => {
              setDetailOpen(false);
              listRef.current?.focus();
            }}
            onEdit={(mode) => setSearch({ screen: 'form', editState: mode })}
          />
        ) : (
          <p className="empty-state">{t('detail.none')}</p>
        )}
      </section>
    </div>
  );
}

/**
 * The group picker, apart so that a keystroke in the search does not render it again: React Aria's
 * Select was the dearest part of a keystroke's render after the matching (issue 18). `groups` is
 * the list joined with commas, so that an equal list is an equal prop.
 */
const GroupFilter = memo(function GroupFilter({ groups, group, onChange }: { groups: string; group: ContactGroup; onChange(group: ContactGroup): void }) {
  const { t } = useTranslation('contacts');
  const options = useMemo(() => groups.split(',').map((g) => ({ id: g as ContactGroup, text: t(`groups.${g}`) })), [groups, t]);
  return <ChoiceSelect className="field contacts-group" label={t('filters.group')} options={options} selectedKey={group} onChange={onChange} />;
});

const NewContactButton = memo(function NewContactButton({ onPress }: { onPress(): void }) {
  const { t } = useTranslation('contacts');
  return (
    <Button className="btn primary" onPress={onPress}>
      {t('commands.new')}
    </Button>
  );
});

function BulkBar({ count }: { count: number }) {
  const { t } = useTranslation('contacts');
  return (
    <div className="contacts-bulk" role="toolbar" aria-label={t('bulk.label')}>
      <span>{t('bulk.count', { count })}</span>
      <DeleteCheckedButton />
      <Button className="btn" onPress={() => (contactsState.checked = [])}>
        {t('bulk.clear')}
      </Button>
    </div>
  );
}

function DeleteCheckedButton() {
  const { t } = useTranslation('contacts');
  const run = useCommandRunner();
  return (
    <Button className="btn danger" onPress={() => void run('contacts.delete')}>
      {t('commands.delete')}
    </Button>
  );
}

function useCommandRunner() {
  const kernel = useKernel();
  return (id: string, args: Record<string, unknown> = {}) => kernel.run(id, args, 'button');
}

import { useNavigate, useParams } from '@tanstack/react-router';
import { use, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { Button, Input, Label, SearchField, ToggleButton, ToggleButtonGroup, type Key } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { snapshot, subscribe, useSnapshot } from 'valtio';
import { Navigation, useKernel, useService } from '../../../kernel';
import { requestRefresh } from '../api';
import { GROUP_STORAGE_KEY, GROUPS, parseGroup, voicemailSearch } from '../model';
import { strings } from '../strings';
import { VoicemailDetail } from './VoicemailDetail';
import { VoicemailList } from './VoicemailList';
import { shownIds } from '../shown';
import { vmState, VOICEMAIL_PATH, type Voicemail, type VoicemailGroup } from '../state';
import { ListPending } from '../../../ui/ListPending';
import './voicemail.css';

const subscribeItems = (onChange: () => void) => subscribe(vmState, onChange);
const itemsSnapshot = () => snapshot(vmState).items;

function readGroup(): VoicemailGroup {
  try {
    return parseGroup(localStorage.getItem(GROUP_STORAGE_KEY));
  } catch {
    return 'ALL';
  }
}

export default function VoicemailScreen() {
  const { i18n } = useTranslation('voicemail');
  use(strings(i18n.language));
  return <Screen />;
}

function Screen() {
  const { t } = useTranslation('voicemail');
  const kernel = useKernel();
  const navigate = useNavigate();
  const nav = useService(Navigation);
  const { id } = useParams({ strict: false }) as { id?: string };
  const snap = useSnapshot(vmState);
  // The messages as plain snapshot objects, not through useSnapshot's tracking proxy: the search
  // reads every field of 10,000 of them per keystroke, and each read through the proxy is a trap.
  const items = useSyncExternalStore(subscribeItems, itemsSnapshot) as readonly Voicemail[] | null;
  const [group, setGroupState] = useState<VoicemailGroup>(readGroup);
  // Filtered in the keystroke's own render: the rows paint in the frame the letter does (a
  // deferred value would paint them a frame later, and the filter costs a millisecond).
  const [term, setTerm] = useState('');
  const [search] = useState(voicemailSearch);
  const rows = useMemo(() => (items ? search(items, group, term) : null), [items, group, term, search]);
  const selected = id ? items?.find((v) => v.id === id) : undefined;
  const listRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const setGroup = (g: VoicemailGroup) => {
    setGroupState(g);
    try {
      localStorage.setItem(GROUP_STORAGE_KEY, g);
    } catch {
      /* not remembered: acceptable */
    }
  };

  useEffect(() => {
    vmState.selectedId = id ?? null;
  }, [id]);
  useEffect(() => () => void (vmState.selectedId = null), []);
  useEffect(() => {
    shownIds.ids = rows?.map((r) => r.id) ?? [];
  }, [rows]);
  // Specification: the voicemail route loads voicemail if it is not loaded (the list refreshes every 60 s anyway).
  useEffect(() => void (vmState.items === null && requestRefresh()), []);
  // A message that is gone (deleted here or elsewhere) leaves the detail: back to the list, if the
  // user is still here.
  useEffect(() => {
    if (id && items && !selected) nav.navigate(VOICEMAIL_PATH, { replace: true, ifStillOn: VOICEMAIL_PATH });
  }, [id, items, selected, nav]);

  // Enter on a row moves focus to the detail's heading once that message is shown.
  const focusDetail = useRef<string | null>(null);
  const open = useCallback((vid: string | null, toDetail = false) => {
    focusDetail.current = toDetail ? vid : null;
    if (toDetail && vid && vid === vmState.selectedId && headingRef.current) {
      focusDetail.current = null;
      headingRef.current.focus();
      return;
    }
    void navigate({ to: vid ? `${VOICEMAIL_PATH}/${vid}` : VOICEMAIL_PATH, replace: true });
  }, [navigate]);
  useEffect(() => {
    if (selected && focusDetail.current === selected.id) {
      focusDetail.current = null;
      headingRef.current?.focus();
    }
  });

  const toggleCheck = useCallback((vid: string) => {
    vmState.checked = vmState.checked.includes(vid) ? vmState.checked.filter((c) => c !== vid) : [...vmState.checked, vid];
  }, []);

  const back = () => {
    open(null);
    requestAnimationFrame(() => listRef.current?.focus());
  };

  let body;
  if (!items) {
    body = <ListPending failed={snap.loadFailed} onRetry={() => void requestRefresh()} text={{ error: t('list.error'), retry: t('list.retry'), loading: t('list.loading') }} skeletonRows={6} />;
  } else if (!rows!.length) {
    body = (
      <div className="empty-state">
        <p>{items.length ? t('empty.noMatches') : t('empty.title')}</p>
        {!items.length && <p>{t('empty.body')}</p>}
      </div>
    );
  } else {
    body = (
      <VoicemailList
        listRef={listRef}
        rows={rows!}
        selectedId={id}
        checked={snap.checked as string[]}
        playingId={snap.player.playing ? snap.player.id : null}
        onSelect={(vid) => open(vid)}
        onActivate={(vid) => open(vid, true)}
        onToggleCheck={toggleCheck}
      />
    );
  }

  return (
    <div className="split voicemail-screen" data-has-selection={selected ? true : undefined}>
      <section className="list-pane" aria-labelledby="vm-list-heading" data-term={rows ? term : undefined}>
        <h2 id="vm-list-heading" className="visually-hidden">
          {t('list.heading')}
        </h2>
        <div className="filter-bar" role="search" aria-label={t('filters.label')}>
          <ToggleButtonGroup
            className="vm-groups"
            aria-label={t('filters.group')}
            selectionMode="single"
            disallowEmptySelection
            selectedKeys={[group]}
            onSelectionChange={(keys: Set<Key>) => setGroup(parseGroup([...keys][0]))}
          >
            {GROUPS.map((g) => (
              <ToggleButton key={g} id={g} className="btn">
                {t(`filters.groups.${g}`)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <SearchField className="field vm-search" value={term} onChange={setTerm}>
            <Label>{t('filters.search')}</Label>
            <Input className="input" placeholder={t('filters.searchPlaceholder')} />
          </SearchField>
        </div>
        {snap.checked.length > 0 ? <BulkBar count={snap.checked.length} /> : null}
        {rows && rows.length > 0 && (
          <p className="vm-count" aria-live="polite">
            {t('list.count', { count: rows.length })}
          </p>
        )}
        {body}
      </section>
      <section className="detail-pane" aria-label={selected ? undefined : t('detail.label')} aria-labelledby={selected ? 'vm-detail-heading' : undefined}>
        {selected ? <VoicemailDetail voicemail={selected} headingRef={headingRef} onBack={back} run={(c) => void kernel.run(c, { id: selected.id }, 'button')} /> : <p className="empty-state">{t('detail.none')}</p>}
      </section>
    </div>
  );
}

function BulkBar({ count }: { count: number }) {
  const { t } = useTranslation('voicemail');
  const kernel = useKernel();
  const run = (c: string) => void kernel.run(c, { id: vmState.checked[0] }, 'button');
  return (
    <div className="vm-bulk" role="toolbar" aria-label={t('bulk.label')}>
      <span>{t('bulk.count', { count })}</span>
      <Button className="btn" onPress={() => run('voicemail.markAllRead')}>
        {t('bulk.markRead')}
      </Button>
      <Button className="btn" onPress={() => run('voicemail.download')}>
        {t('bulk.download')}
      </Button>
      <Button className="btn danger" onPress={() => run('voicemail.delete')}>
        {t('bulk.delete')}
      </Button>
      <Button className="btn" onPress={() => (vmState.checked = [])}>
        {t('bulk.clear')}
      </Button>
    </div>
  );
}

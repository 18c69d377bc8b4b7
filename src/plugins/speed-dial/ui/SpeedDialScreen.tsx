import { use, useEffect, useRef, type KeyboardEvent } from 'react';
import { Button, GridList, GridListItem } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Notifications, useKernel } from '../../../kernel';
import type { SpeedDial } from '../../../wire/speedDial';
import { call, confirmDelete, load, move } from '../api';
import { entryName, formFor, newForm } from '../model';
import { sdState } from '../state';
import { strings } from '../strings';
import { EntryRow, useRowText } from './EntryRow';
import './speedDial.css';

export default function SpeedDialScreen() {
  const { i18n } = useTranslation('speed-dial');
  use(strings(i18n.language));
  return <Screen />;
}

/** The entry of the row holding the focus (the row itself or one of its buttons). */
const entryAt = (el: EventTarget): number | null => {
  const id = (el as HTMLElement).closest?.('[role="row"]')?.querySelector('[data-entry]')?.getAttribute('data-entry');
  return id ? Number(id) : null;
};
const rowOf = (list: HTMLElement | null, id: number) => list?.querySelector(`[data-entry="${id}"]`)?.closest<HTMLElement>('[role="row"]');

/**
 * The list (one tab stop; Enter dials; Alt+↑/Alt+↓ moves the focused entry of one's own and saves
 * its place; Delete deletes it), the organisation's count against its maximum, and "New speed dial".
 */
function Screen() {
  const { t } = useTranslation('speed-dial');
  const kernel = useKernel();
  const s = useSnapshot(sdState);
  const rowText = useRowText();
  const list = useRef<HTMLDivElement>(null);
  const items = s.items as SpeedDial[] | null;

  // Coming to the screen asks for the list again (an entry shared by a colleague since).
  useEffect(() => void load(kernel), [kernel]);
  // A moved row is taken out of the page and put back, which loses the focus: it goes back to it.
  const refocus = useRef<number | null>(null);
  useEffect(() => {
    if (refocus.current === null) return;
    rowOf(list.current, refocus.current)?.focus();
    refocus.current = null;
  }, [items]);

  const onKeyDown = (e: KeyboardEvent) => {
    const id = entryAt(e.target);
    const entry = items?.find((x) => x.id === id);
    if (!entry) return;
    if (e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
      // Before the list's own arrow handling, which would move the focus instead.
      e.preventDefault();
      e.stopPropagation();
      if (!entry.canEdit) return kernel.get(Notifications).announce(t('list.readOnly', { name: entryName(entry) }));
      refocus.current = entry.id;
      void move(kernel, entry.id, e.key === 'ArrowUp' ? -1 : 1).then((ok) => {
        if (!ok) return;
        const own = sdState.items!.filter((x) => x.canEdit);
        kernel.get(Notifications).announce(t('list.moved', { name: entryName(entry), position: own.findIndex((x) => x.id === entry.id) + 1, total: own.length }));
      });
    } else if (e.key === 'Delete' && entry.canEdit && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      void confirmDelete(kernel, String(entry.id));
    }
  };

  return (
    <div className="sd-screen">
      <div className="sd-toolbar">
        <p className="sd-count" aria-live="polite">
          {items ? t('count', { total: s.total, max: s.max }) : ''}
        </p>
        <Button className="btn primary" onPress={() => (sdState.form = newForm())}>
          {t('list.new')}
        </Button>
      </div>
      <p className="sd-muted sd-hint">{t('list.hint')}</p>
      {s.loadFailed ? (
        <div role="alert" className="sd-failed">
          <p>{t('list.failed')}</p>
          <Button className="btn" onPress={() => void load(kernel)}>
            {t('list.retry')}
          </Button>
        </div>
      ) : (
        <div onKeyDownCapture={onKeyDown}>
          <GridList
            ref={list}
            aria-label={t('list.label')}
            className="list sd-list"
            items={items ?? []}
            onAction={(key) => {
              const e = items?.find((x) => x.id === key);
              if (e) void call(kernel, e);
            }}
            renderEmptyState={() => <p className="sd-muted sd-empty">{items ? t('list.empty') : t('list.loading')}</p>}
          >
            {(e) => (
              <GridListItem id={e.id} textValue={rowText(e)} className="row sd-item">
                <EntryRow e={e} actions={{ edit: () => (sdState.form = formFor(e)), delete: () => void confirmDelete(kernel, String(e.id)) }} />
              </GridListItem>
            )}
          </GridList>
        </div>
      )}
    </div>
  );
}

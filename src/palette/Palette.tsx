import { useVirtualizer } from '@tanstack/react-virtual';
import { Command } from 'cmdk';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Dialog, Modal, ModalOverlay } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { bindingToKeys, useCommandState, useKernel, type CommandContribution, type HotkeyManager } from '../kernel';
import { nextMissingArg, PaletteIndex, type PalettePage, type PaletteRow } from './model';
import { closePalette, loadRecent, paletteState, pushRecent, takeTypeAhead } from './store';
import './palette.css';

const ROW_HEIGHT = 44;
/** The result count is announced once typing pauses this long, not after every keystroke. */
export const COUNT_ANNOUNCE_MS = 500;

export function Palette({ hotkeys }: { hotkeys: HotkeyManager }) {
  const state = useSnapshot(paletteState);
  const { t } = useTranslation('palette');
  return (
    <ModalOverlay isOpen={state.open} onOpenChange={(o) => !o && closePalette()} isDismissable className="palette-overlay">
      <Modal className="palette-modal">
        <Dialog aria-label={t('label')} className="palette-dialog">
          {state.open && <PaletteBody hotkeys={hotkeys} startCommand={state.startCommand} />}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

function PaletteBody({ hotkeys, startCommand }: { hotkeys: HotkeyManager; startCommand: string | null }) {
  const kernel = useKernel();
  const { t, i18n } = useTranslation('palette');
  // Context is snapshotted when the palette opens: commands judge the screen the user came from.
  const [context] = useState(() => kernel.snapshot());
  // Bumped when strings arrive while some entities wait for theirs (a plugin's lazy strings just after sign-in).
  const [stringsAdded, setStringsAdded] = useState(0);
  // A plugin store that commands read changed while the palette is open (a selection, a call's
  // state): the rows are listed again, each judging its enablement now. The index is not rebuilt
  // for it (it holds every contact; chat's store changes with each message and typing notice).
  const commandState = useCommandState();
  const index = useMemo(() => new PaletteIndex(kernel, context, t, i18n.language), [kernel, context, t, i18n.language, stringsAdded]);
  // Opened while plugins still settle (just after sign-in), some providers have no entities yet
  // ("Preferences ▸ Profile" is built once its lazy chunk is in): list again once they have.
  useEffect(() => {
    if (!kernel.isSettling) return;
    let open = true;
    void kernel.whenSettled().then(() => open && setStringsAdded((n) => n + 1));
    return () => void (open = false);
  }, [kernel]);
  useEffect(() => {
    if (!index.waiting) return;
    const added = () => setStringsAdded((n) => n + 1);
    i18n.store.on('added', added);
    return () => i18n.store.off('added', added);
  }, [index, i18n]);
  const [pages, setPages] = useState<PalettePage[]>(() => {
    const cmd = startCommand ? kernel.commands.get(startCommand)?.item : undefined;
    return cmd && cmd.args?.length ? [{ kind: 'root' }, { kind: 'arg', command: cmd, argIndex: 0, args: {} }] : [{ kind: 'root' }];
  });
  const [query, setQuery] = useState('');
  // Keys typed while the palette was opening (store.ts): the start of the query, and maybe Enter.
  const enterAhead = useRef<string | null>(null);
  useEffect(() => {
    const ahead = takeTypeAhead();
    if (ahead.text) setQuery(ahead.text);
    if (ahead.enter) enterAhead.current = ahead.text;
  }, []);
  const page = pages[pages.length - 1]!;
  const recent = useMemo(() => loadRecent(context.userId), [context.userId]);

  const judgedFor = useRef(commandState);
  const rows: PaletteRow[] = useMemo(() => {
    if (judgedFor.current !== commandState) {
      judgedFor.current = commandState;
      index.rejudge();
    }
    if (page.kind === 'root') return index.root(query, recent);
    if (page.kind === 'actions') return index.actionRows(page.entity);
    const arg = page.command.args![page.argIndex]!;
    return index.argRows(arg, query);
    // commandState: the enablement each row reads may have changed.
  }, [index, page, query, recent, commandState]);

  const bindings = useMemo(() => new Map(hotkeys.effective().filter((e) => e.keys).map((e) => [e.hotkey.command, e.keys!])), [hotkeys]);

  // New rows pick their selection in the same render (state adjusted while rendering), not in an
  // effect: that cost every keystroke a second render and commit before its frame. Rows listed
  // again for the same query and page (entities arriving, a store commands read changing) keep the
  // row the user moved to; a new query or page starts at its first enabled row.
  const [selection, setSelection] = useState<{ rows: readonly PaletteRow[] | null; query: string; page: PalettePage | null; key: string }>({ rows: null, query: '', page: null, key: '' });
  let selected = selection.key;
  if (selection.rows !== rows) {
    const same = selection.query === query && selection.page === page;
    if (!same || !rows.some((r) => r.key === selected && !isDisabled(r))) selected = rows.find((r) => !isDisabled(r))?.key ?? '';
    setSelection({ rows, query, page, key: selected });
  }
  const setSelected = (key: string) => setSelection((s) => ({ ...s, key }));
  useEffect(() => {
    if (enterAhead.current !== null && enterAhead.current === query) {
      enterAhead.current = null;
      const first = rows.find((r) => !isDisabled(r));
      if (first) choose(first);
    }
    // choose is this render's; only the rows (and the query they answer) decide.
  }, [rows]);

  const listRef = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => listRef.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  useEffect(() => {
    const i = rows.findIndex((r) => r.key === selected);
    // The first row of a list at its top is in view already: scrollToIndex would force a layout per keystroke to find that out.
    if (i > 0 || (i === 0 && (virtual.scrollOffset ?? 0) > 0)) virtual.scrollToIndex(i, { align: 'auto' });
  }, [selected, rows, virtual]);

  const push = (p: PalettePage) => {
    setPages((ps) => [...ps, p]);
    setQuery('');
  };

  const execute = async (command: CommandContribution, args: Record<string, unknown>) => {
    const missing = nextMissingArg(command, args);
    if (missing >= 0) return push({ kind: 'arg', command, argIndex: missing, args });
    closePalette();
    pushRecent(context.userId, command.id);
    await kernel.run(command.id, args, 'palette', context);
  };

  const choose = (row: PaletteRow) => {
    if (isDisabled(row)) return;
    switch (row.kind) {
      case 'command':
        return void execute(row.command, {});
      case 'action':
        return void execute(row.command, { ...row.args });
      case 'entity': {
        const first = row.entity.actions[0];
        const command = first ? kernel.commands.get(first.command)?.item : undefined;
        if (command) void execute(command, { ...(first!.args ?? {}) });
        return;
      }
      case 'option':
      case 'freeText': {
        if (page.kind !== 'arg') return;
        const arg = page.command.args![page.argIndex]!;
        const value = row.kind === 'option' ? row.option.value : row.text;
        return void execute(page.command, { ...page.args, [arg.name]: value });
      }
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Backspace' && query === '' && pages.length > 1) {
      e.preventDefault();
      setPages((ps) => ps.slice(0, -1));
    } else if (e.key === 'Tab' && !e.shiftKey) {
      const row = rows.find((r) => r.key === selected);
      if (row?.kind === 'entity' && row.entity.actions.length > 0) {
        e.preventDefault();
        push({ kind: 'actions', entity: row.entity });
      }
    }
  };

  const crumbs = pages.slice(1).map((p) => (p.kind === 'arg' ? t(p.command.titleKey) : p.kind === 'actions' ? p.entity.label : ''));
  const placeholder =
    page.kind === 'arg' ? t(page.command.args![page.argIndex]!.titleKey) : page.kind === 'actions' ? t('palette:actionsFor', { name: page.entity.label }) : t('palette:placeholder');
  const enabledCount = rows.filter((r) => !isDisabled(r)).length;
  const countText = t('palette:resultCount', { count: enabledCount });
  const [announced, setAnnounced] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setAnnounced(countText), COUNT_ANNOUNCE_MS);
    return () => clearTimeout(timer);
  }, [countText, query]);

  return (
    <Command shouldFilter={false} loop value={selected} onValueChange={setSelected} label={t('palette:label')} className="palette">
      {crumbs.length > 0 && (
        <div className="palette-crumbs" aria-hidden="true">
          {crumbs.map((c, i) => (
            <span key={i} className="palette-crumb">
              {c} ▸
            </span>
          ))}
        </div>
      )}
      <Command.Input autoFocus value={query} onValueChange={setQuery} onKeyDown={onKeyDown} placeholder={placeholder} aria-label={[...crumbs, placeholder].join(' ▸ ')} className="palette-input" />
      <div className="visually-hidden" role="status" aria-live="polite">
        {announced}
      </div>
      {/* data-query: the query the rows on screen answer (the benchmark waits for it). */}
      <Command.List ref={listRef} className="palette-list" data-query={query}>
        <Command.Empty className="palette-empty">{t('palette:noResults')}</Command.Empty>
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((v) => {
            const row = rows[v.index]!;
            return (
              <Command.Item
                key={row.key}
                value={row.key}
                disabled={isDisabled(row)}
                onSelect={() => choose(row)}
                className="palette-item"
                style={{ position: 'absolute', top: 0, insetInlineStart: 0, width: '100%', height: ROW_HEIGHT, transform: `translateY(${v.start}px)` }}
              >
                <RowContent row={row} binding={row.kind === 'command' ? bindings.get(row.command.id) : undefined} t={t} />
              </Command.Item>
            );
          })}
        </div>
      </Command.List>
      <div className="palette-footer" aria-hidden="true">
        <span><kbd>↑</kbd><kbd>↓</kbd> {t('palette:hintMove')}</span>
        <span><kbd>Enter</kbd> {t('palette:hintRun')}</span>
        <span><kbd>Tab</kbd> {t('palette:hintActions')}</span>
        <span><kbd>Esc</kbd> {t('palette:hintClose')}</span>
      </div>
    </Command>
  );
}

function isDisabled(row: PaletteRow): boolean {
  if (row.kind === 'command' || row.kind === 'action') return row.enablement !== true;
  if (row.kind === 'freeText') return row.error !== null;
  return false;
}

function RowContent({ row, binding, t }: { row: PaletteRow; binding?: string; t: (k: string, o?: Record<string, unknown>) => string }) {
  switch (row.kind) {
    case 'command':
    case 'action': {
      const reason = row.enablement === true ? null : t(row.enablement.reasonKey, row.enablement.values);
      const detail = [row.area, reason].filter(Boolean).join(' · ');
      return (
        <>
          <span className="palette-item-main">
            <span className="palette-item-title">{row.title}</span>
            {detail && <span className="palette-item-detail">{detail}</span>}
          </span>
          {row.kind === 'command' && row.recent && <span className="palette-tag">{t('palette:recent')}</span>}
          {binding && (
            <span className="palette-keys" aria-label={t('palette:shortcut', { keys: bindingToKeys(binding).map((k) => k.join('+')).join(' ') })}>
              {bindingToKeys(binding).map((press, i) => (
                <span key={i}>
                  {press.map((k) => (
                    <kbd key={k}>{k}</kbd>
                  ))}
                </span>
              ))}
            </span>
          )}
        </>
      );
    }
    case 'entity':
      return (
        <>
          <span className="palette-item-main">
            <span className="palette-item-title">{row.entity.label}</span>
            {row.entity.detail && <span className="palette-item-detail">{row.entity.detail}</span>}
          </span>
          <span className="palette-tag">{row.kindLabel}</span>
        </>
      );
    case 'option':
      return (
        <span className="palette-item-main">
          <span className="palette-item-title">{row.option.label}</span>
          {row.option.detail && <span className="palette-item-detail">{row.option.detail}</span>}
        </span>
      );
    case 'freeText':
      return (
        <span className="palette-item-main">
          <span className="palette-item-title">{t('palette:useText', { text: row.text })}</span>
          {row.error && <span className="palette-item-detail palette-error">{row.error}</span>}
        </span>
      );
  }
}

import { type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useVirtualGrid } from '../../kernel/ui/virtualGrid';
import type { DirEntry } from './directory';
import { formatPhone } from './format';

export const ROW_HEIGHT = 52;

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter((p) => /\p{L}/u.test(p));
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '')).toUpperCase() || '#';
}

export interface ContactListProps {
  rows: readonly DirEntry[];
  selectedId: string | undefined;
  checked: readonly string[];
  /** Checkboxes appear once one contact is chosen. */
  showChecks: boolean;
  busy: boolean;
  listRef: RefObject<HTMLDivElement | null>;
  onSelect(id: string): void;
  onActivate(id: string): void;
  onToggleCheck(id: string): void;
}

/**
 * A virtualised grid of any length (only the visible rows exist in the DOM). One tab stop: the
 * grid itself holds focus and points at the active row with aria-activedescendant; arrows,
 * Page Up/Down, Home/End move, Enter opens, Space ticks the row's checkbox.
 */
export function ContactList({ rows, selectedId, checked, showChecks, busy, listRef, onSelect, onActivate, onToggleCheck }: ContactListProps) {
  const { t } = useTranslation('contacts');
  const noName = t('noName');
  const { virtualizer, index, onKeyDown } = useVirtualGrid({ rows, selectedId, listRef, rowHeight: ROW_HEIGHT, onSelect, onActivate, onToggleCheck });
  const checkedSet = new Set(checked);

  const activeId = index >= 0 ? `contact-row-${rows[index]!.id}` : undefined;
  return (
    <div
      ref={listRef}
      role="grid"
      aria-label={t('list.label')}
      aria-rowcount={rows.length}
      aria-multiselectable={showChecks || undefined}
      aria-busy={busy || undefined}
      aria-activedescendant={activeId}
      tabIndex={0}
      className="list contacts-list"
      onKeyDown={onKeyDown}
      onFocus={() => {
        if (index < 0 && rows.length) onSelect(rows[0]!.id);
      }}
    >
      <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((v) => {
          const r = rows[v.index]!;
          const name = r.name || noName;
          const selected = r.id === selectedId;
          const isChecked = checkedSet.has(r.id);
          const secondary = [r.numbers[0] ? formatPhone(r.numbers[0]) : '', r.company !== r.name ? r.company : ''].filter(Boolean).join(' · ');
          return (
            <div
              key={r.id}
              id={`contact-row-${r.id}`}
              role="row"
              aria-rowindex={v.index + 1}
              aria-label={[name, r.favorite ? t('favorite.on') : '', secondary, r.source === 'User' ? t('source.User') : ''].filter(Boolean).join(', ')}
              aria-selected={showChecks ? isChecked : selected}
              data-selected={selected || undefined}
              data-focus-visible={selected || undefined}
              className="row contacts-row"
              style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${v.start}px)` }}
              onClick={(e) => {
                if (e.ctrlKey || e.metaKey) onToggleCheck(r.id);
                else onActivate(r.id);
              }}
            >
              <div role="gridcell" className="contacts-cell">
                {showChecks && (
                  <input
                    type="checkbox"
                    tabIndex={-1}
                    className="contacts-check"
                    checked={isChecked}
                    aria-label={t('list.check', { name })}
                    onClick={(e) => e.stopPropagation()}
                    onChange={() => onToggleCheck(r.id)}
                  />
                )}
                <span className="contacts-avatar" aria-hidden="true">
                  {initials(name)}
                </span>
                <span className="row-main">
                  <span className="row-primary">
                    {name}
                    {r.favorite && (
                      <span className="contacts-star" role="img" aria-label={t('favorite.on')}>
                        {' '}★
                      </span>
                    )}
                  </span>
                  {secondary && <span className="row-secondary">{secondary}</span>}
                </span>
                {r.source === 'User' && <span className="contacts-kind">{t('source.User')}</span>}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}

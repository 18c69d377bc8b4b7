import { type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { VirtualGridList } from '../../../ui/VirtualGridList';
import type { DirEntry } from '../directory';
import { formatPhone } from '../format';

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
export function ContactList({ rows, selectedId, checked, showChecks, listRef, onSelect, onActivate, onToggleCheck }: ContactListProps) {
  const { t } = useTranslation('contacts');
  const noName = t('noName');
  const nameOf = (r: DirEntry) => r.name || noName;
  const secondaryOf = (r: DirEntry) => [r.numbers[0] ? formatPhone(r.numbers[0]) : '', r.company !== r.name ? r.company : ''].filter(Boolean).join(' · ');
  return (
    <VirtualGridList
      {...{ rows, selectedId, listRef, onSelect, onActivate }}
      rowHeight={ROW_HEIGHT}
      label={t('list.label')}
      idPrefix="contact-row-"
      className="list contacts-list"
      rowLabel={(r) => [nameOf(r), r.favorite ? t('favorite.on') : '', secondaryOf(r), r.source === 'User' ? t('source.User') : ''].filter(Boolean).join(', ')}
      rowClassName={() => 'row contacts-row'}
      cellClassName="contacts-cell"
      ticks={{ checked: new Set(checked), shown: showChecks, clickTicks: false, boxLabel: (r) => t('list.check', { name: nameOf(r) }), boxClassName: 'contacts-check', onToggle: onToggleCheck }}
    >
      {(r) => {
        const secondary = secondaryOf(r);
        return (
          <>
            <span className="contacts-avatar" aria-hidden="true">
              {initials(nameOf(r))}
            </span>
            <span className="row-main">
              <span className="row-primary">
                {nameOf(r)}
                {r.favorite && (
                  <span className="contacts-star" role="img" aria-label={t('favorite.on')}>
                    {' '}★
                  </span>
                )}
              </span>
              {secondary && <span className="row-secondary">{secondary}</span>}
            </span>
            {r.source === 'User' && <span className="contacts-kind">{t('source.User')}</span>}
          </>
        );
      }}
    </VirtualGridList>
  );
}

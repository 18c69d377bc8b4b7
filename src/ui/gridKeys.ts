import type { KeyboardEvent } from 'react';

/*
 * The keyboard of the product's list grids (ui/VirtualGridList, ui/PlainGridList): one tab stop that
 * holds aria-activedescendant; arrows, Page Up/Down and Home/End move the selection, Enter opens and
 * Space ticks the selected row. Without the scrolling, which each list does its own way.
 */

export interface GridKeysOptions {
  rows: readonly { id: string }[];
  selectedId: string | undefined;
  /** Rows a Page Up/Down moves by. */
  pageRows: number;
  onSelect(id: string): void;
  onActivate(id: string): void;
  /** Space ticks the selected row (lists without checkboxes leave it out). */
  onToggleCheck?(id: string): void;
}

export function gridKeyDown({ rows, selectedId, pageRows, onSelect, onActivate, onToggleCheck }: GridKeysOptions): (e: KeyboardEvent<HTMLElement>) => void {
  const index = selectedId ? rows.findIndex((r) => r.id === selectedId) : -1;
  const move = (to: number) => {
    if (rows.length) onSelect(rows[Math.max(0, Math.min(rows.length - 1, to))]!.id);
  };
  return (e) => {
    const target = selectedId ?? rows[0]?.id;
    const page = Math.max(1, pageRows);
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(index + 1),
      ArrowUp: () => move(index < 0 ? 0 : index - 1),
      PageDown: () => move(index + page),
      PageUp: () => move(index - page),
      Home: () => move(0),
      End: () => move(rows.length - 1),
      Enter: () => target && onActivate(target),
    };
    if (onToggleCheck) keys[' '] = () => selectedId && onToggleCheck(selectedId);
    const k = keys[e.key];
    if (k && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      e.stopPropagation();
      k();
    }
  };
}

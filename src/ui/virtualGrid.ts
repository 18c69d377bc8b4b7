import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';

/*
 * The keyboard and scrolling of the product's long lists (contacts, voicemail, recordings): a
 * virtualised grid that is one tab stop, holds aria-activedescendant, and moves the selection with
 * arrows, Page Up/Down and Home/End; Enter opens and Space ticks the selected row. Not exported
 * from the kernel's index: only lazily loaded screens use it, so it stays off the boot path.
 */

export interface VirtualGridOptions {
  rows: readonly { id: string }[];
  selectedId: string | undefined;
  listRef: RefObject<HTMLDivElement | null>;
  rowHeight: number;
  onSelect(id: string): void;
  onActivate(id: string): void;
  /** Space ticks the selected row (lists without checkboxes leave it out). */
  onToggleCheck?(id: string): void;
}

export interface VirtualGrid {
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  /** The selected row's index, or -1. */
  index: number;
  onKeyDown(e: KeyboardEvent<HTMLDivElement>): void;
}

export function useVirtualGrid({ rows, selectedId, listRef, rowHeight, onSelect, onActivate, onToggleCheck }: VirtualGridOptions): VirtualGrid {
  const index = selectedId ? rows.findIndex((r) => r.id === selectedId) : -1;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => listRef.current,
    estimateSize: () => rowHeight,
    overscan: 8,
    // The first rows paint before the scroll element is measured.
    initialRect: { width: 400, height: 800 },
  });

  // Scrolled into view when the selection changes, not when the rows do under a kept selection.
  const lastScrolled = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (index >= 0 && lastScrolled.current !== selectedId) {
      lastScrolled.current = selectedId;
      virtualizer.scrollToIndex(index, { align: 'auto' });
    }
  }, [index, selectedId, virtualizer]);

  const move = (to: number) => {
    if (rows.length) onSelect(rows[Math.max(0, Math.min(rows.length - 1, to))]!.id);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((listRef.current?.clientHeight ?? 520) / rowHeight) - 1);
    const target = selectedId ?? rows[0]?.id;
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
  return { virtualizer, index, onKeyDown };
}

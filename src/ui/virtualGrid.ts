import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { gridKeyDown } from './gridKeys';

/*
 * The scrolling of the product's long lists (contacts, voicemail, recordings, meetings): only the
 * rows in view exist; the keyboard is gridKeys'. Not exported from the kernel's index: only lazily
 * loaded screens use it, so it stays off the boot path.
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

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) =>
    gridKeyDown({ rows, selectedId, pageRows: Math.floor((listRef.current?.clientHeight ?? 520) / rowHeight) - 1, onSelect, onActivate, onToggleCheck })(e);
  return { virtualizer, index, onKeyDown };
}

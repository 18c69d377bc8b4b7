import { useEffect, type ReactNode, type RefObject } from 'react';
import { useVirtualGrid } from './virtualGrid';

/**
 * The product's long lists (contacts, voicemail, recordings) as one component: a virtualised grid
 * that is one tab stop pointing at the selected row with aria-activedescendant, keyboard as in
 * useVirtualGrid, rows of one cell whose content the screen draws, and optional tick boxes for bulk
 * actions. Like virtualGrid, it is not exported from the kernel's index: only lazy screens use it.
 */
export interface VirtualGridListProps<R extends { id: string }> {
  rows: readonly R[];
  /** How many rows exist when only some are loaded (paged lists); defaults to rows.length. */
  rowCount?: number;
  selectedId: string | undefined;
  listRef: RefObject<HTMLDivElement | null>;
  rowHeight: number;
  label: string;
  /** Row element ids are `${idPrefix}${row.id}` (what aria-activedescendant names). */
  idPrefix: string;
  className: string;
  busy?: boolean;
  rowLabel(row: R): string;
  rowClassName(row: R): string;
  cellClassName: string;
  /** The cell's content, after the tick box. */
  children(row: R): ReactNode;
  onSelect(id: string): void;
  onActivate(id: string): void;
  /** Bulk selection; without it there are no tick boxes and Space does nothing. */
  ticks?: {
    checked: ReadonlySet<string>;
    /** Tick boxes are drawn and aria-selected reports the ticks rather than the selection. */
    shown: boolean;
    /** A plain click ticks instead of opening (Ctrl/⌘+click always ticks). */
    clickTicks: boolean;
    boxLabel(row: R): string;
    boxClassName: string;
    onToggle(id: string): void;
  };
  /** The last row drawn changed (a paged list loads more near the end). */
  onLastVisible?(index: number): void;
}

export function VirtualGridList<R extends { id: string }>(props: VirtualGridListProps<R>) {
  const { rows, selectedId, listRef, rowHeight, ticks, onSelect, onActivate, onLastVisible } = props;
  const { virtualizer, index, onKeyDown } = useVirtualGrid({ rows, selectedId, listRef, rowHeight, onSelect, onActivate, onToggleCheck: ticks?.onToggle });
  const visible = virtualizer.getVirtualItems();
  const lastVisible = visible[visible.length - 1]?.index ?? -1;
  useEffect(() => {
    if (lastVisible >= 0) onLastVisible?.(lastVisible);
  }, [lastVisible, onLastVisible]);

  return (
    <div
      ref={listRef}
      role="grid"
      aria-label={props.label}
      aria-rowcount={props.rowCount ?? rows.length}
      aria-multiselectable={ticks?.shown || undefined}
      aria-busy={props.busy || undefined}
      aria-activedescendant={index >= 0 ? `${props.idPrefix}${rows[index]!.id}` : undefined}
      tabIndex={0}
      className={props.className}
      onKeyDown={onKeyDown}
      onFocus={(e) => {
        if (e.target === e.currentTarget && index < 0 && rows.length) onSelect(rows[0]!.id);
      }}
    >
      <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {visible.map((v) => {
          const r = rows[v.index]!;
          const selected = r.id === selectedId;
          const ticked = ticks?.checked.has(r.id) ?? false;
          return (
            <div
              key={r.id}
              id={`${props.idPrefix}${r.id}`}
              role="row"
              aria-rowindex={v.index + 1}
              aria-label={props.rowLabel(r)}
              aria-selected={ticks?.shown ? ticked : selected}
              data-selected={selected || undefined}
              data-focus-visible={selected || undefined}
              className={props.rowClassName(r)}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, height: rowHeight, transform: `translateY(${v.start}px)` }}
              onClick={(e) => {
                if (ticks && (ticks.clickTicks || e.ctrlKey || e.metaKey)) ticks.onToggle(r.id);
                else onActivate(r.id);
              }}
            >
              <div role="gridcell" className={props.cellClassName}>
                {ticks?.shown && (
                  <input
                    type="checkbox"
                    tabIndex={-1}
                    className={ticks.boxClassName}
                    checked={ticked}
                    aria-label={ticks.boxLabel(r)}
                    onClick={(e) => e.stopPropagation()}
                    onChange={() => ticks.onToggle(r.id)}
                  />
                )}
                {props.children(r)}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}

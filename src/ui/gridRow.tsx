import { type CSSProperties, type FocusEvent, type ReactNode, type RefObject } from 'react';

/**
 * The rows of the product's list grids (ui/VirtualGridList for long lists, ui/PlainGridList for
 * paged ones): a grid that is one tab stop pointing at the selected row with aria-activedescendant,
 * rows of one cell whose content the screen draws, and optional tick boxes for bulk actions.
 */
export interface GridListProps<R extends { id: string }> {
  rows: readonly R[];
  /** How many rows exist when only some are loaded (paged lists; -1: not known yet); defaults to rows.length. */
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

/** The grid element's own attributes and focus, the same for both lists: focused with nothing selected, it selects the first row. */
export function gridProps<R extends { id: string }>(props: GridListProps<R>, index: number) {
  return {
    ref: props.listRef,
    onFocus: (e: FocusEvent<HTMLDivElement>) => {
      if (e.target === e.currentTarget && index < 0 && props.rows.length) props.onSelect(props.rows[0]!.id);
    },
    role: 'grid',
    'aria-label': props.label,
    'aria-rowcount': props.rowCount ?? props.rows.length,
    'aria-multiselectable': props.ticks?.shown || undefined,
    'aria-busy': props.busy || undefined,
    'aria-activedescendant': index >= 0 ? `${props.idPrefix}${props.rows[index]!.id}` : undefined,
    tabIndex: 0,
    className: props.className,
  } as const;
}

interface GridRowProps<R extends { id: string }> {
  list: GridListProps<R>;
  row: R;
  index: number;
  selected: boolean;
  ticked: boolean;
  style?: CSSProperties;
}

export function GridRow<R extends { id: string }>({ list, row: r, index, selected, ticked, style }: GridRowProps<R>) {
  const { ticks, onActivate } = list;
  return (
    <div
      id={`${list.idPrefix}${r.id}`}
      role="row"
      aria-rowindex={index + 1}
      aria-label={list.rowLabel(r)}
      aria-selected={ticks?.shown ? ticked : selected}
      data-selected={selected || undefined}
      data-focus-visible={selected || undefined}
      className={list.rowClassName(r)}
      style={style}
      onClick={(e) => {
        if (ticks && (ticks.clickTicks || e.ctrlKey || e.metaKey)) ticks.onToggle(r.id);
        else onActivate(r.id);
      }}
    >
      <div role="gridcell" className={list.cellClassName}>
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
        {list.children(r)}
      </div>
    </div>
  );
}

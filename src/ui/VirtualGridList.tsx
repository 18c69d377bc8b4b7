import { useEffect } from 'react';
import { gridProps, GridRow, type GridListProps } from './gridRow';
import { useVirtualGrid } from './virtualGrid';

/**
 * The product's long lists (contacts, voicemail, recordings, meetings): the grid of ui/gridRow with
 * only the rows in view drawn, keyboard as in gridKeys. Like virtualGrid, it is not exported from
 * the kernel's index: only lazy screens use it.
 */
export type VirtualGridListProps<R extends { id: string }> = GridListProps<R>;

export function VirtualGridList<R extends { id: string }>(props: VirtualGridListProps<R>) {
  const { rows, selectedId, listRef, rowHeight, ticks, onSelect, onActivate, onLastVisible } = props;
  const { virtualizer, index, onKeyDown } = useVirtualGrid({ rows, selectedId, listRef, rowHeight, onSelect, onActivate, onToggleCheck: ticks?.onToggle });
  const visible = virtualizer.getVirtualItems();
  const lastVisible = visible[visible.length - 1]?.index ?? -1;
  useEffect(() => {
    if (lastVisible >= 0) onLastVisible?.(lastVisible);
  }, [lastVisible, onLastVisible]);

  return (
    <div {...gridProps(props, index)} onKeyDown={onKeyDown}>
      <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {visible.map((v) => {
          const r = rows[v.index]!;
          return (
            // Keyed by position: when a search changes every row in view, the row elements are
            // updated in place instead of ~30 removed and ~30 created per keystroke (issue 18).
            // Rows hold no state of their own (the selection and focus are the grid's).
            <GridRow
              key={v.index}
              list={props}
              row={r}
              index={v.index}
              selected={r.id === selectedId}
              ticked={ticks?.checked.has(r.id) ?? false}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, height: rowHeight, transform: `translateY(${v.start}px)` }}
            />
          );
        })}
      </div>
    </div>
  );
}

import { useEffect, useRef } from 'react';
import { gridKeyDown } from './gridKeys';
import { gridProps, GridRow, type GridListProps } from './gridRow';

/**
 * The grid of ui/gridRow with every loaded row drawn, for paged lists that grow as the user
 * scrolls (call history): no virtualizer to load before the first screen paints. Rows off screen
 * skip layout and paint (content-visibility in the stylesheet). Keyboard as in gridKeys.
 */
export function PlainGridList<R extends { id: string }>(props: GridListProps<R>) {
  const { rows, selectedId, listRef, rowHeight, ticks, onSelect, onActivate, onLastVisible } = props;
  const index = selectedId ? rows.findIndex((r) => r.id === selectedId) : -1;

  // Scrolled into view when the selection changes, not when the rows do under a kept selection.
  const lastScrolled = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (index < 0 || lastScrolled.current === selectedId) return;
    lastScrolled.current = selectedId;
    document.getElementById(`${props.idPrefix}${selectedId}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [index, selectedId, props.idPrefix]);

  // The last row coming into view is what a paged list waits for to load more.
  const last = rows.length - 1;
  useEffect(() => {
    const el = listRef.current?.querySelector(`[aria-rowindex="${last + 1}"]`);
    if (!el || !onLastVisible || typeof IntersectionObserver === 'undefined') return;
    const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && onLastVisible(last), { root: listRef.current });
    seen.observe(el);
    return () => seen.disconnect();
  }, [last, listRef, onLastVisible]);

  const onKeyDown = gridKeyDown({ rows, selectedId, pageRows: Math.floor((listRef.current?.clientHeight ?? 520) / rowHeight) - 1, onSelect, onActivate, onToggleCheck: ticks?.onToggle });
  return (
    <div {...gridProps(props, index)} onKeyDown={onKeyDown}>
      <div role="rowgroup">
        {rows.map((r, i) => (
          <GridRow key={r.id} list={props} row={r} index={i} selected={r.id === selectedId} ticked={ticks?.checked.has(r.id) ?? false} />
        ))}
      </div>
    </div>
  );
}

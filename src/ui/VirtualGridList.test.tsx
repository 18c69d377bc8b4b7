// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createRef, useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { VirtualGridList } from './VirtualGridList';

interface Row {
  id: string;
  name: string;
}
const ROWS: Row[] = Array.from({ length: 500 }, (_, i) => ({ id: String(i + 1), name: `Person ${i + 1}` }));

beforeAll(() => {
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => 400);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(() => 520);
  Element.prototype.scrollTo = () => undefined;
});
afterEach(cleanup);

function List({ clickTicks = false, onActivate = () => undefined, onLastVisible }: { clickTicks?: boolean; onActivate?: (id: string) => void; onLastVisible?: (i: number) => void }) {
  const [selected, setSelected] = useState<string | undefined>();
  const [checked, setChecked] = useState<string[]>([]);
  const toggle = (id: string) => setChecked((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id]));
  return (
    <VirtualGridList
      rows={ROWS}
      selectedId={selected}
      listRef={createRef<HTMLDivElement>()}
      rowHeight={52}
      label="People"
      idPrefix="p-"
      className="list"
      rowLabel={(r) => r.name}
      rowClassName={() => 'row'}
      cellClassName="cell"
      onSelect={setSelected}
      onActivate={onActivate}
      onLastVisible={onLastVisible}
      ticks={{ checked: new Set(checked), shown: checked.length > 0, clickTicks: clickTicks && checked.length > 0, boxLabel: (r) => `Select ${r.name}`, boxClassName: 'box', onToggle: toggle }}
    >
      {(r) => <span>{r.name}</span>}
    </VirtualGridList>
  );
}

describe('VirtualGridList', () => {
  it('is one tab stop over only the visible rows; focus selects the first, arrows and End move the active row', () => {
    render(<List />);
    const grid = screen.getByRole('grid', { name: 'People' });
    expect(grid).toHaveProperty('tabIndex', 0);
    expect(grid.getAttribute('aria-rowcount')).toBe('500');
    expect(within(grid).getAllByRole('row').length).toBeLessThan(60);
    fireEvent.focus(grid);
    expect(grid.getAttribute('aria-activedescendant')).toBe('p-1');
    fireEvent.keyDown(grid, { key: 'ArrowDown' });
    expect(grid.getAttribute('aria-activedescendant')).toBe('p-2');
    expect(screen.getByRole('row', { name: 'Person 2' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(grid, { key: 'End' });
    expect(grid.getAttribute('aria-activedescendant')).toBe('p-500');
  });

  it('Enter and a click open; Space ticks, then the rows report their ticks and show labelled boxes', () => {
    const opened: string[] = [];
    render(<List onActivate={(id) => opened.push(id)} />);
    const grid = screen.getByRole('grid', { name: 'People' });
    fireEvent.focus(grid);
    fireEvent.keyDown(grid, { key: 'Enter' });
    fireEvent.click(screen.getByRole('row', { name: 'Person 3' }));
    expect(opened).toEqual(['1', '3']);
    expect(screen.queryByRole('checkbox')).toBeNull();
    fireEvent.keyDown(grid, { key: ' ' });
    expect(grid.getAttribute('aria-multiselectable')).toBe('true');
    expect(screen.getByRole('checkbox', { name: 'Select Person 1' })).toHaveProperty('checked', true);
    expect(screen.getByRole('row', { name: 'Person 1' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('row', { name: 'Person 2' }).getAttribute('aria-selected')).toBe('false');
    // Ctrl+click ticks rather than opens.
    fireEvent.click(screen.getByRole('row', { name: 'Person 2' }), { ctrlKey: true });
    expect(screen.getByRole('checkbox', { name: 'Select Person 2' })).toHaveProperty('checked', true);
    expect(opened).toEqual(['1', '3']);
  });

  it('with clickTicks, a plain click ticks once something is ticked', () => {
    const opened: string[] = [];
    render(<List clickTicks onActivate={(id) => opened.push(id)} />);
    const grid = screen.getByRole('grid', { name: 'People' });
    fireEvent.focus(grid);
    fireEvent.keyDown(grid, { key: ' ' });
    fireEvent.click(screen.getByRole('row', { name: 'Person 4' }));
    expect(screen.getByRole('checkbox', { name: 'Select Person 4' })).toHaveProperty('checked', true);
    expect(opened).toEqual([]);
  });

  it('tells a paged list which row is the last drawn', () => {
    const last: number[] = [];
    render(<List onLastVisible={(i) => last.push(i)} />);
    expect(last.at(-1)).toBeGreaterThan(5);
    expect(last.at(-1)).toBeLessThan(60);
  });
});

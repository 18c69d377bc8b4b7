// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closePalette, openPalette, paletteState, takeTypeAhead, TYPE_AHEAD_MAX_MS } from '../../src/palette/store';

const press = (key: string, init: KeyboardEventInit = {}) => document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }));

/** The keys the screen behind the palette received (where the hotkeys listen). */
let behind: string[] = [];
const onKey = (e: KeyboardEvent) => behind.push(e.key);
beforeEach(() => {
  behind = [];
  window.addEventListener('keydown', onKey);
});
afterEach(() => {
  window.removeEventListener('keydown', onKey);
  closePalette();
});

describe('keys typed while the palette opens', () => {
  it('build its query instead of reaching the screen behind ("c" there calls back)', () => {
    openPalette();
    for (const k of 'call bobb') press(k);
    press('Backspace');
    press('Enter');
    expect(behind).toEqual([]);
    expect(takeTypeAhead()).toEqual({ text: 'call bob', enter: true });
    // Once the palette has them, keys go where focus is again.
    press('x');
    expect(behind).toEqual(['x']);
  });

  it('leave shortcuts with modifiers alone, and Escape closes the palette', () => {
    openPalette();
    press('k', { ctrlKey: true });
    expect(behind).toEqual(['k']);
    press('Escape');
    expect(paletteState.open).toBe(false);
    press('c');
    expect(behind).toEqual(['k', 'c']);
    expect(takeTypeAhead()).toEqual({ text: '', enter: false });
  });

  it('are given back to the page if the palette never comes (its chunk failed to load)', () => {
    vi.useFakeTimers();
    try {
      openPalette();
      press('a');
      vi.advanceTimersByTime(TYPE_AHEAD_MAX_MS);
      press('b');
      expect(behind).toEqual(['b']);
    } finally {
      vi.useRealTimers();
    }
  });
});

// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { closePalette, openPalette, paletteState, takeTypeAhead } from '../../src/palette/store';

const press = (key: string, init: KeyboardEventInit = {}) => document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }));

afterEach(() => closePalette());

describe('keys typed while the palette opens', () => {
  it('build its query instead of reaching the screen behind ("c" there calls back)', () => {
    const behind: string[] = [];
    const onKey = (e: KeyboardEvent) => behind.push(e.key);
    window.addEventListener('keydown', onKey);
    try {
      openPalette();
      for (const k of 'call bobb') press(k);
      press('Backspace');
      press('Enter');
      expect(behind).toEqual([]);
      expect(takeTypeAhead()).toEqual({ text: 'call bob', enter: true });
      // Once the palette has them, keys go where focus is again.
      press('x');
      expect(behind).toEqual(['x']);
    } finally {
      window.removeEventListener('keydown', onKey);
    }
  });

  it('leave shortcuts with modifiers alone, and Escape closes the palette', () => {
    const behind: string[] = [];
    const onKey = (e: KeyboardEvent) => behind.push(e.key);
    window.addEventListener('keydown', onKey);
    try {
      openPalette();
      press('k', { ctrlKey: true });
      expect(behind).toEqual(['k']);
      press('Escape');
      expect(paletteState.open).toBe(false);
      press('c');
      expect(behind).toEqual(['k', 'c']);
      expect(takeTypeAhead()).toEqual({ text: '', enter: false });
    } finally {
      window.removeEventListener('keydown', onKey);
    }
  });
});

import { proxy } from 'valtio';

/** Open state of the palette; commands and the shell open it with a starting page. */
export const paletteState = proxy({
  open: false,
  /** A command id whose argument pages open directly (e.g. "Call ▸" from a hotkey). */
  startCommand: null as string | null,
});

/** What was typed between opening the palette and its input taking the keys (see captureTypeAhead). */
const typeAhead = { text: '', enter: false };
let stopCapture: (() => void) | null = null;
/** The longest the keys are held for a palette that does not come (its chunk failed to load). */
export const TYPE_AHEAD_MAX_MS = 10_000;

/**
 * From Mod+K until the palette's input has focus (its chunk may still be loading, and React has to
 * draw it), keys typed belong to the palette: "call bob" typed at once must not reach the screen
 * behind, where "c" alone calls back the selected call. Letters build the query, Backspace takes
 * one back, Enter runs the first result once the palette is there, Escape closes it.
 */
function captureTypeAhead(): void {
  if (stopCapture || typeof window === 'undefined') return;
  const onKey = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key.length === 1) typeAhead.text += e.key;
    else if (e.key === 'Backspace') typeAhead.text = typeAhead.text.slice(0, -1);
    else if (e.key === 'Enter') typeAhead.enter = true;
    else if (e.key === 'Escape') closePalette();
    else return;
    e.preventDefault();
    e.stopImmediatePropagation();
  };
  window.addEventListener('keydown', onKey, true);
  const giveUp = setTimeout(() => stopCapture?.(), TYPE_AHEAD_MAX_MS);
  stopCapture = () => {
    clearTimeout(giveUp);
    window.removeEventListener('keydown', onKey, true);
    stopCapture = null;
  };
}

/** The palette's input has the keys now: what was typed before, and stop capturing. */
export function takeTypeAhead(): { text: string; enter: boolean } {
  const taken = { ...typeAhead };
  typeAhead.text = '';
  typeAhead.enter = false;
  stopCapture?.();
  return taken;
}

export function openPalette(startCommand: string | null = null): void {
  paletteState.startCommand = startCommand;
  if (!paletteState.open) captureTypeAhead();
  paletteState.open = true;
}

export function closePalette(): void {
  paletteState.open = false;
  paletteState.startCommand = null;
  takeTypeAhead();
}

const RECENT_MAX = 8;

export function recentKey(userId: number | null): string {
  return `uc.palette.recent.${userId ?? 'anon'}`;
}

export function loadRecent(userId: number | null): string[] {
  try {
    const raw = JSON.parse(localStorage.getItem(recentKey(userId)) ?? '[]') as unknown;
    return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function pushRecent(userId: number | null, id: string): void {
  const next = [id, ...loadRecent(userId).filter((x) => x !== id)].slice(0, RECENT_MAX);
  try {
    localStorage.setItem(recentKey(userId), JSON.stringify(next));
  } catch {
    /* storage unavailable: recents are a convenience */
  }
}

import { proxy } from 'valtio';

/** Open state of the palette; commands and the shell open it with a starting page. */
export const paletteState = proxy({
  open: false,
  /** A command id whose argument pages open directly (e.g. "Call ▸" from a hotkey). */
  startCommand: null as string | null,
});

export function openPalette(startCommand: string | null = null): void {
  paletteState.startCommand = startCommand;
  paletteState.open = true;
}

export function closePalette(): void {
  paletteState.open = false;
  paletteState.startCommand = null;
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

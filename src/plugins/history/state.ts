import { proxy } from 'valtio';
import { addDays, type HistoryFilter, type HistorySearch } from './filters';
import type { HistoryRecord } from './model';

export interface ExportState {
  loaded: number;
  /** Unknown until the first page answers. */
  total: number | null;
}

/** The state before the screen first opens: the store starts so (and a test returns it there). */
export const initialHistoryState = () => ({
  selected: null as HistoryRecord | null,
  /** The search params and filter of the screen, kept after it closes: CSV export uses the last ones. */
  search: null as HistorySearch | null,
  filter: null as HistoryFilter | null,
  exporting: null as ExportState | null,
  /** When each user last looked at the history (ms), mirrored from localStorage. */
  seenAt: {} as Record<string, number>,
});

/**
 * Live state the screen writes and the commands read when they run (never a captured copy):
 * the palette and hotkeys act on what is on screen now.
 */
export const historyState = proxy(initialHistoryState());

export function resetHistoryState(): void {
  Object.assign(historyState, initialHistoryState());
}

// ---- "seen at" for the missed-calls badge ------------------------------------------------------

export function seenStorageKey(userId: number): string {
  return `uc.history.seen.${userId}`;
}

export function readSeenAt(userId: number): number | null {
  try {
    const n = Number(localStorage.getItem(seenStorageKey(userId)));
    return Number.isFinite(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

/**
 * When the user last opened the history. Someone who never did has not seen the past week's missed
 * calls either, so they count from the start of the default range.
 */
export function seenAtFor(userId: number, now: Date): number {
  return historyState.seenAt[userId] ?? readSeenAt(userId) ?? addDays(now, -6).getTime();
}

export function markHistorySeen(userId: number, at: number = Date.now()): void {
  if ((historyState.seenAt[userId] ?? 0) >= at) return;
  historyState.seenAt[userId] = at;
  try {
    localStorage.setItem(seenStorageKey(userId), String(at));
  } catch {
    /* storage unavailable: the badge then resets with the page, which is acceptable */
  }
}

/** Another tab of the same user opened the history. */
export function syncSeenFromStorage(userId: number, value: string | null): void {
  const n = Number(value);
  if (Number.isFinite(n) && n > (historyState.seenAt[userId] ?? 0)) historyState.seenAt[userId] = n;
}

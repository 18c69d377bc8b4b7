import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { markHistorySeen, readSeenAt, resetHistoryState, seenAtFor, seenStorageKey, syncSeenFromStorage, historyState } from './state';

function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, String(v)),
  };
}

describe('seen-at for the missed-calls badge', () => {
  beforeEach(() => {
    vi.stubGlobal('localStorage', memoryStorage());
    resetHistoryState();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('is kept per user in localStorage', () => {
    markHistorySeen(7, 1_000);
    expect(localStorage.getItem('uc.history.seen.7')).toBe('1000');
    expect(seenStorageKey(8)).toBe('uc.history.seen.8');
    expect(readSeenAt(7)).toBe(1_000);
    expect(readSeenAt(8)).toBeNull();
  });

  it('never moves backwards', () => {
    markHistorySeen(7, 2_000);
    markHistorySeen(7, 1_000);
    expect(seenAtFor(7, new Date())).toBe(2_000);
  });

  it('starts at the beginning of the past week for a user who never looked', () => {
    const now = new Date(2024, 2, 5, 12);
    expect(seenAtFor(7, now)).toBe(new Date(2024, 1, 28).getTime());
  });

  it('reads what another tab stored', () => {
    localStorage.setItem(seenStorageKey(7), '5000');
    expect(seenAtFor(7, new Date())).toBe(5_000);
    syncSeenFromStorage(7, '9000');
    expect(historyState.seenAt[7]).toBe(9_000);
    syncSeenFromStorage(7, 'junk');
    expect(historyState.seenAt[7]).toBe(9_000);
  });

  it('survives storage being unavailable', () => {
    vi.stubGlobal('localStorage', undefined);
    expect(readSeenAt(7)).toBeNull();
    expect(() => markHistorySeen(7, 1)).not.toThrow();
    expect(historyState.seenAt[7]).toBe(1);
  });
});

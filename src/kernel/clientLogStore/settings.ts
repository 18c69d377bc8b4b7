import { LOG_LEVELS, type LogLevel } from '../log';

export const DEFAULT_LOG_LEVEL: LogLevel = 'info';
export const DEFAULT_MAX_SIZE_MB = 5;
export const MIN_MAX_SIZE_MB = 1;
export const MAX_MAX_SIZE_MB = 25;

const DIGITS = /^\d+$/;

/**
 * A stored size read back: digits only and 1–25, else the default 5 (the specification's rule for a
 * stored value over 25 or not positive; anything not digits counts as not positive).
 */
export function storedMaxSizeMb(raw: unknown): number {
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || !DIGITS.test(text)) return DEFAULT_MAX_SIZE_MB;
  const mb = Number(text);
  return mb >= MIN_MAX_SIZE_MB && mb <= MAX_MAX_SIZE_MB ? mb : DEFAULT_MAX_SIZE_MB;
}

/** A size the user typed: digits only (else null), clamped to 1–25. */
export function enteredMaxSizeMb(input: string | number): number | null {
  const text = typeof input === 'number' ? String(input) : input;
  if (!DIGITS.test(text)) return null;
  return Math.min(MAX_MAX_SIZE_MB, Math.max(MIN_MAX_SIZE_MB, Number(text)));
}

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}

export function storedLevel(raw: unknown): LogLevel {
  return isLogLevel(raw) ? raw : DEFAULT_LOG_LEVEL;
}

export function levelRank(level: LogLevel): number {
  return LOG_LEVELS.indexOf(level);
}

/** Where the two settings live: this browser's localStorage, as the log itself is this browser's. */
export interface SettingsStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export const LEVEL_KEY = 'uc-log-level';
export const MAX_SIZE_KEY = 'uc-log-max-size-mb';

/** localStorage where the browser allows it (some private modes throw), else memory for the page. */
export function browserSettingsStorage(): SettingsStorage {
  const memory = new Map<string, string>();
  const local = (): Storage | null => {
    try {
      return typeof localStorage === 'undefined' ? null : localStorage;
    } catch {
      return null;
    }
  };
  return {
    getItem(key) {
      try {
        return local()?.getItem(key) ?? memory.get(key) ?? null;
      } catch {
        return memory.get(key) ?? null;
      }
    },
    setItem(key, value) {
      memory.set(key, value);
      try {
        local()?.setItem(key, value);
      } catch {
        // Kept in memory for this page.
      }
    },
  };
}

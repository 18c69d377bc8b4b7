/** Dial input font size by length (specification): <11 → 24 px, 11–13 → 20, 14 → 18, 15 → 16, 16+ → 14. */
export function dialFontSizePx(text: string): number {
  const n = text.length;
  if (n < 11) return 24;
  if (n <= 13) return 20;
  if (n === 14) return 18;
  if (n === 15) return 16;
  return 14;
}

/** Dialled strings keep only digits, comma, # and *. */
export function sanitizeDialString(raw: string): string {
  return raw.replace(/[^0-9,#*]/g, '');
}

/** Only digits, * and # are DTMF. */
export const isDtmfKey = (key: string) => /^[0-9*#]$/.test(key);
export const dtmfDigits = (raw: string) => raw.replace(/[^0-9*#]/g, '');

/** Each comma in a dialled string is a 2 s pause before the digits that follow it. */
export const DTMF_COMMA_PAUSE_MS = 2000;

export interface DtmfStep {
  /** Wait this long after the previous step (or after the call is answered). */
  pauseMs: number;
  digits: string;
}

export type DialPlan =
  | { kind: 'empty' }
  | { kind: 'speedDial'; shortcut: string }
  | { kind: 'number'; number: string; dtmf: DtmfStep[] };

/**
 * Reads what the user typed into the dialpad or a "Call ▸" argument:
 * `#12` is speed-dial shortcut 12; `18005551234,,1,42` calls 18005551234, then after 4 s sends 1,
 * after 2 more seconds sends 42.
 */
export function parseDialString(raw: string): DialPlan {
  const clean = sanitizeDialString(raw);
  if (!clean || /^,*$/.test(clean)) return { kind: 'empty' };
  if (clean.startsWith('#')) {
    const shortcut = clean.slice(1).split(',')[0]!;
    return shortcut ? { kind: 'speedDial', shortcut } : { kind: 'empty' };
  }
  const [number = '', ...rest] = clean.split(',');
  if (!number) return { kind: 'empty' };
  const dtmf: DtmfStep[] = [];
  let pause = 0;
  for (const part of rest) {
    pause += DTMF_COMMA_PAUSE_MS;
    if (part) {
      dtmf.push({ pauseMs: pause, digits: part });
      pause = 0;
    }
  }
  return { kind: 'number', number, dtmf };
}

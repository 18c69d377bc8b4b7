/** Dialpad and call tones: dual-frequency at gain 0.2; DTMF tones last 125 ms with 75 ms gaps. */
export const TONE_GAIN = 0.2;
export const DTMF_TONE_MS = 125;
export const DTMF_GAP_MS = 75;
/** Outgoing ring-back: two-tone, 2 s on and 4 s off, in a 6 s loop. */
export const RINGBACK = { onMs: 2000, offMs: 4000, frequencies: [440, 480] as const };
/** Incoming ring: loops until stopped (answered, declined, cancelled). */
export const RING = { onMs: 2000, offMs: 4000, frequencies: [440, 480] as const, loop: true } as const;

/** The dual-tone (low, high) frequencies of each DTMF key. */
export const DTMF_FREQUENCIES: Readonly<Record<string, readonly [number, number]>> = {
  '1': [697, 1209], '2': [697, 1336], '3': [697, 1477],
  '4': [770, 1209], '5': [770, 1336], '6': [770, 1477],
  '7': [852, 1209], '8': [852, 1336], '9': [852, 1477],
  '*': [941, 1209], '0': [941, 1336], '#': [941, 1477],
};

export interface ToneSlot {
  key: string;
  startMs: number;
  durationMs: number;
}

/** When each digit of a DTMF burst sounds: 125 ms tones separated by 75 ms gaps. */
export function dtmfSchedule(digits: string): ToneSlot[] {
  return [...digits].filter((d) => d in DTMF_FREQUENCIES).map((key, i) => ({ key, startMs: i * (DTMF_TONE_MS + DTMF_GAP_MS), durationMs: DTMF_TONE_MS }));
}

/** Is the ring-back tone sounding `elapsedMs` after it started? */
export function ringbackOn(elapsedMs: number): boolean {
  return elapsedMs % (RINGBACK.onMs + RINGBACK.offMs) < RINGBACK.onMs;
}

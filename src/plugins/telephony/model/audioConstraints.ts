import type { AudioChoice } from '../../../contracts';

/** What a user who never chose has: the system's devices, the browser's usual processing on. */
export const DEFAULT_AUDIO: AudioChoice = { input: null, output: null, ring: null, echoCancellation: true, noiseSuppression: true };

/**
 * The getUserMedia audio constraints of a call's microphone. Processing is always stated: browsers
 * default both on, and a user who switched one off (e.g. a headset that cancels echo itself, or
 * music on the line) must get it off in every stream we open, not only in the first.
 */
export function audioConstraints(choice: Pick<AudioChoice, 'input' | 'echoCancellation' | 'noiseSuppression'>): MediaTrackConstraints {
  return {
    ...(choice.input ? { deviceId: { exact: choice.input } } : {}),
    echoCancellation: choice.echoCancellation,
    noiseSuppression: choice.noiseSuppression,
  };
}

/** A remembered choice, read back from storage: anything missing or malformed is the default. */
export function parseAudioChoice(raw: unknown): AudioChoice {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const id = (v: unknown) => (typeof v === 'string' && v ? v : null);
  const flag = (v: unknown, d: boolean) => (typeof v === 'boolean' ? v : d);
  return {
    input: id(r.input),
    output: id(r.output),
    ring: id(r.ring),
    echoCancellation: flag(r.echoCancellation, DEFAULT_AUDIO.echoCancellation),
    noiseSuppression: flag(r.noiseSuppression, DEFAULT_AUDIO.noiseSuppression),
  };
}

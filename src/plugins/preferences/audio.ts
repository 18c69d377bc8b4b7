import type { AudioChoice, ConnectionTestResult } from '../../contracts';

/** Virtual entries Chromium adds next to the real devices; "System default" stands for them. */
const VIRTUAL = new Set(['default', 'communications']);

export interface DeviceOption {
  id: string;
  /** The browser's name for it; empty until the user has allowed the microphone. */
  label: string;
}

/** The real devices of one kind, in the browser's order. */
export function devicesOf(all: readonly Pick<MediaDeviceInfo, 'deviceId' | 'kind' | 'label'>[], kind: MediaDeviceKind): DeviceOption[] {
  return all.filter((d) => d.kind === kind && d.deviceId && !VIRTUAL.has(d.deviceId)).map((d) => ({ id: d.deviceId, label: d.label }));
}

/**
 * A chosen device that is no longer there (unplugged) reads as the system default in the picker:
 * saving then does not keep a stale id, and the engine's own choice falls back the same way.
 */
export const shownDevice = (chosen: string | null, options: readonly DeviceOption[]): string | null => (chosen && options.some((o) => o.id === chosen) ? chosen : null);

/** The lowest level the meter shows above empty: about a quiet room. */
const FLOOR_DB = -60;

/**
 * The meter's 0–100 from one block of samples: the RMS in dBFS, from FLOOR_DB (0) to full scale
 * (100). Decibels rather than the raw RMS, because speech sits at a few percent of full scale and
 * would barely move a linear bar.
 */
export function meterLevel(samples: ArrayLike<number>): number {
  if (!samples.length) return 0;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!;
  const rms = Math.sqrt(sum / samples.length);
  if (rms <= 0) return 0;
  const db = 20 * Math.log10(rms);
  return Math.round(Math.min(100, Math.max(0, ((db - FLOOR_DB) / -FLOOR_DB) * 100)));
}

/** A choice as the pickers show it: devices not (or not yet) listed read as the system default. */
export const asShown = (c: AudioChoice, inputs: readonly DeviceOption[], outputs: readonly DeviceOption[]): AudioChoice => ({
  ...c,
  input: shownDevice(c.input, inputs),
  output: shownDevice(c.output, outputs),
  ring: shownDevice(c.ring, outputs),
});

/**
 * What Save sends: the draft as shown against the saved choice as shown, so that an unplugged
 * device alone leaves nothing unsaved; once the user changes something, what they see is saved.
 */
export const pendingChange = (saved: AudioChoice, draft: AudioChoice, inputs: readonly DeviceOption[], outputs: readonly DeviceOption[]): Partial<AudioChoice> =>
  audioChange(asShown(saved, inputs, outputs), asShown(draft, inputs, outputs));

/** What differs between the saved choice and the draft (what setAudio is given). */
export function audioChange(saved: AudioChoice, draft: AudioChoice): Partial<AudioChoice> {
  const change: Partial<AudioChoice> = {};
  for (const k of Object.keys(draft) as (keyof AudioChoice)[]) if (draft[k] !== saved[k]) (change as Record<string, unknown>)[k] = draft[k];
  return change;
}

/** A connection test's figures as the panel lists them: a translation key and its values, in order; unmeasured ones left out. */
export function testFigures(r: ConnectionTestResult): { key: string; value: number }[] {
  const figures: { key: string; value: number }[] = [];
  if (r.rttMs !== null) figures.push({ key: r.rttSource === 'network' ? 'rttNetwork' : 'rtt', value: Math.round(r.rttMs) });
  if (r.jitterMs !== null) figures.push({ key: 'jitter', value: Math.round(r.jitterMs) });
  if (r.lossPct !== null) figures.push({ key: 'loss', value: Math.round(r.lossPct * 10) / 10 });
  figures.push({ key: 'micLevel', value: Math.round(r.micLevel * 100) });
  return figures;
}

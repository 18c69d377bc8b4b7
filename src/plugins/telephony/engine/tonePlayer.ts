import { DTMF_FREQUENCIES, dtmfSchedule, RING, RINGBACK, TONE_GAIN } from '../model/tones';
import type { Tones } from './types';

interface Pattern {
  onMs: number;
  offMs: number;
  frequencies: readonly number[];
}

/**
 * WebAudio tones: dual-frequency bursts at gain 0.2. The incoming ring and the outgoing ring-back
 * loop (2 s on, 4 s off) until switched off.
 */
export function createTonePlayer(): Tones {
  let ctx: AudioContext | null = null;
  const loops = new Map<string, { timer: ReturnType<typeof setInterval>; stopBurst: () => void }>();

  const audio = (): AudioContext | null => {
    if (!ctx) {
      const Ctor = typeof window === 'object' ? window.AudioContext : undefined;
      if (!Ctor) return null;
      ctx = new Ctor();
    }
    // Suspended until the page has had a user gesture; resuming then is harmless.
    if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
    return ctx;
  };

  const burst = (c: AudioContext, frequencies: readonly number[], at: number, seconds: number): (() => void) => {
    const gain = c.createGain();
    gain.gain.value = TONE_GAIN;
    gain.connect(c.destination);
    const oscillators = frequencies.map((f) => {
      const o = c.createOscillator();
      o.frequency.value = f;
      o.connect(gain);
      o.start(at);
      o.stop(at + seconds);
      return o;
    });
    oscillators[0]!.onended = () => gain.disconnect();
    return () => {
      for (const o of oscillators) {
        try {
          o.stop();
        } catch {
          /* already stopped */
        }
      }
    };
  };

  const loop = (name: string, p: Pattern, on: boolean) => {
    const running = loops.get(name);
    if (!on) {
      if (running) {
        clearInterval(running.timer);
        running.stopBurst();
        loops.delete(name);
      }
      return;
    }
    if (running) return;
    const c = audio();
    if (!c) return;
    const sound = () => burst(c, p.frequencies, c.currentTime, p.onMs / 1000);
    const entry: { timer: ReturnType<typeof setInterval> | undefined; stopBurst: () => void } = { timer: undefined, stopBurst: sound() };
    entry.timer = setInterval(() => (entry.stopBurst = sound()), p.onMs + p.offMs);
    loops.set(name, entry as { timer: ReturnType<typeof setInterval>; stopBurst: () => void });
  };

  return {
    ring: (on) => loop('ring', RING, on),
    ringback: (on) => loop('ringback', RINGBACK, on),
    dtmf(digits) {
      const c = audio();
      if (!c) return;
      const t0 = c.currentTime;
      for (const slot of dtmfSchedule(digits)) burst(c, DTMF_FREQUENCIES[slot.key]!, t0 + slot.startMs / 1000, slot.durationMs / 1000);
    },
    dispose() {
      for (const name of [...loops.keys()]) loop(name, RING, false);
      void ctx?.close().catch(() => undefined);
      ctx = null;
    },
  };
}

let shared: Tones | null = null;
/** One player for the engine and the dialpad keys. */
export function tones(): Tones {
  shared ??= createTonePlayer();
  return shared;
}

import { DTMF_FREQUENCIES, dtmfSchedule, RING, RINGBACK, TONE_GAIN } from '../model/tones';
import type { Tones } from './types';
import { log } from '../log';

interface Pattern {
  onMs: number;
  offMs: number;
  frequencies: readonly number[];
}

/** AudioContext.setSinkId (Chromium 110+): WebAudio played on a chosen output. */
type RoutableContext = AudioContext & { setSinkId?: (id: string) => Promise<void> };

/** The speaker test: one ring burst's tones, long enough to be recognised. */
const TEST_TONE_MS = 1000;

const newContext = (): RoutableContext | null => {
  const Ctor = typeof window === 'object' ? window.AudioContext : undefined;
  return Ctor ? new Ctor() : null;
};

// Suspended until the page has had a user gesture; resuming then is harmless.
const wake = (c: AudioContext) => void (c.state === 'suspended' && c.resume().catch(() => undefined));

const route = (c: RoutableContext, deviceId: string | null) => c.setSinkId?.(deviceId ?? '').catch((err: unknown) => log.error('ring output', err));

/**
 * WebAudio tones: dual-frequency bursts at gain 0.2. The incoming ring and the outgoing ring-back
 * loop (2 s on, 4 s off) until switched off. The ring has its own context, routed to the ringer
 * the user chose (it may be loudspeakers while calls go to a headset); the other tones play on the
 * system's output, as calls did before a speaker was chosen.
 */
export function createTonePlayer(): Tones {
  let ctx: AudioContext | null = null;
  let ringCtx: RoutableContext | null = null;
  let ringSink: string | null = null;
  const loops = new Map<string, { timer: ReturnType<typeof setInterval>; stopBurst: () => void }>();

  const audio = (): AudioContext | null => {
    ctx ??= newContext();
    if (ctx) wake(ctx);
    return ctx;
  };

  const ringAudio = (): AudioContext | null => {
    if (!ringCtx) {
      ringCtx = newContext();
      if (ringCtx && ringSink) void route(ringCtx, ringSink);
    }
    if (ringCtx) wake(ringCtx);
    return ringCtx;
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

  const loop = (name: string, p: Pattern, on: boolean, context: () => AudioContext | null = audio) => {
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
    const c = context();
    if (!c) return;
    const sound = () => burst(c, p.frequencies, c.currentTime, p.onMs / 1000);
    const entry: { timer: ReturnType<typeof setInterval> | undefined; stopBurst: () => void } = { timer: undefined, stopBurst: sound() };
    entry.timer = setInterval(() => (entry.stopBurst = sound()), p.onMs + p.offMs);
    loops.set(name, entry as { timer: ReturnType<typeof setInterval>; stopBurst: () => void });
  };

  return {
    ring: (on) => loop('ring', RING, on, ringAudio),
    ringback: (on) => loop('ringback', RINGBACK, on),
    dtmf(digits) {
      const c = audio();
      if (!c) return;
      const t0 = c.currentTime;
      for (const slot of dtmfSchedule(digits)) burst(c, DTMF_FREQUENCIES[slot.key]!, t0 + slot.startMs / 1000, slot.durationMs / 1000);
    },
    setRingSink(deviceId) {
      ringSink = deviceId;
      if (ringCtx) void route(ringCtx, deviceId);
    },
    async test(deviceId) {
      const c = newContext();
      if (!c) return;
      try {
        if (deviceId) await c.setSinkId?.(deviceId);
        wake(c);
        burst(c, RING.frequencies, c.currentTime, TEST_TONE_MS / 1000);
        await new Promise((done) => setTimeout(done, TEST_TONE_MS));
      } finally {
        void c.close().catch(() => undefined);
      }
    },
    dispose() {
      for (const name of [...loops.keys()]) loop(name, RING, false);
      for (const c of [ctx, ringCtx]) void c?.close().catch(() => undefined);
      ctx = null;
      ringCtx = null;
    },
  };
}

let shared: Tones | null = null;
/** One player for the engine and the dialpad keys. */
export function tones(): Tones {
  shared ??= createTonePlayer();
  return shared;
}

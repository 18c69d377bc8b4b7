import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTonePlayer } from './tonePlayer';

/** Enough of WebAudio to see which context (and so which output) each tone is played on. */
class FakeContext {
  static made: FakeContext[] = [];
  state = 'running';
  currentTime = 0;
  destination = {};
  sinks: string[] = [];
  oscillators = 0;
  constructor() {
    FakeContext.made.push(this);
  }
  setSinkId = vi.fn(async (id: string) => void this.sinks.push(id));
  resume = vi.fn(async () => undefined);
  close = vi.fn(async () => undefined);
  createGain() {
    return { gain: { value: 0 }, connect: vi.fn(), disconnect: vi.fn() };
  }
  createOscillator() {
    this.oscillators++;
    return { frequency: { value: 0 }, connect: vi.fn(), start: vi.fn(), stop: vi.fn(), onended: null };
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  FakeContext.made = [];
});

describe('tone player outputs', () => {
  it('rings on the chosen ringer while the other tones stay on the system output; a new ringer moves a ringing phone', () => {
    vi.stubGlobal('window', { AudioContext: FakeContext });
    vi.useFakeTimers();
    const tones = createTonePlayer();
    tones.setRingSink('bell-1');
    tones.ring(true);
    const ring = FakeContext.made.find((c) => c.oscillators > 0)!;
    expect(ring.sinks).toEqual(['bell-1']);
    tones.dtmf('1');
    const dtmf = FakeContext.made.find((c) => c !== ring && c.oscillators > 0)!;
    expect(dtmf.setSinkId).not.toHaveBeenCalled();
    tones.setRingSink(null);
    expect(ring.sinks).toEqual(['bell-1', '']);
    tones.ring(false);
    tones.dispose();
  });

  it('the test tone plays on the output asked for, then closes its context', async () => {
    vi.stubGlobal('window', { AudioContext: FakeContext });
    vi.useFakeTimers();
    const tones = createTonePlayer();
    const done = tones.test('spk-2');
    await vi.runAllTimersAsync();
    await done;
    const c = FakeContext.made[0]!;
    expect(c.sinks).toEqual(['spk-2']);
    expect(c.oscillators).toBe(2);
    expect(c.close).toHaveBeenCalled();
  });
});

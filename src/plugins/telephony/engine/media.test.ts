// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRemoteAudio } from './audio';
import { createTonePlayer } from './tonePlayer';

class FakeOscillator {
  frequency = { value: 0 };
  started = -1;
  stopped = -1;
  onended: (() => void) | null = null;
  constructor(private readonly ctx: FakeAudioContext) {}
  connect() {}
  start(at: number) {
    this.started = at;
  }
  stop(at?: number) {
    this.stopped = at ?? this.ctx.currentTime;
  }
}

class FakeAudioContext {
  static last: FakeAudioContext;
  currentTime = 0;
  state = 'running';
  destination = {};
  oscillators: FakeOscillator[] = [];
  gains: Array<{ gain: { value: number } }> = [];
  constructor() {
    FakeAudioContext.last = this;
  }
  createOscillator() {
    const o = new FakeOscillator(this);
    this.oscillators.push(o);
    return o;
  }
  createGain() {
    const g = { gain: { value: 1 }, connect() {}, disconnect() {} };
    this.gains.push(g);
    return g;
  }
  resume = async () => undefined;
  close = async () => undefined;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('AudioContext', FakeAudioContext);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

const bursts = (ctx: FakeAudioContext) => ctx.oscillators.map((o) => [o.frequency.value, o.started]);

describe('tones (WebAudio)', () => {
  it('DTMF: dual frequencies, 125 ms tones 75 ms apart, gain 0.2', () => {
    createTonePlayer().dtmf('12#');
    const ctx = FakeAudioContext.last;
    expect(bursts(ctx)).toEqual([
      [697, 0], [1209, 0],
      [697, 0.2], [1336, 0.2],
      [941, 0.4], [1477, 0.4],
    ]);
    expect(ctx.oscillators.map((o) => Math.round((o.stopped - o.started) * 1000))).toEqual([125, 125, 125, 125, 125, 125]);
    expect(ctx.gains.map((g) => g.gain.value)).toEqual([0.2, 0.2, 0.2]);
  });

  it('the incoming ring loops (2 s on, 4 s off) until stopped', async () => {
    const tones = createTonePlayer();
    tones.ring(true);
    tones.ring(true);
    const ctx = FakeAudioContext.last;
    expect(ctx.oscillators).toHaveLength(2);
    expect(ctx.oscillators[0]!.stopped - ctx.oscillators[0]!.started).toBe(2);
    await vi.advanceTimersByTimeAsync(6000);
    expect(ctx.oscillators).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(6000);
    expect(ctx.oscillators).toHaveLength(6);
    ctx.currentTime = 12.5;
    tones.ring(false);
    expect(ctx.oscillators.slice(-2).map((o) => o.stopped)).toEqual([12.5, 12.5]);
    await vi.advanceTimersByTimeAsync(12_000);
    expect(ctx.oscillators).toHaveLength(6);
  });

  it('ring-back plays its own loop beside the ring', async () => {
    const tones = createTonePlayer();
    tones.ringback(true);
    const ctx = FakeAudioContext.last;
    expect(ctx.oscillators.map((o) => o.frequency.value)).toEqual([440, 480]);
    await vi.advanceTimersByTimeAsync(5999);
    expect(ctx.oscillators).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(ctx.oscillators).toHaveLength(4);
    tones.ringback(false);
    tones.dispose();
  });
});

describe('remote audio', () => {
  it('one autoplaying element per call, fed by its remote track, removed with the call', () => {
    class FakeStream {
      constructor(readonly tracks: unknown[]) {}
    }
    vi.stubGlobal('MediaStream', FakeStream);
    HTMLMediaElement.prototype.play = vi.fn(async () => undefined);
    const listeners: Array<(e: unknown) => void> = [];
    const pc = { addEventListener: (_: string, l: (e: unknown) => void) => listeners.push(l), getReceivers: () => [] } as unknown as RTCPeerConnection;
    const audio = createRemoteAudio(document);
    audio.attach('c1', pc);
    const el = document.querySelector<HTMLAudioElement>('audio[data-call="c1"]')!;
    expect(el.autoplay).toBe(true);
    const stream = new FakeStream([]);
    listeners[0]!({ streams: [stream], track: {} });
    expect(el.srcObject).toBe(stream);
    audio.detach('c1');
    expect(document.querySelector('audio')).toBeNull();
  });
});

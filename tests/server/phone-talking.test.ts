import { describe, expect, it } from 'vitest';
import { phoneChanges } from '../../server/meetings/phone-changes';
import { LOUD_LEVEL, QUIET_WINDOWS, rtpPayload, TalkDetector, ulawLevel, WINDOW_PACKETS } from '../../server/meetings/phone-talking';

/** µ-law of a 16-bit sample (the encoder G.711 describes; the meter only decodes). */
function ulaw(sample: number): number {
  const sign = sample < 0 ? 0x80 : 0;
  let s = Math.min(32635, Math.abs(sample)) + 0x84;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  s = ~(sign | (exponent << 4) | mantissa) & 0xff;
  return s;
}
/** 20 ms of a 440 Hz tone at 8 kHz with that peak, as µ-law. */
const tone = (peak: number) => Uint8Array.from({ length: 160 }, (_, i) => ulaw(Math.round(peak * Math.sin((2 * Math.PI * 440 * i) / 8000))));

describe("a phone's level (RFC 6464's -dBov) from its µ-law", () => {
  it('a tone at 8000 of 32768 (as the tests\' phones play) is about -15 dBov; digital silence is 127; full scale is near 3', () => {
    expect(ulawLevel(tone(8000))).toBeGreaterThanOrEqual(14);
    expect(ulawLevel(tone(8000))).toBeLessThanOrEqual(16);
    expect(ulawLevel(new Uint8Array(160).fill(0xff))).toBe(127);
    expect(ulawLevel(tone(32000))).toBeLessThanOrEqual(4);
    expect(ulawLevel(tone(100))).toBeGreaterThan(LOUD_LEVEL);
  });

  it('reads the payload past CSRCs, a header extension and padding', () => {
    const payload = Buffer.from([1, 2, 3]);
    const plain = Buffer.concat([Buffer.from([0x80, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 9]), payload]);
    expect(rtpPayload(plain)).toEqual(payload);
    const ext = Buffer.concat([Buffer.from([0x91, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 7]), Buffer.from([0xbe, 0xde, 0, 1, 0x10, 0x20, 0, 0]), payload, Buffer.from([0, 2])]);
    expect(ext[0]! & 0x20).toBe(0);
    ext[0]! |= 0x20;
    expect(rtpPayload(ext)).toEqual(payload);
    expect(rtpPayload(Buffer.from([0x40, 0]))).toBeNull();
  });
});

describe('talking, decided from the levels', () => {
  it('on after one loud window, off after QUIET_WINDOWS quiet ones (a pause between words does not flicker), each change told once', () => {
    const changes: boolean[] = [];
    const d = new TalkDetector((t) => changes.push(t));
    const run = (level: number, windows: number) => {
      for (let i = 0; i < windows * WINDOW_PACKETS; i++) d.push(level);
    };
    run(127, 3);
    expect(changes).toEqual([]);
    run(15, 1);
    expect(changes).toEqual([true]);
    run(15, 3);
    run(127, QUIET_WINDOWS - 1);
    expect(d.talking).toBe(true);
    run(15, 1);
    run(127, QUIET_WINDOWS);
    expect(changes).toEqual([true, false]);
    run(15, 1);
    d.reset();
    expect(changes).toEqual([true, false, true, false]);
  });
});

describe("the meeting's phones' state, waited on", () => {
  it('a read with the current state waits for the next change; another state, or a change meanwhile, answers at once', async () => {
    const c = phoneChanges();
    const before = c.state(7);
    let woke = false;
    const waiting = c.after(7, before, 60_000).then(() => (woke = true));
    c.changed(8);
    await Promise.resolve();
    expect(woke).toBe(false);
    c.changed(7);
    await waiting;
    expect(c.state(7)).not.toBe(before);
    await c.after(7, before, 60_000);
    const gone = new AbortController();
    const aborted = c.after(7, c.state(7), 60_000, gone.signal);
    gone.abort();
    await aborted;
    const start = Date.now();
    await c.after(9, c.state(9), 30);
    expect(Date.now() - start).toBeGreaterThanOrEqual(25);
  });
});

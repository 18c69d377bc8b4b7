import { describe, expect, it } from 'vitest';
import { pcm16Wav } from '../media/wav';
import { checkRecordedName } from './find-me-name';

const tone = (seconds: number, rate = 8000) => pcm16Wav(new Float32Array(Math.round(seconds * rate)).fill(0.1), rate);

describe("find-me's recorded name", () => {
  it('takes 16-bit PCM WAV of 0.3 to 6 s, and says why not otherwise', () => {
    expect(checkRecordedName(tone(1.5))).toEqual({ durationMs: 1500 });
    expect(checkRecordedName(tone(1, 48_000))).toEqual({ durationMs: 1000 });
    expect(checkRecordedName(tone(0.2))).toEqual({ problem: 'too_short' });
    expect(checkRecordedName(tone(7))).toEqual({ problem: 'too_long' });
    expect(checkRecordedName(Buffer.from('OggS not a wav'))).toEqual({ problem: 'not_wav' });
  });
});

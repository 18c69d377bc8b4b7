import { describe, expect, it } from 'vitest';
import { audioConstraints, DEFAULT_AUDIO, parseAudioChoice } from './audioConstraints';

describe('audio constraints', () => {
  it('state both kinds of processing, on or off, and the device only when one was chosen', () => {
    expect(audioConstraints(DEFAULT_AUDIO)).toEqual({ echoCancellation: true, noiseSuppression: true });
    expect(audioConstraints({ input: 'mic-1', echoCancellation: false, noiseSuppression: true })).toEqual({ deviceId: { exact: 'mic-1' }, echoCancellation: false, noiseSuppression: true });
    expect(audioConstraints({ input: null, echoCancellation: true, noiseSuppression: false })).toEqual({ echoCancellation: true, noiseSuppression: false });
  });

  it('a remembered choice of an older version (microphone and speaker only) or a broken one reads as the defaults', () => {
    expect(parseAudioChoice({ input: 'mic', output: 'spk' })).toEqual({ ...DEFAULT_AUDIO, input: 'mic', output: 'spk' });
    expect(parseAudioChoice(null)).toEqual(DEFAULT_AUDIO);
    expect(parseAudioChoice({ input: 3, ring: '', echoCancellation: 'no', noiseSuppression: false })).toEqual({ ...DEFAULT_AUDIO, noiseSuppression: false });
  });
});

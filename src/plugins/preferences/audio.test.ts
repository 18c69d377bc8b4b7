import { describe, expect, it } from 'vitest';
import type { AudioChoice } from '../../contracts';
import { audioChange, devicesOf, meterLevel, pendingChange, shownDevice, testFigures } from './audio';

const dev = (deviceId: string, kind: MediaDeviceKind, label = '') => ({ deviceId, kind, label });

describe('audio panel', () => {
  it('lists the real devices of a kind, without the virtual default entries', () => {
    const all = [dev('default', 'audioinput', 'Default'), dev('m1', 'audioinput', 'Mic 1'), dev('communications', 'audiooutput'), dev('s1', 'audiooutput', 'Speaker'), dev('', 'audioinput')];
    expect(devicesOf(all, 'audioinput')).toEqual([{ id: 'm1', label: 'Mic 1' }]);
    expect(devicesOf(all, 'audiooutput')).toEqual([{ id: 's1', label: 'Speaker' }]);
  });

  it('shows an unplugged chosen device as the system default', () => {
    expect(shownDevice('m1', [{ id: 'm1', label: '' }])).toBe('m1');
    expect(shownDevice('gone', [{ id: 'm1', label: '' }])).toBeNull();
    expect(shownDevice(null, [])).toBeNull();
  });

  it('meter: silence is 0, full scale 100, speech-like levels in between, monotonic', () => {
    expect(meterLevel([])).toBe(0);
    expect(meterLevel(new Float32Array(128))).toBe(0);
    expect(meterLevel(new Float32Array(128).fill(1))).toBe(100);
    const at = (a: number) => meterLevel(new Float32Array(128).fill(a));
    expect(at(0.001)).toBe(0); // -60 dBFS
    expect(at(0.03)).toBeGreaterThan(30);
    expect(at(0.03)).toBeLessThan(at(0.3));
  });

  it('saves only what changed', () => {
    const saved: AudioChoice = { input: null, output: null, ring: null, echoCancellation: true, noiseSuppression: true };
    expect(audioChange(saved, saved)).toEqual({});
    expect(audioChange(saved, { ...saved, ring: 'bell', noiseSuppression: false })).toEqual({ ring: 'bell', noiseSuppression: false });
  });

  it('an unplugged saved device alone leaves nothing unsaved; what the user changes is saved', () => {
    const saved: AudioChoice = { input: 'gone', output: 's1', ring: null, echoCancellation: true, noiseSuppression: true };
    const inputs = [{ id: 'm1', label: '' }];
    const outputs = [{ id: 's1', label: '' }];
    expect(pendingChange(saved, saved, inputs, outputs)).toEqual({});
    expect(pendingChange(saved, { ...saved, ring: 's1' }, inputs, outputs)).toEqual({ ring: 's1' });
    expect(pendingChange(saved, { ...saved, input: 'm1' }, inputs, outputs)).toEqual({ input: 'm1' });
  });

  it('test figures: rounded, the RTT named by its source, unmeasured ones left out', () => {
    expect(testFigures({ rttMs: 123.4, rttSource: 'echo', jitterMs: 2.6, lossPct: 0.04, micLevel: 0.321, verdict: 'good' })).toEqual([
      { key: 'rtt', value: 123 },
      { key: 'jitter', value: 3 },
      { key: 'loss', value: 0 },
      { key: 'micLevel', value: 32 },
    ]);
    expect(testFigures({ rttMs: 40, rttSource: 'network', jitterMs: null, lossPct: null, micLevel: 0, verdict: 'good' })).toEqual([
      { key: 'rttNetwork', value: 40 },
      { key: 'micLevel', value: 0 },
    ]);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { phone } from '../state';
import { ANSWER_TIMEOUT_MS, MEASURE_MS } from './connectionTest';
import type { PhoneEngine } from './PhoneEngine';
import type { FakeSession, Harness } from './test-fakes';
import { engineTests, flush } from './test-engine';

let h: Harness;
let engine: PhoneEngine;
const started = engineTests((s) => ({ h, engine } = s));

/** A microphone whose one track records being stopped. */
function microphone() {
  const track = { kind: 'audio', stop: vi.fn() };
  return { track, stream: { getAudioTracks: () => [track], getTracks: () => [track] } as unknown as MediaStream };
}

/** A peer connection whose statistics grow by 50 packets a sample, 1 lost in 100, RTT 12 ms, jitter 3 ms. */
function peerConnection(packetsPerSample = 50) {
  let samples = 0;
  return {
    getReceivers: () => [],
    getStats: async () => {
      samples++;
      const rows = [
        { type: 'transport', id: 'T', selectedCandidatePairId: 'P' },
        { type: 'candidate-pair', id: 'P', state: 'succeeded', nominated: true, currentRoundTripTime: 0.012 },
        { type: 'inbound-rtp', kind: 'audio', packetsReceived: samples * packetsPerSample, packetsLost: Math.floor((samples * packetsPerSample) / 100), jitter: 0.003 },
      ];
      return { forEach: (f: (r: unknown) => void) => rows.forEach(f) };
    },
  } as unknown as RTCPeerConnection;
}

/** Starts a test and answers its call to the echo number with `pc`. */
async function answeredTest(pc: RTCPeerConnection) {
  const running = engine.testConnection();
  await flush();
  const session = h.ua().sessions.at(-1) as FakeSession;
  session.connection = pc;
  session.emit('confirmed', {});
  await vi.advanceTimersByTimeAsync(MEASURE_MS + 100);
  return { outcome: await running, session };
}

describe('Test connection', () => {
  it('calls *43 without a call in the dock, measures, hangs up and frees the microphone', async () => {
    const mic = microphone();
    await started({ getUserMedia: async () => mic.stream });
    const progress = vi.fn();
    const running = engine.testConnection(progress);
    await flush();
    expect(h.ua().call).toHaveBeenCalledWith('sip:*43@uc.local', expect.objectContaining({ mediaStream: mic.stream }));
    expect(Object.keys(phone.calls)).toEqual([]);
    const session = h.ua().sessions[0]!;
    session.connection = peerConnection();
    session.emit('confirmed', {});
    await vi.advanceTimersByTimeAsync(MEASURE_MS + 100);
    const outcome = await running;
    // 17 samples of 50 packets: 800 more received and 8 more lost after the first one. No WebAudio
    // here, so no echo to time: the RTT is the ICE pair's.
    expect(outcome).toEqual({ ok: true, result: { rttMs: 12, rttSource: 'network', jitterMs: 3, lossPct: expect.closeTo((100 * 8) / 808, 6), micLevel: 0, verdict: 'good' } });
    expect(session.terminate).toHaveBeenCalled();
    expect(mic.track.stop).toHaveBeenCalled();
    expect(progress).toHaveBeenCalledWith({ phase: 'calling', fraction: 0 });
    expect(progress).toHaveBeenLastCalledWith({ phase: 'measuring', fraction: 1 });
    expect(Object.keys(phone.calls)).toEqual([]);
  });

  it('does not run while another window has the phone', async () => {
    await started({ getUserMedia: async () => microphone().stream }, false);
    expect(await engine.testConnection()).toEqual({ ok: false, reason: 'elsewhere' });
  });

  it('refuses while a call is in progress', async () => {
    await started({ getUserMedia: async () => microphone().stream });
    await engine.call('1002');
    expect(await engine.testConnection()).toEqual({ ok: false, reason: 'busy' });
    expect(h.ua().call).toHaveBeenCalledTimes(1);
  });

  it('a denied microphone is noMicrophone, and nothing is dialled', async () => {
    await started({ getUserMedia: async () => Promise.reject(new DOMException('denied', 'NotAllowedError')) });
    expect(await engine.testConnection()).toEqual({ ok: false, reason: 'noMicrophone' });
    expect(h.ua().call).not.toHaveBeenCalled();
  });

  it('a stream without an audio track is no microphone either', async () => {
    await started({ getUserMedia: async () => ({ getAudioTracks: () => [], getTracks: () => [] }) as unknown as MediaStream });
    expect(await engine.testConnection()).toEqual({ ok: false, reason: 'noMicrophone' });
  });

  it('the echo number not answering (failed, or silent for the timeout) is noAnswer', async () => {
    await started({ getUserMedia: async () => microphone().stream });
    const first = engine.testConnection();
    await flush();
    h.ua().sessions[0]!.end('failed', 'remote', 'Not Found');
    expect(await first).toEqual({ ok: false, reason: 'noAnswer' });
    const second = engine.testConnection();
    await flush();
    await vi.advanceTimersByTimeAsync(ANSWER_TIMEOUT_MS);
    expect(await second).toEqual({ ok: false, reason: 'noAnswer' });
    expect(h.ua().sessions[1]!.terminate).toHaveBeenCalled();
  });

  it('answered but no audio came back is noEcho', async () => {
    await started({ getUserMedia: async () => microphone().stream });
    const { outcome, session } = await answeredTest(peerConnection(0));
    expect(outcome).toEqual({ ok: false, reason: 'noEcho' });
    expect(session.terminate).toHaveBeenCalled();
  });
});

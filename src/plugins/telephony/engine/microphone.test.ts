import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_AUDIO } from '../model/audioConstraints';
import { ENDED_CALL_LINGER_MS } from '../model/callState';
import { phone } from '../state';
import { CALL_OPTIONS, RING_MIC_DELAY_MS, WARM_MIC_MS } from './microphone';
import type { PhoneEngine } from './PhoneEngine';
import type { Harness } from './test-fakes';
import { calls, engineTests } from './test-engine';

let h: Harness;
let engine: PhoneEngine;

const started = engineTests((s) => ({ h, engine } = s));
const PROCESSING = { echoCancellation: true, noiseSuppression: true };

describe('audio devices', () => {
  function fakeSender(enabled = true) {
    const old = { kind: 'audio', enabled, stop: vi.fn() };
    return { track: old as unknown as MediaStreamTrack, replaceTrack: vi.fn(async function (this: { track: unknown }, t: unknown) { this.track = t; }), old };
  }

  it('a remembered microphone is used for new calls, and a remembered speaker at once', async () => {
    const saved = { ...DEFAULT_AUDIO, input: 'mic-2', output: 'spk-2' };
    await started({ devices: { load: () => saved, save: vi.fn() } });
    expect(h.deps.audio.setSink).toHaveBeenCalledWith('spk-2');
    await engine.call('1002');
    expect(h.ua().call).toHaveBeenCalledWith('sip:1002@uc.local', expect.objectContaining({ mediaConstraints: { audio: { deviceId: { exact: 'mic-2' }, ...PROCESSING }, video: false } }));
  });

  it('switching the microphone mid-call replaces the sending track (no renegotiation), keeps mute, and is remembered', async () => {
    const save = vi.fn();
    const newTrack = { kind: 'audio', enabled: true, stop: vi.fn() };
    const getUserMedia = vi.fn(async () => ({ getAudioTracks: () => [newTrack], getTracks: () => [newTrack] }) as unknown as MediaStream);
    await started({ devices: { load: () => ({ ...DEFAULT_AUDIO }), save }, getUserMedia });
    await engine.call('1002');
    const s = h.ua().sessions[0]!;
    const sender = fakeSender(false); // muted
    s.connection = { getSenders: () => [sender] } as unknown as RTCPeerConnection;
    s.emit('accepted', { originator: 'remote' });
    expect(await engine.setInputDevice('mic-3')).toBe(true);
    expect(getUserMedia).toHaveBeenCalledWith({ audio: { deviceId: { exact: 'mic-3' }, ...PROCESSING }, video: false });
    expect(sender.replaceTrack).toHaveBeenCalledWith(newTrack);
    expect(sender.old.stop).toHaveBeenCalled();
    expect(newTrack.enabled).toBe(false);
    expect(s.terminate).not.toHaveBeenCalled();
    expect(save).toHaveBeenLastCalledWith({ ...DEFAULT_AUDIO, input: 'mic-3' });
    expect(phone.devices.input).toBe('mic-3');
  });

  it('a microphone that cannot be opened says so and leaves the call as it was', async () => {
    let broken = false;
    const track = { kind: 'audio', enabled: true, stop: vi.fn() };
    const getUserMedia = vi.fn(async () => {
      if (broken) throw new DOMException('Could not start audio source', 'NotReadableError');
      return { getAudioTracks: () => [track], getTracks: () => [track] } as unknown as MediaStream;
    });
    await started({ getUserMedia });
    await engine.call('1002');
    broken = true;
    const s = h.ua().sessions[0]!;
    const sender = fakeSender();
    s.connection = { getSenders: () => [sender] } as unknown as RTCPeerConnection;
    s.emit('accepted', { originator: 'remote' });
    expect(await engine.setInputDevice('broken')).toBe(false);
    expect(sender.replaceTrack).not.toHaveBeenCalled();
    expect(h.toasts.at(-1)).toMatchObject({ tone: 'error', messageKey: 'telephony:errors.microphoneFailed' });
  });

  it('switching the speaker moves every call to it and is remembered', async () => {
    const save = vi.fn();
    await started({ devices: { load: () => ({ ...DEFAULT_AUDIO }), save } });
    engine.setOutputDevice('spk-9');
    expect(h.deps.audio.setSink).toHaveBeenLastCalledWith('spk-9');
    expect(save).toHaveBeenLastCalledWith({ ...DEFAULT_AUDIO, output: 'spk-9' });
  });
});

describe('Preferences ▸ Audio', () => {
  it('a remembered ringer is routed at start; a new one, speaker or processing is applied at once and remembered', async () => {
    const save = vi.fn();
    await started({ devices: { load: () => ({ ...DEFAULT_AUDIO, ring: 'bell-1' }), save } });
    expect(h.deps.tones.setRingSink).toHaveBeenCalledWith('bell-1');
    expect(await engine.setAudio({ ring: 'bell-2', output: 'spk-3', noiseSuppression: false })).toBe(true);
    expect(h.deps.tones.setRingSink).toHaveBeenLastCalledWith('bell-2');
    expect(h.deps.audio.setSink).toHaveBeenLastCalledWith('spk-3');
    expect(save).toHaveBeenLastCalledWith({ ...DEFAULT_AUDIO, ring: 'bell-2', output: 'spk-3', noiseSuppression: false });
  });

  it('switching processing off reopens the microphone of the call in progress without it, and the next calls ask for it off', async () => {
    const newTrack = { kind: 'audio', enabled: true, stop: vi.fn() };
    const getUserMedia = vi.fn(async () => ({ getAudioTracks: () => [newTrack], getTracks: () => [newTrack] }) as unknown as MediaStream);
    await started({ getUserMedia });
    await engine.call('1002');
    const s = h.ua().sessions[0]!;
    const old = { kind: 'audio', enabled: true, stop: vi.fn() };
    const sender = { track: old as unknown as MediaStreamTrack, replaceTrack: vi.fn(async () => undefined) };
    s.connection = { getSenders: () => [sender] } as unknown as RTCPeerConnection;
    s.emit('accepted', { originator: 'remote' });
    expect(await engine.setAudio({ echoCancellation: false })).toBe(true);
    expect(getUserMedia).toHaveBeenLastCalledWith({ audio: { echoCancellation: false, noiseSuppression: true }, video: false });
    expect(sender.replaceTrack).toHaveBeenCalledWith(newTrack);
    expect(old.stop).toHaveBeenCalled();
    s.end('ended', 'remote', 'Terminated');
    await vi.advanceTimersByTimeAsync(ENDED_CALL_LINGER_MS);
    await engine.call('1003');
    expect(getUserMedia).toHaveBeenLastCalledWith({ audio: { echoCancellation: false, noiseSuppression: true }, video: false });
  });

  it('changing only an output opens no microphone', async () => {
    const getUserMedia = vi.fn(async () => ({ getAudioTracks: () => [], getTracks: () => [] }) as unknown as MediaStream);
    await started({ getUserMedia });
    await engine.setAudio({ output: 'spk-1', ring: 'bell-1' });
    expect(getUserMedia).not.toHaveBeenCalled();
  });
});

describe('the microphone of an outgoing call', () => {
  it('is opened before the call is set up, handed to JsSIP, and stopped when the call ends', async () => {
    const track = { kind: 'audio', enabled: true, stop: vi.fn() };
    const stream = { getAudioTracks: () => [track], getTracks: () => [track] } as unknown as MediaStream;
    const getUserMedia = vi.fn(async () => stream);
    await started({ getUserMedia });
    await engine.call('1002');
    expect(getUserMedia).toHaveBeenCalledWith({ audio: PROCESSING, video: false });
    expect(h.ua().call).toHaveBeenCalledWith('sip:1002@uc.local', { ...CALL_OPTIONS, mediaStream: stream });
    h.ua().sessions[0]!.end('ended', 'remote', 'Terminated');
    expect(track.stop).toHaveBeenCalled();
  });

  it('opened while the user dials: the call uses it (no second getUserMedia); unused, it is closed after WARM_MIC_MS', async () => {
    const track = { kind: 'audio', enabled: true, readyState: 'live', stop: vi.fn() };
    const stream = { getAudioTracks: () => [track], getTracks: () => [track] } as unknown as MediaStream;
    const getUserMedia = vi.fn(async () => stream);
    await started({ getUserMedia });
    engine.warmMicrophone();
    engine.warmMicrophone();
    expect(getUserMedia).toHaveBeenCalledTimes(1);
    await engine.call('1002');
    expect(getUserMedia).toHaveBeenCalledTimes(1);
    expect(h.ua().call).toHaveBeenCalledWith('sip:1002@uc.local', { ...CALL_OPTIONS, mediaStream: stream });
    // During a call, typing (DTMF, a transfer target) opens nothing more.
    engine.warmMicrophone();
    expect(getUserMedia).toHaveBeenCalledTimes(1);
    h.ua().sessions[0]!.end('ended', 'remote', 'Terminated');
    expect(track.stop).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(ENDED_CALL_LINGER_MS);

    engine.warmMicrophone();
    expect(getUserMedia).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(WARM_MIC_MS);
    expect(track.stop).toHaveBeenCalledTimes(2);
  });

  it('refused: says so (DEVICE_DENIED / PLEASE_RELOAD) and places no call', async () => {
    const getUserMedia = vi.fn(async () => {
      throw new DOMException('Permission denied', 'NotAllowedError');
    });
    await started({ getUserMedia });
    await engine.call('1002');
    expect(h.ua().call).not.toHaveBeenCalled();
    expect(h.toasts.at(-1)).toMatchObject({ titleKey: 'telephony:errors.deviceDenied', messageKey: 'telephony:errors.pleaseReload' });
    expect(calls()).toHaveLength(0);
  });
});

describe('the microphone of an incoming call', () => {
  const liveStream = () => {
    const track = { kind: 'audio', enabled: true, readyState: 'live', stop: vi.fn() };
    return { track, stream: { getAudioTracks: () => [track], getTracks: () => [track] } as unknown as MediaStream };
  };

  it('opens while the call rings (once the ring has started); the answer uses it (no getUserMedia of its own) and the end of the call stops it', async () => {
    const { track, stream } = liveStream();
    const getUserMedia = vi.fn(async () => stream);
    await started({ getUserMedia });
    const s = h.ua().ring('1003');
    expect(getUserMedia).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(RING_MIC_DELAY_MS);
    expect(getUserMedia).toHaveBeenCalledTimes(1);
    expect(getUserMedia).toHaveBeenCalledWith({ audio: PROCESSING, video: false });
    expect(engine.accept()).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(s.answer).toHaveBeenCalledWith({ ...CALL_OPTIONS, mediaStream: stream });
    expect(track.stop).not.toHaveBeenCalled();
    s.end('ended', 'remote', 'Terminated');
    expect(track.stop).toHaveBeenCalledTimes(1);
  });

  it('a call that is not answered closes it, and one that rings during another call opens none', async () => {
    const { track, stream } = liveStream();
    const getUserMedia = vi.fn(async () => stream);
    await started({ getUserMedia });
    const first = h.ua().ring('1003');
    await vi.advanceTimersByTimeAsync(RING_MIC_DELAY_MS);
    first.end('failed', 'remote', 'Canceled');
    await vi.advanceTimersByTimeAsync(0);
    expect(track.stop).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(ENDED_CALL_LINGER_MS);

    await engine.call('1002');
    h.ua().sessions[0]!.emit('accepted', { originator: 'remote' });
    const calledBefore = getUserMedia.mock.calls.length;
    h.ua().ring('1004');
    await vi.advanceTimersByTimeAsync(RING_MIC_DELAY_MS);
    expect(getUserMedia).toHaveBeenCalledTimes(calledBefore);
  });

  it('answered before it was due to open, the answer opens it as it always did, and none opens later', async () => {
    const { stream } = liveStream();
    const getUserMedia = vi.fn(async () => stream);
    await started({ getUserMedia });
    const s = h.ua().ring('1003');
    engine.accept();
    expect(s.answer).toHaveBeenCalledWith(CALL_OPTIONS);
    await vi.advanceTimersByTimeAsync(RING_MIC_DELAY_MS);
    expect(getUserMedia).not.toHaveBeenCalled();
  });

  it('answered with no microphone opened ahead (it failed), JsSIP opens one as before', async () => {
    const getUserMedia = vi.fn(async () => {
      throw new DOMException('Could not start audio source', 'NotReadableError');
    });
    await started({ getUserMedia });
    const s = h.ua().ring('1003');
    await vi.advanceTimersByTimeAsync(RING_MIC_DELAY_MS);
    engine.accept();
    await vi.advanceTimersByTimeAsync(0);
    expect(s.answer).toHaveBeenCalledWith(CALL_OPTIONS);
  });
});

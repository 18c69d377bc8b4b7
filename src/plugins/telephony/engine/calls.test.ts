import { describe, expect, it, vi } from 'vitest';
import { ENDED_CALL_LINGER_MS } from '../model/callState';
import type { PhoneEngine } from './PhoneEngine';
import type { Harness } from './test-fakes';
import { calls, engineTests, only } from './test-engine';

let h: Harness;
let engine: PhoneEngine;

const started = engineTests((s) => ({ h, engine } = s));

describe('incoming calls', () => {
  it('ring, are announced assertively with the contact name, and are answered', async () => {
    await started();
    const s = h.ua().ring('1002', 'B. M.');
    expect(only()).toMatchObject({ state: 'incoming', direction: 'incoming', number: '1002', displayName: 'Bob Martinez' });
    expect(h.tones.ring).toBe(true);
    expect(h.announcements).toContainEqual(['telephony:announce.incoming {"name":"Bob Martinez"}', 'assertive']);
    expect(engine.accept()).toBe(true);
    expect(s.answer).toHaveBeenCalledWith({ mediaConstraints: { audio: { echoCancellation: true, noiseSuppression: true }, video: false }, pcConfig: { iceServers: [], rtcpMuxPolicy: 'require' } });
    expect(only().state).toBe('answering');
    expect(h.tones.ring).toBe(false);
    s.emit('accepted', { originator: 'local' });
    expect(only().state).toBe('answering');
    s.emit('confirmed', { originator: 'remote' });
    expect(only().state).toBe('active');
  });

  it('an unknown caller shows the SIP display name, else the number', async () => {
    await started();
    h.ua().ring('5551234', 'Front desk');
    expect(only().displayName).toBe('Front desk');
  });

  it('answering while another call is active holds that one first', async () => {
    await started();
    await engine.call('1003');
    const first = h.ua().sessions[0]!;
    first.emit('accepted', {});
    const ringing = h.ua().ring('1002');
    engine.accept();
    expect(first.calls).toEqual(['hold']);
    expect(ringing.calls).toEqual(['answer']);
    expect(calls().map((c) => c.state).sort()).toEqual(['answering', 'hold']);
  });

  it('end-and-accept ends the active call instead', async () => {
    await started();
    await engine.call('1003');
    const first = h.ua().sessions[0]!;
    first.emit('accepted', {});
    const ringing = h.ua().ring('1002');
    engine.itemAction(calls().find((c) => c.state === 'incoming')!.id, 'endAndAccept');
    expect(first.calls).toEqual(['terminate']);
    expect(ringing.calls).toEqual(['answer']);
  });

  it('are rejected with 486 while the user is in do-not-disturb', async () => {
    await started({ presence: () => 'donotdisturb' });
    const s = h.ua().ring('1002');
    expect(s.terminate).toHaveBeenCalledWith({ status_code: 486, reason_phrase: 'Busy Here' });
    expect(calls()).toHaveLength(0);
    expect(h.tones.ring).toBe(false);
  });

  it('decline answers 603 and the record lingers as Declined', async () => {
    await started();
    const s = h.ua().ring('1002');
    expect(engine.decline()).toBe(true);
    expect(s.terminate).toHaveBeenCalledWith({ status_code: 603, reason_phrase: 'Decline' });
    s.end('failed', 'local', 'Rejected');
    expect(only()).toMatchObject({ state: 'none', ended: 'declined' });
    expect(h.toasts).toHaveLength(0);
  });

  it('presence says "on call" from dialling until the call is over, and a cancelled call (487) resets it', async () => {
    const onCall: boolean[] = [];
    await started({ setOnCall: (v: boolean) => onCall.push(v) });
    await engine.call('1003');
    expect(onCall).toEqual([true]);
    h.ua().sessions[0]!.end('failed', 'remote', 'Canceled');
    expect(onCall).toEqual([true, false]);
    await engine.call('1003');
    const s = h.ua().sessions[1]!;
    s.emit('accepted', {});
    s.emit('confirmed', {});
    expect(onCall).toEqual([true, false, true]);
    s.end('ended', 'remote', 'Terminated');
    expect(onCall).toEqual([true, false, true, false]);
  });

  it('a caller who gives up leaves a missed call, not an error', async () => {
    await started();
    h.ua().ring('1002').end('failed', 'remote', 'Canceled');
    expect(only()).toMatchObject({ state: 'none', ended: 'missed' });
    expect(h.toasts).toHaveLength(0);
    expect(h.announcements.at(-1)![0]).toContain('telephony:announce.missed');
  });
});

describe('in-call controls', () => {
  async function connected() {
    await started();
    await engine.call('1002');
    const s = h.ua().sessions[0]!;
    s.emit('accepted', {});
    return s;
  }

  it('hold and resume follow the state machine', async () => {
    const s = await connected();
    engine.toggleHold();
    expect(only()).toMatchObject({ state: 'hold', held: true });
    engine.toggleHold();
    expect(only()).toMatchObject({ state: 'active', held: false });
    expect(s.calls).toEqual(['hold', 'unhold']);
    // A hold by the far end is not ours.
    s.emit('hold', { originator: 'remote' });
    expect(only().state).toBe('active');
  });

  it('mute and unmute', async () => {
    const s = await connected();
    engine.toggleMute();
    expect(only().muted).toBe(true);
    engine.toggleMute();
    expect(only().muted).toBe(false);
    expect(s.mute).toHaveBeenCalledWith({ audio: true });
  });

  it('DTMF: only digits, * and #, as 125 ms tones with 75 ms gaps, in the audio stream when possible', async () => {
    const s = await connected();
    const dtmf = { canInsertDTMF: true };
    s.connection = { getSenders: () => [{ track: { kind: 'audio' }, dtmf }] } as unknown as RTCPeerConnection;
    expect(engine.sendDtmf('1a2#,')).toBe(true);
    expect(s.sendDTMF).toHaveBeenCalledWith('12#', { duration: 125, interToneGap: 75, transportType: 'RFC2833' });
    expect(h.tones.dtmf).toEqual(['12#']);
    expect(engine.sendDtmf('abc')).toBe(false);
    dtmf.canInsertDTMF = false;
    engine.sendDtmf('5');
    expect(s.sendDTMF).toHaveBeenLastCalledWith('5', expect.objectContaining({ transportType: 'INFO' }));
  });

  it('swap holds the active call and resumes the held one', async () => {
    const a = await connected();
    engine.toggleHold();
    await engine.call('1003');
    const b = h.ua().sessions[1]!;
    b.emit('accepted', {});
    const held = calls().find((c) => c.state === 'hold')!;
    engine.itemAction(held.id, 'swap');
    expect(b.calls).toEqual(['hold']);
    expect(a.calls).toEqual(['hold', 'unhold']);
  });

  it('a bye ends the call: Call ended for 3 s, remote audio released', async () => {
    const s = await connected();
    const id = only().id;
    s.end('ended', 'remote', 'Terminated');
    expect(only()).toMatchObject({ state: 'none', ended: 'ended', held: false });
    expect(h.deps.audio.detach).toHaveBeenCalledWith(id);
    await vi.advanceTimersByTimeAsync(ENDED_CALL_LINGER_MS);
    expect(calls()).toHaveLength(0);
  });
});

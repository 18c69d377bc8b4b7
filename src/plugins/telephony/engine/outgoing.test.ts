import { describe, expect, it, vi } from 'vitest';
import { ENDED_CALL_LINGER_MS } from '../model/callState';
import { phone } from '../state';
import type { PhoneEngine } from './PhoneEngine';
import type { Harness } from './test-fakes';
import { calls, engineTests, only } from './test-engine';

let h: Harness;
let engine: PhoneEngine;

const started = engineTests((s) => ({ h, engine } = s));

describe('outgoing calls', () => {
  it('sanitises the dial string, plays ring-back, and sends the digits after the commas once answered', async () => {
    await started();
    const ua = h.ua();
    await engine.call('+1 (800) 555-1234,,1,42');
    expect(ua.call).toHaveBeenCalledWith('sip:18005551234@uc.local', { mediaConstraints: { audio: { echoCancellation: true, noiseSuppression: true }, video: false }, pcConfig: { iceServers: [], rtcpMuxPolicy: 'require' } });
    const c = only();
    expect(c).toMatchObject({ state: 'outgoing', direction: 'outgoing', number: '18005551234', held: false, muted: false, mergedWith: null, startedAt: null });
    expect(h.tones.ringback).toBe(true);
    expect(phone.lastDialled).toBe('18005551234,,1,42');

    const s = ua.sessions[0]!;
    s.emit('accepted', { originator: 'remote' });
    expect(only()).toMatchObject({ state: 'active', startedAt: Date.now() });
    expect(h.tones.ringback).toBe(false);
    await vi.advanceTimersByTimeAsync(3_999);
    expect(s.sendDTMF).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(s.sendDTMF).toHaveBeenLastCalledWith('1', { duration: 125, interToneGap: 75, transportType: 'INFO' });
    await vi.advanceTimersByTimeAsync(2000);
    expect(s.sendDTMF).toHaveBeenLastCalledWith('42', { duration: 125, interToneGap: 75, transportType: 'INFO' });
  });

  it('stops its ring-back when the far end sends early media (a 183 with SDP: find-me announcements), still ringing', async () => {
    await started();
    await engine.call('1002');
    const s = h.ua().sessions[0]!;
    s.emit('progress', { originator: 'remote', response: { status_code: 180 } });
    expect(h.tones.ringback).toBe(true);
    s.emit('progress', { originator: 'remote', response: { status_code: 183, body: 'v=0' } });
    expect(only()).toMatchObject({ state: 'outgoing' });
    expect(h.tones.ringback).toBe(false);
    s.emit('accepted', { originator: 'remote' });
    expect(only()).toMatchObject({ state: 'active' });
  });

  it('names the callee from the contacts, or from the caller of call()', async () => {
    await started();
    await engine.call('1002');
    expect(only().displayName).toBe('Bob Martinez');
    h.ua().sessions[0]!.end('failed', 'local', 'Canceled');
    await vi.advanceTimersByTimeAsync(ENDED_CALL_LINGER_MS);
    await engine.call('1003', { displayName: 'Carol Okafor' });
    expect(only().displayName).toBe('Carol Okafor');
  });

  it('"call my phone first": with the option on, the desk phone is rung for the number and this browser places no call', async () => {
    const clickDial = vi.fn(async () => undefined);
    await started({ clickDial });
    phone.clickDialOn = true;
    await engine.call('+1 (800) 555-1234,,1');
    expect(clickDial).toHaveBeenCalledWith('18005551234', '18005551234');
    await engine.call('1002');
    expect(clickDial).toHaveBeenLastCalledWith('1002', 'Bob Martinez');
    expect(phone.lastDialled).toBe('1002');
    // A sip: address is not a number the desk phone can be handed: this browser calls it.
    await engine.call('sip:echo@uc.local');
    expect(clickDial).toHaveBeenCalledTimes(2);
    expect(h.ua().call).toHaveBeenCalledTimes(1);
    phone.clickDialOn = false;
  });

  it('a #shortcut needs speed dial: without it the user is told and nothing is dialled', async () => {
    await started();
    await engine.call('#12');
    expect(h.ua().call).not.toHaveBeenCalled();
    expect(h.toasts.at(-1)).toMatchObject({ tone: 'error', messageKey: 'telephony:errors.noSpeedDial' });
  });

  it('a #shortcut is dialled through the speed-dial service when there is one', async () => {
    const resolve = vi.fn(async (s: string) => (s === '12' ? '1002,5' : null));
    await started({ speedDial: () => ({ resolve }) });
    await engine.call('#12');
    expect(h.ua().call).toHaveBeenCalledWith('sip:1002@uc.local', expect.anything());
    await engine.call('#99');
    expect(h.toasts.at(-1)).toMatchObject({ messageKey: 'telephony:errors.unknownShortcut', values: { shortcut: '99' } });
  });

  it('refuses an empty number, and a second call while one uses the line', async () => {
    await started();
    await engine.call(' - ');
    expect(h.toasts.at(-1)).toMatchObject({ messageKey: 'telephony:errors.emptyNumber' });
    await engine.call('1002');
    await engine.call('1003');
    expect(h.ua().call).toHaveBeenCalledTimes(1);
    expect(h.toasts.at(-1)).toMatchObject({ messageKey: 'telephony:reasons.busy' });
  });

  it('a failure tells why (SERVICE_SIP.CALL_FAILED_MESSAGE) and the pending call is removed after 3 s', async () => {
    await started();
    await engine.call('1002');
    h.ua().sessions[0]!.end('failed', 'remote', 'Busy');
    expect(h.toasts.at(-1)).toMatchObject({ tone: 'error', titleKey: 'telephony:errors.callFailedTitle', messageKey: 'telephony:errors.callFailed.busy', values: { name: 'Bob Martinez' } });
    expect(only()).toMatchObject({ state: 'none', ended: 'failed' });
    expect(h.tones.ringback).toBe(false);
    await vi.advanceTimersByTimeAsync(ENDED_CALL_LINGER_MS - 1);
    expect(calls()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls()).toHaveLength(0);
  });

  it('a denied microphone shows DEVICE_DENIED / PLEASE_RELOAD', async () => {
    await started();
    await engine.call('1002');
    h.ua().sessions[0]!.end('failed', 'local', 'User Denied Media Access');
    expect(h.toasts.at(-1)).toMatchObject({ titleKey: 'telephony:errors.deviceDenied', messageKey: 'telephony:errors.pleaseReload' });
  });

  it('hanging up a ringing outgoing call cancels it without an error', async () => {
    await started();
    await engine.call('1002');
    expect(engine.hangup()).toBe(true);
    h.ua().sessions[0]!.end('failed', 'local', 'Canceled');
    expect(only()).toMatchObject({ state: 'none', ended: 'ended' });
    expect(h.toasts).toHaveLength(0);
  });

  it('"Call ▸" takes a contact from the contacts provider: its first number, its name, as contacts resolves them', async () => {
    const known: Record<string, { id: string; name: string; numbers: string[]; self: boolean }> = {
      'contacts:u8': { id: 'u8', name: 'Bob Martinez', numbers: ['1002', '+1 415 555 0100'], self: false },
      'contacts:p3': { id: 'p3', name: 'No Number', numbers: [], self: false },
      'contacts:u7': { id: 'u7', name: 'Alice Nguyen', numbers: ['1001'], self: true },
    };
    await started({ contacts: () => ({ resolve: (id) => known[id] }) });
    // The row's words are not read: what contacts shows there is its own business.
    await engine.callChoice({ id: 'contacts:u8', label: 'Someone', detail: 'Acme Corp', actions: [] });
    expect(h.ua().call).toHaveBeenCalledWith('sip:1002@uc.local', expect.anything());
    expect(only().displayName).toBe('Bob Martinez');
    for (const id of ['contacts:p3', 'contacts:u7', 'voicemail:1']) {
      await engine.callChoice({ id, label: 'x', detail: '1003', actions: [] });
      expect(h.toasts.at(-1), id).toMatchObject({ messageKey: 'telephony:errors.noNumber' });
    }
    expect(h.ua().call).toHaveBeenCalledOnce();
  });
});

describe('placing a call', () => {
  it('the call is shown once its INVITE has left (not while the offer is made); one that fails before that is shown failed', async () => {
    await started();
    h.ua().holdInvites = true;
    await engine.call('1002');
    expect(calls()).toHaveLength(0);
    // Meanwhile the line counts as busy: a second call is refused.
    await engine.call('1003');
    expect(h.ua().call).toHaveBeenCalledTimes(1);
    // JsSIP writes the INVITE to the socket right after its 'sending' event: nothing of ours runs in between.
    h.ua().sessions[0]!.emit('sending', {});
    expect(calls()).toHaveLength(0);
    expect(h.tones.ringback).toBe(false);
    await Promise.resolve();
    expect(only()).toMatchObject({ number: '1002', state: 'outgoing' });
    expect(h.tones.ringback).toBe(true);

    await vi.advanceTimersByTimeAsync(0);
    h.ua().sessions[0]!.end('ended', 'remote', 'Terminated');
    await vi.advanceTimersByTimeAsync(ENDED_CALL_LINGER_MS);
    await engine.call('1004');
    h.ua().sessions.at(-1)!.end('failed', 'local', 'WebRTC Error');
    expect(only()).toMatchObject({ number: '1004', state: 'none' });
  });

  it('a second press while the microphone opens places no second call', async () => {
    const track = { kind: 'audio', enabled: true, stop: vi.fn() };
    const getUserMedia = vi.fn(async () => ({ getAudioTracks: () => [track], getTracks: () => [track] }) as unknown as MediaStream);
    await started({ getUserMedia });
    await Promise.all([engine.call('1002'), engine.call('1002')]);
    expect(h.ua().call).toHaveBeenCalledTimes(1);
  });
});

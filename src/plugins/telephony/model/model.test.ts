import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../state';
import { callItemActions, callStatusText, threeWayAllowed, type CallItemView, type ThreeWayGate } from './callButtons';
import { formatCallTimer, isOngoing, nextCallState } from './callState';
import { dialFontSizePx, dtmfDigits, isDtmfKey, parseDialString, sanitizeDialString } from './dialString';
import { extensionOf, sipUri } from './sip';
import { DTMF_FREQUENCIES, dtmfSchedule, ringbackOn, TONE_GAIN } from './tones';
import { cellNumber, transferableCallId } from './transfer';

describe('call state machine', () => {
  it('outgoing goes to active on acceptance', () => {
    expect(nextCallState('outgoing', 'accepted')).toBe('active');
  });
  it('incoming goes to answering, then active', () => {
    expect(nextCallState('incoming', 'answer')).toBe('answering');
    expect(nextCallState('answering', 'confirmed')).toBe('active');
  });
  it('hold toggles with active', () => {
    expect(nextCallState('active', 'hold')).toBe('hold');
    expect(nextCallState('hold', 'unhold')).toBe('active');
  });
  it('failure, cancel or bye return to none from any live state', () => {
    for (const s of ['incoming', 'answering', 'outgoing', 'active', 'hold'] as const)
      for (const e of ['failed', 'cancel', 'bye'] as const) expect(nextCallState(s, e)).toBe('none');
  });
  it('ignores events that make no sense', () => {
    expect(nextCallState('incoming', 'hold')).toBeNull();
    expect(nextCallState('outgoing', 'answer')).toBeNull();
    expect(nextCallState('none', 'bye')).toBeNull();
  });
  it('active and hold are ongoing', () => {
    expect(['none', 'incoming', 'answering', 'outgoing', 'active', 'hold'].filter((s) => isOngoing(s as never))).toEqual(['active', 'hold']);
  });
  it('formats the timer as HH:mm:ss', () => {
    expect(formatCallTimer(0)).toBe('00:00:00');
    expect(formatCallTimer(61)).toBe('00:01:01');
    expect(formatCallTimer(3600 * 25 + 59)).toBe('25:00:59');
  });
});

describe('active call item buttons', () => {
  const gate: ThreeWayGate = { attendedTransferWithCallRecording: true, threeWayCalling: true, threeWayCallingFirefox: false, isFirefox: false };
  const c = (id: string, state: CallItemView['state'], mergedWith: string | null = null): CallItemView => ({ id, state, mergedWith });

  it('an incoming call with nothing else offers accept and dismiss', () => {
    const ring = c('b', 'incoming');
    expect(callItemActions(ring, [ring], gate)).toEqual(['accept', 'dismiss']);
  });
  it('an incoming call during an active one offers end-and-accept and hold-and-accept', () => {
    const ring = c('b', 'incoming');
    expect(callItemActions(ring, [c('a', 'active'), ring], gate)).toEqual(['endAndAccept', 'holdAndAccept', 'dismiss']);
  });
  it('no hold-and-accept while the other call is outgoing', () => {
    const ring = c('b', 'incoming');
    expect(callItemActions(ring, [c('a', 'outgoing'), ring], gate)).toEqual(['endAndAccept', 'dismiss']);
  });
  it('a held call next to an active one offers end-and-accept, merge, swap and End', () => {
    const held = c('b', 'hold');
    expect(callItemActions(held, [c('a', 'active'), held], gate)).toEqual(['endAndAccept', 'merge', 'swap', 'end']);
  });
  it('merge needs the flags, and on Firefox its own flag', () => {
    const held = c('b', 'hold');
    const calls = [c('a', 'active'), held];
    expect(callItemActions(held, calls, { ...gate, threeWayCalling: false })).not.toContain('merge');
    expect(callItemActions(held, calls, { ...gate, attendedTransferWithCallRecording: false })).not.toContain('merge');
    expect(callItemActions(held, calls, { ...gate, isFirefox: true })).not.toContain('merge');
    expect(callItemActions(held, calls, { ...gate, isFirefox: true, threeWayCallingFirefox: true })).toContain('merge');
    expect(threeWayAllowed(gate)).toBe(true);
  });
  it('no merge when a call is already three-way', () => {
    const held = c('c', 'hold');
    expect(callItemActions(held, [c('a', 'active', 'b'), c('b', 'active', 'a'), held], gate)).not.toContain('merge');
  });
  it('a held call alone offers accept (resume) and End', () => {
    const held = c('b', 'hold');
    expect(callItemActions(held, [held], gate)).toEqual(['accept', 'end']);
  });
  it('status texts: Ringing for incoming/outgoing, On hold for held', () => {
    expect(callStatusText('incoming')).toBe('ringing');
    expect(callStatusText('outgoing')).toBe('ringing');
    expect(callStatusText('hold')).toBe('onHold');
    expect(callStatusText('active')).toBeNull();
  });
});

describe('dial strings', () => {
  it('keep only digits, comma, # and *', () => {
    expect(sanitizeDialString('+1 (800) 555-1234,,1#*x')).toBe('18005551234,,1#*');
  });
  it('a leading # is a speed-dial shortcut', () => {
    expect(parseDialString('#12')).toEqual({ kind: 'speedDial', shortcut: '12' });
    expect(parseDialString('#')).toEqual({ kind: 'empty' });
  });
  it('commas split off DTMF digits with 2 s per comma', () => {
    expect(parseDialString('1001,,1,42')).toEqual({
      kind: 'number',
      number: '1001',
      dtmf: [
        { pauseMs: 4000, digits: '1' },
        { pauseMs: 2000, digits: '42' },
      ],
    });
    expect(parseDialString('1001')).toEqual({ kind: 'number', number: '1001', dtmf: [] });
  });
  it('an empty number is refused', () => {
    expect(parseDialString('')).toEqual({ kind: 'empty' });
    expect(parseDialString('abc')).toEqual({ kind: 'empty' });
    expect(parseDialString(',,1')).toEqual({ kind: 'empty' });
  });
  it('only digits, * and # send DTMF', () => {
    expect(['1', '*', '#', ',', 'a', '+'].filter(isDtmfKey)).toEqual(['1', '*', '#']);
    expect(dtmfDigits('1,2a#')).toBe('12#');
  });
  it('dial input font size follows the length', () => {
    expect(dialFontSizePx('1'.repeat(10))).toBe(24);
    expect(dialFontSizePx('1'.repeat(11))).toBe(20);
    expect(dialFontSizePx('1'.repeat(13))).toBe(20);
    expect(dialFontSizePx('1'.repeat(14))).toBe(18);
    expect(dialFontSizePx('1'.repeat(15))).toBe(16);
    expect(dialFontSizePx('1'.repeat(16))).toBe(14);
    expect(dialFontSizePx('1'.repeat(40))).toBe(14);
  });
});

describe('tones', () => {
  it('DTMF: 125 ms tones with 75 ms gaps, dual frequency, gain 0.2', () => {
    expect(dtmfSchedule('12#')).toEqual([
      { key: '1', startMs: 0, durationMs: 125 },
      { key: '2', startMs: 200, durationMs: 125 },
      { key: '#', startMs: 400, durationMs: 125 },
    ]);
    expect(DTMF_FREQUENCIES['5']).toEqual([770, 1336]);
    expect(TONE_GAIN).toBe(0.2);
  });
  it('ring-back is on for 2 s, off for 4 s, in a 6 s loop', () => {
    expect(ringbackOn(0)).toBe(true);
    expect(ringbackOn(1999)).toBe(true);
    expect(ringbackOn(2000)).toBe(false);
    expect(ringbackOn(5999)).toBe(false);
    expect(ringbackOn(6000)).toBe(true);
  });
});

describe('SIP addresses', () => {
  it('a number is called at the SIP domain; an address is used as it is', () => {
    expect(sipUri('1002', 'uc.local')).toBe('sip:1002@uc.local');
    expect(sipUri('1003*', 'uc.local')).toBe('sip:1003*@uc.local');
    expect(sipUri('sip:bob@example.com', 'uc.local')).toBe('sip:bob@example.com');
  });
  it("the user's extension is the user part of their address", () => {
    expect(extensionOf('sip:1001@uc.local')).toBe('1001');
    expect(extensionOf('sips:1001@uc.local;transport=ws')).toBe('1001');
    expect(extensionOf(null)).toBeUndefined();
  });
});

describe('transfer targets', () => {
  const call = (id: string, state: CallRecord['state'], seq: number, consultFor: string | null = null) => ({ id, state, seq, consultFor }) as CallRecord;
  it('a transfer acts on the connected call, else the newest held one, never a consultation call', () => {
    expect(transferableCallId({ a: call('a', 'hold', 1), b: call('b', 'active', 2) })).toBe('b');
    expect(transferableCallId({ a: call('a', 'hold', 1), b: call('b', 'hold', 3), c: call('c', 'incoming', 4) })).toBe('b');
    expect(transferableCallId({ a: call('a', 'hold', 1), b: call('b', 'active', 2, 'a') })).toBe('a');
    expect(transferableCallId({ a: call('a', 'outgoing', 1) })).toBeUndefined();
  });
  it("the user's cell is the first personal number of their profile", () => {
    const n = (source: 'personal' | 'extension', number: string) => ({ source, number, source_id: null }) as never;
    expect(cellNumber({ phone_numbers: [n('extension', '1001'), n('personal', ''), n('personal', '+14155550100')] })).toBe('+14155550100');
    expect(cellNumber({ phone_numbers: [n('extension', '1001')] })).toBeNull();
    expect(cellNumber(undefined)).toBeNull();
  });
});

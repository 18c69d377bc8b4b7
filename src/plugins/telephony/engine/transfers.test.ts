import { describe, expect, it, vi } from 'vitest';
import { CALL_OPTIONS } from './microphone';
import type { PhoneEngine } from './PhoneEngine';
import { TRANSFER_RESET_MS } from './transfers';
import { FakeSession, type Harness } from './test-fakes';
import { calls, engineTests, only } from './test-engine';

let h: Harness;
let engine: PhoneEngine;

const started = engineTests((s) => ({ h, engine } = s));

describe('transfers', () => {
  async function connectedTo(number = '1002') {
    await engine.call(number);
    const s = h.ua().sessions.at(-1)!;
    s.emit('accepted', { originator: 'remote' });
    return s;
  }
  const byNumber = (n: string) => calls().find((c) => c.number === n)!;

  it('blind: holds the call, asks the far end to call the target, and ends our leg once it has', async () => {
    await started();
    const s = await connectedTo();
    expect(engine.blindTransfer('1003')).toBe(true);
    expect(s.hold).toHaveBeenCalled();
    expect(s.refer).toHaveBeenCalledWith('sip:1003@uc.local', undefined);
    expect(only().transfer).toEqual({ kind: 'blind', target: '1003', status: 'pending' });
    s.refers[0]!.emit('accepted');
    expect(s.terminate).toHaveBeenCalled();
    s.end('ended', 'local', 'Terminated');
    expect(only()).toMatchObject({ state: 'none', ended: 'transferred', transfer: null });
  });

  it('a failed transfer says so, keeps the call on hold, and resets after 2 s', async () => {
    await started();
    const s = await connectedTo();
    engine.blindTransfer('1003');
    s.refers[0]!.emit('failed');
    expect(h.toasts.at(-1)).toMatchObject({ tone: 'error', titleKey: 'telephony:errors.transferFailedTitle', messageKey: 'telephony:errors.transferFailed' });
    expect(only()).toMatchObject({ state: 'hold', transfer: { status: 'failed' } });
    await vi.advanceTimersByTimeAsync(TRANSFER_RESET_MS);
    expect(only().transfer).toBeNull();
    expect(s.terminate).not.toHaveBeenCalled();
  });

  it("to voicemail: a blind transfer to the extension followed by *, shown as the person's voicemail; only extensions have one", async () => {
    await started();
    const s = await connectedTo();
    expect(engine.transferToVoicemail('5551234567')).toBe(false);
    expect(h.toasts.at(-1)).toMatchObject({ messageKey: 'telephony:errors.voicemailNeedsExtension' });
    expect(s.refer).not.toHaveBeenCalled();
    expect(engine.transferToVoicemail('1003')).toBe(true);
    expect(s.refer).toHaveBeenCalledWith('sip:1003*@uc.local', undefined);
    expect(only().transfer).toMatchObject({ kind: 'blind', target: 'telephony:transfer.voicemailOf {"name":"1003"}', status: 'pending' });
  });

  it("to the desk phone: a blind transfer to the user's own extension marked device=desk; the call stays until the desk phone answers", async () => {
    await started();
    expect(engine.moveToDesk()).toBe(false);
    expect(h.toasts.at(-1)).toMatchObject({ messageKey: 'telephony:errors.noActiveCall' });
    const s = await connectedTo();
    expect(engine.moveToDesk()).toBe(true);
    expect(s.hold).toHaveBeenCalled();
    expect(s.refer).toHaveBeenCalledWith('sip:1001@uc.local;device=desk', undefined);
    expect(only().transfer).toEqual({ kind: 'blind', target: 'telephony:transfer.deskPhone', status: 'pending' });
    expect(s.terminate).not.toHaveBeenCalled();
    s.refers[0]!.emit('accepted');
    expect(s.terminate).toHaveBeenCalled();
  });

  it('with no connected or held call there is nothing to transfer', async () => {
    await started();
    expect(engine.blindTransfer('1003')).toBe(false);
    expect(h.toasts.at(-1)).toMatchObject({ messageKey: 'telephony:errors.noActiveCall' });
  });

  it('attended: hold, talk to the target, then complete: the caller takes over the consultation call and both our legs end', async () => {
    await started();
    const first = await connectedTo('1002');
    expect(await engine.startAttendedTransfer('1003')).toBe(true);
    expect(first.hold).toHaveBeenCalled();
    const consultSession = h.ua().sessions[1]!;
    const consult = byNumber('1003');
    expect(consult).toMatchObject({ state: 'outgoing', consultFor: byNumber('1002').id });
    expect(byNumber('1002').transfer).toEqual({ kind: 'attended', target: '1003', status: 'pending' });
    // Not before the target answers.
    expect(engine.completeTransfer()).toBe(false);
    consultSession.emit('accepted', { originator: 'remote' });
    expect(engine.completeTransfer()).toBe(true);
    expect(first.refer).toHaveBeenCalledWith('sip:1003@uc.local', { replaces: consultSession });
    first.refers[0]!.emit('accepted');
    expect(first.terminate).toHaveBeenCalled();
    expect(consultSession.terminate).toHaveBeenCalled();
    first.end('ended', 'local', 'Terminated');
    consultSession.end('ended', 'local', 'Terminated');
    expect(calls().map((c) => c.ended)).toEqual(['transferred', 'transferred']);
  });

  it('attended, given up: the consultation call ends and the caller is resumed', async () => {
    await started();
    const first = await connectedTo('1002');
    await engine.startAttendedTransfer('1003');
    const consultSession = h.ua().sessions[1]!;
    consultSession.emit('accepted', { originator: 'remote' });
    expect(engine.cancelTransfer()).toBe(true);
    expect(consultSession.terminate).toHaveBeenCalled();
    expect(first.unhold).toHaveBeenCalled();
    expect(byNumber('1002')).toMatchObject({ state: 'active', transfer: null });
  });

  it('attended: when the target hangs up first, the transfer shows as failed for 2 s and the caller stays on hold', async () => {
    await started();
    await connectedTo('1002');
    await engine.startAttendedTransfer('1003');
    const consultSession = h.ua().sessions[1]!;
    consultSession.emit('accepted', { originator: 'remote' });
    consultSession.end('ended', 'remote', 'Terminated');
    expect(byNumber('1002')).toMatchObject({ state: 'hold', transfer: { status: 'failed' } });
    await vi.advanceTimersByTimeAsync(TRANSFER_RESET_MS);
    expect(byNumber('1002').transfer).toBeNull();
  });

  it('being transferred: a REFER from the far end is followed with a call where it says', async () => {
    await started();
    const s = await connectedTo('1002');
    const accept = vi.fn();
    s.emit('refer', { accept, reject: vi.fn() });
    expect(accept).toHaveBeenCalledWith(undefined, CALL_OPTIONS);
  });

  it('transferred to: the call that replaces ours is answered at once, without ringing', async () => {
    await started();
    const s = await connectedTo('1002');
    const ua = h.ua();
    s.emit('replaces', {
      accept: (init: (x: unknown) => void) => {
        const next = new FakeSession({ uri: { user: '1003' }, display_name: 'Carol Okafor' });
        init(next);
        ua.sessions.push(next);
        ua.emit('newRTCSession', { originator: 'remote', session: next });
      },
      reject: vi.fn(),
    });
    const next = ua.sessions.at(-1)!;
    expect(next.answer).toHaveBeenCalledWith(CALL_OPTIONS);
    expect(byNumber('1003').state).toBe('answering');
    expect(h.tones.ring).toBe(false);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REG_RENEW_SECONDS } from '../../../wire/services';
import { ENDED_CALL_LINGER_MS } from '../model/callState';
import { phone, resetPhone } from '../state';
import { CALL_OPTIONS, PhoneEngine, TRANSFER_RESET_MS, WARM_MIC_MS } from './PhoneEngine';
import { FakeSession, harness, type Harness } from './test-fakes';

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  await vi.advanceTimersByTimeAsync(0);
};

let h: Harness;
let engine: PhoneEngine;

async function started(over: Parameters<typeof harness>[0] = {}, granted = true): Promise<void> {
  h = harness(over);
  h.grant.value = granted;
  engine = new PhoneEngine(h.deps);
  engine.start();
  await flush();
}

const calls = () => Object.values(phone.calls);
const only = () => {
  expect(calls()).toHaveLength(1);
  return calls()[0]!;
};

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-01-05T10:00:00Z') });
  resetPhone();
});
afterEach(() => {
  engine?.dispose();
  vi.useRealTimers();
});

describe('registration', () => {
  it('reserves the registration for this tab, then registers with fresh credentials and the configured expiry', async () => {
    await started();
    expect(h.posts[0]).toEqual({ path: '/v1/regreserve', body: { peer: 'web-me', client: 'web' } });
    expect(h.uas).toHaveLength(1);
    expect(h.ua().config).toMatchObject({ uri: 'sip:1001@uc.local', password: 'secret-1', registerExpires: 300, noAnswerTimeout: 60, displayName: 'Alice Nguyen', wsUrl: 'ws://127.0.0.1:15060/' });
    expect(h.ua().start).toHaveBeenCalled();
    expect(phone.status).toBe('ready');
    expect(h.reports).toEqual(['connecting', 'connected']);
  });

  it('a closing tab releases the hold it has (keepalive), and only one it has', async () => {
    await started();
    engine.releaseHold();
    await flush();
    expect(h.posts.at(-1)).toEqual({ path: '/v1/regreserve', body: { peer: 'web-me', client: 'web', release: true }, keepalive: true });
    const sent = h.posts.length;
    engine.releaseHold();
    engine.dispose();
    await started({}, false);
    engine.releaseHold();
    await flush();
    expect(h.posts.filter((p) => (p.body as { release?: boolean }).release)).toHaveLength(0);
    expect(sent).toBeGreaterThan(0);
  });

  it('does not register while another tab holds the phone, says so, and takes over on request', async () => {
    await started({}, false);
    expect(h.uas).toHaveLength(0);
    expect(phone.status).toBe('elsewhere');
    expect(h.toasts[0]).toMatchObject({ titleKey: 'telephony:notices.elsewhereTitle', messageKey: 'telephony:notices.elsewhere', timeoutMs: null, action: { labelKey: 'telephony:commands.takeOver' } });
    // Renewals do not repeat the notice.
    await vi.advanceTimersByTimeAsync(REG_RENEW_SECONDS * 1000);
    expect(h.toasts).toHaveLength(1);

    h.grant.value = true;
    h.toasts[0]!.action!.run();
    await flush();
    expect(h.posts.at(-1)).toEqual({ path: '/v1/regreserve', body: { peer: 'web-me', client: 'web', takeover: true } });
    expect(phone.status).toBe('ready');
    expect(h.dismissed).toEqual(['toast-1']);
    expect(h.channelSent).toEqual([{ type: 'takeover', peer: 'web-me' }]);
  });

  it('picks the phone up by itself when the other holder lets its hold lapse', async () => {
    await started({}, false);
    h.grant.value = true;
    await vi.advanceTimersByTimeAsync(REG_RENEW_SECONDS * 1000);
    expect(phone.status).toBe('ready');
    expect(h.uas).toHaveLength(1);
  });

  it('renews the hold every REG_RENEW_SECONDS; refused, it stops the phone, ends its calls and tells the user', async () => {
    await started();
    const before = h.posts.length;
    await vi.advanceTimersByTimeAsync(REG_RENEW_SECONDS * 1000);
    expect(h.posts.length).toBe(before + 1);
    h.ua().ring('1002');
    h.grant.value = false;
    await vi.advanceTimersByTimeAsync(REG_RENEW_SECONDS * 1000);
    expect(h.ua().stop).toHaveBeenCalled();
    expect(phone.status).toBe('elsewhere');
    expect(h.toasts.at(-1)).toMatchObject({ messageKey: 'telephony:notices.movedWithCalls' });
    expect(only().state).toBe('none');
  });

  it('checks at once when another tab of this browser says it took over', async () => {
    await started();
    h.grant.value = false;
    h.channelReceive({ type: 'takeover', peer: 'web-other' });
    await flush();
    expect(phone.status).toBe('elsewhere');
    expect(h.toasts.at(-1)).toMatchObject({ messageKey: 'telephony:notices.moved' });
  });

  it('renews credentials on the same connection before they expire, without touching calls', async () => {
    await started();
    const ua = h.ua();
    ua.ring('1002');
    engine.accept();
    await vi.advanceTimersByTimeAsync(0.8 * 3_600_000);
    expect(ua.set).toHaveBeenCalledWith('authorization_user', expect.stringMatching(/:1001$/));
    expect(ua.set).toHaveBeenCalledWith('password', 'secret-2');
    expect(ua.register).toHaveBeenCalled();
    expect(ua.stop).not.toHaveBeenCalled();
    expect(h.uas).toHaveLength(1);
    expect(only().state).not.toBe('none');
  });

  it('fetches new credentials once when registration fails authentication', async () => {
    await started();
    h.ua().emit('registrationFailed', { cause: 'Authentication Error' });
    await flush();
    expect(phone.status).toBe('error');
    expect(h.reports.at(-1)).toBe('error');
    expect(h.credentialFetches).toBe(2);
    expect(h.ua().register).toHaveBeenCalledTimes(1);
  });

  it('re-registers after the browser comes back online, once restart_after_online_ms has passed', async () => {
    await started();
    engine.online();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(h.ua().register).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(h.ua().register).toHaveBeenCalled();
  });

  it('after a network change a connected call restarts ICE once SIP is registered again (held calls wait)', async () => {
    await started();
    await engine.call('1002');
    const s = h.ua().sessions[0]!;
    s.emit('accepted', { originator: 'remote' });
    engine.online();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(s.renegotiate).not.toHaveBeenCalled();
    h.ua().emit('registered');
    expect(s.renegotiate).toHaveBeenCalledWith({ rtcOfferConstraints: { iceRestart: true } });
    // Once per network change.
    h.ua().emit('registered');
    expect(s.renegotiate).toHaveBeenCalledTimes(1);
  });

  it('reconnects with a new agent when the connection is down and no call is live', async () => {
    await started();
    const old = h.ua();
    old.connected = false;
    old.emit('disconnected');
    expect(h.reports.at(-1)).toBe('disconnected');
    engine.reconnect();
    await flush();
    expect(old.stop).toHaveBeenCalled();
    expect(h.uas).toHaveLength(2);
    expect(phone.status).toBe('ready');
  });

  it('a user without an extension is unconfigured', async () => {
    const { ApiError } = await import('../../../kernel/api');
    await started({
      api: {
        post: async () => {
          throw new ApiError(404, { error: 'sip_not_configured', message: 'Calling is not configured for this user' });
        },
        get: async () => undefined as never,
        request: async () => undefined as never,
      },
    });
    expect(phone.status).toBe('unconfigured');
    expect(h.uas).toHaveLength(0);
  });
});

describe('outgoing calls', () => {
  it('sanitises the dial string, plays ring-back, and sends the digits after the commas once answered', async () => {
    await started();
    const ua = h.ua();
    await engine.call('+1 (800) 555-1234,,1,42');
    expect(ua.call).toHaveBeenCalledWith('sip:18005551234@uc.local', { mediaConstraints: { audio: true, video: false }, pcConfig: { iceServers: [], rtcpMuxPolicy: 'require' } });
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

  it('names the callee from the contacts, or from the caller of call()', async () => {
    await started();
    await engine.call('1002');
    expect(only().displayName).toBe('Bob Martinez');
    h.ua().sessions[0]!.end('failed', 'local', 'Canceled');
    await vi.advanceTimersByTimeAsync(ENDED_CALL_LINGER_MS);
    await engine.call('1003', { displayName: 'Carol Okafor' });
    expect(only().displayName).toBe('Carol Okafor');
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

  it('"Call ▸" takes a contact from the contacts provider: its first number, its name', async () => {
    await started();
    await engine.callChoice({ id: 'contacts:u8', label: 'Bob Martinez', detail: '1002, +1 415 555 0100 · Acme Corp', actions: [{ command: 'contacts.call' }] });
    expect(h.ua().call).toHaveBeenCalledWith('sip:1002@uc.local', expect.anything());
    expect(only().displayName).toBe('Bob Martinez');
    await engine.callChoice({ id: 'contacts:p3', label: 'No Number', detail: 'Acme', actions: [{ command: 'contacts.open' }] });
    expect(h.toasts.at(-1)).toMatchObject({ messageKey: 'telephony:errors.noNumber' });
  });
});

describe('incoming calls', () => {
  it('ring, are announced assertively with the contact name, and are answered', async () => {
    await started();
    const s = h.ua().ring('1002', 'B. M.');
    expect(only()).toMatchObject({ state: 'incoming', direction: 'incoming', number: '1002', displayName: 'Bob Martinez' });
    expect(h.tones.ring).toBe(true);
    expect(h.announcements).toContainEqual(['telephony:announce.incoming {"name":"Bob Martinez"}', 'assertive']);
    expect(engine.accept()).toBe(true);
    expect(s.answer).toHaveBeenCalledWith({ mediaConstraints: { audio: true, video: false }, pcConfig: { iceServers: [], rtcpMuxPolicy: 'require' } });
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

describe('call recording', () => {
  async function startedWith(mode: 'on' | 'on_demand' | 'off'): Promise<void> {
    h = harness();
    h.recording.mode = mode;
    engine = new PhoneEngine(h.deps);
    engine.start();
    await flush();
  }
  async function connected() {
    await engine.call('1002');
    const s = h.ua().sessions[0]!;
    s.emit('accepted', { originator: 'remote' });
    return s;
  }

  it('reads the policy and the phone digit sequences at start', async () => {
    await startedWith('on_demand');
    expect(phone.recordingPolicy).toEqual({ mode: 'on_demand', pauseSequence: '*82', onDemandSequence: '*81' });
  });

  it('on demand: Start, then Pause and Resume in turn, each confirmed by the server for this Call-ID', async () => {
    await startedWith('on_demand');
    const s = await connected();
    expect(only().recording).toBe('none');
    expect(only().sipCallId).toBe(s._request.call_id);
    expect(await engine.toggleRecording()).toBe(true);
    expect(h.posts.at(-1)).toEqual({ path: `/v1/calls/${encodeURIComponent(s._request.call_id)}/recording`, body: { action: 'start' } });
    expect(only().recording).toBe('recording');
    await engine.toggleRecording();
    expect(h.posts.at(-1)!.body).toEqual({ action: 'pause' });
    expect(only().recording).toBe('paused');
    await engine.toggleRecording();
    expect(h.posts.at(-1)!.body).toEqual({ action: 'resume' });
    expect(only().recording).toBe('recording');
    // Ending the call resets the flags.
    s.end('ended', 'remote', 'Terminated');
    expect(only().recording).toBe('none');
  });

  it('forced on: an answered call is recorded from the start and may only be paused; off: nothing to do', async () => {
    await startedWith('on');
    await connected();
    expect(only().recording).toBe('recording');
    await engine.toggleRecording();
    expect(h.posts.at(-1)!.body).toEqual({ action: 'pause' });
    engine.dispose();
    resetPhone();
    await startedWith('off');
    await connected();
    expect(await engine.toggleRecording()).toBe(false);
    expect(h.posts.filter((p) => p.path.endsWith('/recording'))).toHaveLength(0);
  });

  it('a refused change keeps the state and says so', async () => {
    await startedWith('on_demand');
    await connected();
    h.recording.fail = true;
    expect(await engine.toggleRecording()).toBe(false);
    expect(only().recording).toBe('none');
    expect(h.toasts.at(-1)).toMatchObject({ tone: 'error', titleKey: 'telephony:errors.recordingTitle' });
  });
});

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

describe('audio devices', () => {
  function fakeSender(enabled = true) {
    const old = { kind: 'audio', enabled, stop: vi.fn() };
    return { track: old as unknown as MediaStreamTrack, replaceTrack: vi.fn(async function (this: { track: unknown }, t: unknown) { this.track = t; }), old };
  }

  it('a remembered microphone is used for new calls, and a remembered speaker at once', async () => {
    const saved = { input: 'mic-2', output: 'spk-2' };
    await started({ devices: { load: () => saved, save: vi.fn() } });
    expect(h.deps.audio.setSink).toHaveBeenCalledWith('spk-2');
    await engine.call('1002');
    expect(h.ua().call).toHaveBeenCalledWith('sip:1002@uc.local', expect.objectContaining({ mediaConstraints: { audio: { deviceId: { exact: 'mic-2' } }, video: false } }));
  });

  it('switching the microphone mid-call replaces the sending track (no renegotiation), keeps mute, and is remembered', async () => {
    const save = vi.fn();
    const newTrack = { kind: 'audio', enabled: true, stop: vi.fn() };
    const getUserMedia = vi.fn(async () => ({ getAudioTracks: () => [newTrack], getTracks: () => [newTrack] }) as unknown as MediaStream);
    await started({ devices: { load: () => ({ input: null, output: null }), save }, getUserMedia });
    await engine.call('1002');
    const s = h.ua().sessions[0]!;
    const sender = fakeSender(false); // muted
    s.connection = { getSenders: () => [sender] } as unknown as RTCPeerConnection;
    s.emit('accepted', { originator: 'remote' });
    expect(await engine.setInputDevice('mic-3')).toBe(true);
    expect(getUserMedia).toHaveBeenCalledWith({ audio: { deviceId: { exact: 'mic-3' } }, video: false });
    expect(sender.replaceTrack).toHaveBeenCalledWith(newTrack);
    expect(sender.old.stop).toHaveBeenCalled();
    expect(newTrack.enabled).toBe(false);
    expect(s.terminate).not.toHaveBeenCalled();
    expect(save).toHaveBeenLastCalledWith({ input: 'mic-3', output: null });
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
    await started({ devices: { load: () => ({ input: null, output: null }), save } });
    engine.setOutputDevice('spk-9');
    expect(h.deps.audio.setSink).toHaveBeenLastCalledWith('spk-9');
    expect(save).toHaveBeenLastCalledWith({ input: null, output: 'spk-9' });
  });
});

describe('3-way calls', () => {
  function fakeMixer() {
    return { start: vi.fn(async () => undefined), setMuted: vi.fn(), stop: vi.fn() };
  }
  async function twoCalls(mixer = fakeMixer(), threeWay = true) {
    await started({ threeWay: () => threeWay, createMixer: () => mixer });
    await engine.call('1002');
    const first = h.ua().sessions[0]!;
    first.connection = {} as RTCPeerConnection;
    first.emit('accepted', { originator: 'remote' });
    engine.toggleHold();
    await engine.call('1003');
    const second = h.ua().sessions[1]!;
    second.connection = {} as RTCPeerConnection;
    second.emit('accepted', { originator: 'remote' });
    const byNumber = (n: string) => calls().find((c) => c.number === n)!;
    return { mixer, first, second, byNumber };
  }

  it('merges the held call with the connected one: resumed, mixed, both legs marked', async () => {
    const { mixer, first, byNumber } = await twoCalls();
    expect(byNumber('1002').state).toBe('hold');
    expect(await engine.merge()).toBe(true);
    expect(first.unhold).toHaveBeenCalled();
    expect(mixer.start).toHaveBeenCalledWith([
      { id: byNumber('1003').id, pc: expect.anything() },
      { id: byNumber('1002').id, pc: expect.anything() },
    ]);
    expect(byNumber('1002')).toMatchObject({ state: 'active', mergedWith: byNumber('1003').id });
    expect(byNumber('1003').mergedWith).toBe(byNumber('1002').id);
    // Not twice.
    expect(await engine.merge()).toBe(false);
  });

  it('mute and hold apply to both legs of a 3-way call', async () => {
    const { mixer, first, second, byNumber } = await twoCalls();
    await engine.merge();
    engine.toggleMute(byNumber('1003').id);
    expect(mixer.setMuted).toHaveBeenLastCalledWith(true);
    expect(byNumber('1002').muted && byNumber('1003').muted).toBe(true);
    expect(second.mute).not.toHaveBeenCalled();
    engine.toggleHold(byNumber('1002').id);
    expect(first.hold).toHaveBeenCalled();
    expect(second.hold).toHaveBeenCalled();
    expect([byNumber('1002').state, byNumber('1003').state]).toEqual(['hold', 'hold']);
    engine.toggleHold(byNumber('1002').id);
    expect([byNumber('1002').state, byNumber('1003').state]).toEqual(['active', 'active']);
  });

  it('ending one leg unmerges: the mix stops and the other call goes on alone', async () => {
    const { mixer, second, byNumber } = await twoCalls();
    await engine.merge();
    second.end('ended', 'remote', 'Terminated');
    expect(mixer.stop).toHaveBeenCalled();
    expect(byNumber('1002')).toMatchObject({ state: 'active', mergedWith: null });
  });

  it('without the 3-way flags nothing is merged', async () => {
    const { mixer } = await twoCalls(fakeMixer(), false);
    expect(await engine.merge()).toBe(false);
    expect(mixer.start).not.toHaveBeenCalled();
  });

  it('a mix that cannot start says so and leaves two separate calls', async () => {
    const mixer = fakeMixer();
    mixer.start.mockRejectedValueOnce(new Error('no audio context'));
    const { byNumber } = await twoCalls(mixer);
    expect(await engine.merge()).toBe(false);
    expect(mixer.stop).toHaveBeenCalled();
    expect(byNumber('1002').mergedWith).toBeNull();
    expect(h.toasts.at(-1)).toMatchObject({ titleKey: 'telephony:errors.mergeTitle' });
  });
});

describe('the microphone of an outgoing call', () => {
  it('is opened before the call is set up, handed to JsSIP, and stopped when the call ends', async () => {
    const track = { kind: 'audio', enabled: true, stop: vi.fn() };
    const stream = { getAudioTracks: () => [track], getTracks: () => [track] } as unknown as MediaStream;
    const getUserMedia = vi.fn(async () => stream);
    await started({ getUserMedia });
    await engine.call('1002');
    expect(getUserMedia).toHaveBeenCalledWith({ audio: true, video: false });
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

describe('placing a call', () => {
  it('the call is shown once its INVITE leaves (not while the offer is made); one that fails before that is shown failed', async () => {
    await started();
    h.ua().holdInvites = true;
    await engine.call('1002');
    expect(calls()).toHaveLength(0);
    // Meanwhile the line counts as busy: a second call is refused.
    await engine.call('1003');
    expect(h.ua().call).toHaveBeenCalledTimes(1);
    h.ua().sessions[0]!.emit('sending', {});
    expect(only()).toMatchObject({ number: '1002', state: 'outgoing' });

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

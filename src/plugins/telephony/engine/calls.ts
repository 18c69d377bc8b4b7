import type { Notifier, ToastInput } from '../../../kernel';
import { ENDED_CALL_LINGER_MS, isBusyState, nextCallState, type CallEvent, type CallState } from '../model/callState';
import { dtmfDigits, type DtmfStep } from '../model/dialString';
import { DTMF_GAP_MS, DTMF_TONE_MS } from '../model/tones';
import { phone, type CallEnd, type CallRecord } from '../state';
import { CAUSE, type EngineDeps, type OthersPolicy } from './deps';
import { callOptions, type WarmMicrophone } from './microphone';
import type { NewSessionEvent, ReferEvent, ReplacesEvent, SessionEndEvent, SessionLike } from './types';
import { log } from '../log';

const FAILURE_REASONS: Readonly<Record<string, string>> = {
  Busy: 'busy',
  Rejected: 'declined',
  'Not Found': 'notFound',
  'Address Incomplete': 'notFound',
  Unavailable: 'unavailable',
  'No Answer': 'noAnswer',
  'Request Timeout': 'noAnswer',
  Expires: 'noAnswer',
};

const ENDED_BY: Readonly<Record<string, CallEnd>> = { declined: 'declined', missed: 'missed', failed: 'failed', transferred: 'transferred' };

export interface PendingOutgoing {
  id: string;
  number: string;
  displayName: string | null;
  dtmf: DtmfStep[];
  consultFor: string | null;
}

/** How a call is named in announcements and notices: the contact's or caller's name, else the number. */
export const nameOf = (c: CallRecord): string => c.displayName || c.number;

/** A call (or a transfer) cannot be placed: the toast says why. */
export function cannotCall(notify: Notifier, messageKey: string, values?: Record<string, unknown>): void {
  notify.toast({ tone: 'error', titleKey: 'telephony:errors.cannotCallTitle', messageKey, values });
}

export type CallDeps = Pick<EngineDeps, 'notify' | 't' | 'audio' | 'tones' | 'lookupName' | 'presence' | 'setOnCall' | 'desktop'>;

/**
 * The call table: every call's JsSIP session and its record in the `phone` store, driven through
 * the call states (incoming → answering → active ⇄ hold, outgoing → active, ended → none, the
 * record dropped 3 s later); answering, declining, ending, holding, muting and DTMF (calls
 * are placed by the Dialler, outgoing.ts). Rings, ring-back and the "on call" presence follow it.
 */
export class CallTable {
  private readonly sessions = new Map<string, SessionLike>();
  private readonly callTimers = new Map<string, Array<ReturnType<typeof setTimeout>>>();
  private pending: PendingOutgoing | null = null;
  /** DTMF typed after commas in the dial string, sent once the call is answered. */
  private readonly afterConnect = new Map<string, DtmfStep[]>();
  private seq = 0;
  /** Last value given to presence, so that it only hears of changes. */
  private onCall = false;
  /** Sessions that replace one of ours (an attended transfer to us), answered without ringing. */
  private readonly replacing = new WeakSet<SessionLike>();
  /** Calls handed over by a completed transfer: they end as "Transferred", not "Call ended". */
  private readonly handedOver = new Set<string>();
  /** Outgoing calls not yet shown: they appear when their INVITE leaves (see track()). */
  private readonly unpublished = new Map<string, { record: CallRecord; publish: () => void }>();
  /** Microphones opened for our outgoing calls, stopped when each call ends. */
  private readonly microphones = new Map<string, MediaStream>();
  /** Told of every call that ends (a transfer or a 3-way call it was part of is undone). */
  private readonly endedHooks: Array<(c: CallRecord) => void> = [];

  constructor(
    private readonly deps: CallDeps,
    /** Opened while a call rings, used by its answer (microphone.ts). */
    private readonly warm?: WarmMicrophone,
  ) {}

  session(id: string | undefined): SessionLike | undefined {
    return id ? this.sessions.get(id) : undefined;
  }

  /** The sessions of calls in one of `states`, by call id. */
  sessionsIn(...states: CallState[]): Array<[string, SessionLike]> {
    return [...this.sessions.entries()].filter(([id]) => {
      const state = phone.calls[id]?.state;
      return state !== undefined && states.includes(state);
    });
  }

  /** Whether a session of ours is still live (one that ended lingers in the store as 'none'). */
  hasLiveSessions(): boolean {
    return [...this.sessions.keys()].some((id) => phone.calls[id]?.state !== 'none');
  }

  /** The call `id` was handed over by a transfer: it ends as "Transferred". */
  handOver(id: string): void {
    this.handedOver.add(id);
  }

  wasHandedOver(id: string): boolean {
    return this.handedOver.has(id);
  }

  onEnded(hook: (c: CallRecord) => void): void {
    this.endedHooks.push(hook);
  }

  /** The phone stops: no timer of any call fires any more. */
  clearTimers(): void {
    for (const id of [...this.callTimers.keys()]) this.clearCallTimers(id);
  }

  /** The phone stops: no ring or ring-back goes on playing. */
  silence(): void {
    this.deps.tones.ring(false);
    this.deps.tones.ringback(false);
  }

  hasLiveCalls(): boolean {
    return Object.values(phone.calls).some((c) => c.state !== 'none');
  }

  record(id: string | undefined): CallRecord | undefined {
    return id ? phone.calls[id] : undefined;
  }

  /** The call a command without an id means: the one using the line, else the newest held one. */
  currentId(): string | undefined {
    const calls = Object.values(phone.calls).sort((a, b) => b.seq - a.seq);
    const rank: Partial<Record<CallState, number>> = { active: 0, outgoing: 1, answering: 2, hold: 3 };
    return calls.filter((c) => rank[c.state] !== undefined).sort((a, b) => rank[a.state]! - rank[b.state]!)[0]?.id;
  }

  incomingId(): string | undefined {
    return Object.values(phone.calls)
      .filter((c) => c.state === 'incoming')
      .sort((a, b) => a.seq - b.seq)[0]?.id;
  }

  private toast(input: ToastInput): void {
    this.deps.notify.toast(input);
  }

  /** The calls on show and those whose INVITE is still being prepared. */
  allCalls(): CallRecord[] {
    return [...Object.values(phone.calls), ...[...this.unpublished.values()].map((u) => u.record)];
  }

  /**
   * Runs `place` (JsSIP's ua.call(), whose new session reaches track() before it returns) as the
   * outgoing call `pending`, using `microphone`; the microphone is stopped if placing throws.
   */
  dial(pending: PendingOutgoing, microphone: MediaStream | null, place: () => void): void {
    this.pending = pending;
    if (microphone) this.microphones.set(pending.id, microphone);
    try {
      place();
    } catch (err) {
      this.microphones.get(pending.id)?.getTracks().forEach((t) => t.stop());
      this.microphones.delete(pending.id);
      throw err;
    } finally {
      this.pending = null;
    }
  }

  newId(): string {
    return `c${Date.now().toString(36)}${++this.seq}`;
  }

  track({ originator, session }: NewSessionEvent): void {
    const outgoing = originator === 'local';
    const pending = outgoing ? this.pending : null;
    const number = pending?.number ?? session.remote_identity.uri.user ?? '';
    // Someone transferred to us takes the place of a call we have: answered at once, never rung.
    const replacing = !outgoing && this.replacing.has(session);
    this.replacing.delete(session);
    if (!outgoing && !replacing && this.deps.presence?.() === 'donotdisturb') {
      session.terminate({ status_code: 486, reason_phrase: 'Busy Here' });
      return;
    }
    const id = pending?.id ?? this.newId();
    const displayName = pending ? pending.displayName : this.deps.lookupName?.(number) || session.remote_identity.display_name || null;
    const record: CallRecord = {
      id,
      state: outgoing ? 'outgoing' : 'incoming',
      number,
      displayName,
      direction: outgoing ? 'outgoing' : 'incoming',
      startedAt: null,
      held: false,
      muted: false,
      mergedWith: null,
      ended: null,
      seq: this.seq++,
      recording: 'none',
      sipCallId: session._request?.call_id ?? null,
      transfer: null,
      consultFor: pending?.consultFor ?? null,
    };
    this.sessions.set(id, session);
    if (pending?.dtmf.length) this.afterConnect.set(id, pending.dtmf);
    const attach = (pc: RTCPeerConnection | null | undefined) => pc && this.deps.audio.attach(id, pc);
    attach(session.connection);
    session.on('peerconnection', (e: { peerconnection: RTCPeerConnection }) => attach(e.peerconnection));
    // A 183 with SDP: the far end plays its own audio (find-me's announcements): no ring-back over it.
    session.on('progress', (e: { originator: string; response?: { body?: string } | null }) => {
      if (e.originator !== 'remote' || !e.response?.body) return;
      this.patch(id, { earlyMedia: true });
      this.reflectCalls();
    });
    session.on('accepted', () => this.transition(id, 'accepted'));
    session.on('confirmed', () => this.transition(id, 'confirmed'));
    session.on('hold', (e: { originator: string }) => e.originator === 'local' && this.transition(id, 'hold'));
    session.on('unhold', (e: { originator: string }) => e.originator === 'local' && this.transition(id, 'unhold'));
    session.on('muted', () => this.patch(id, { muted: true }));
    session.on('unmuted', () => this.patch(id, { muted: false }));
    session.on('ended', (e: SessionEndEvent) => this.finish(id, 'bye', e));
    session.on('failed', (e: SessionEndEvent) => this.finish(id, e.cause === CAUSE.canceled ? 'cancel' : 'failed', e));
    // The far end transfers us: we call where it says (it ends our call with it once we are through).
    session.on('refer', (e: ReferEvent) => {
      const from = phone.calls[id];
      if (!from || from.state === 'none') return e.reject();
      e.accept(undefined, callOptions());
    });
    session.on('replaces', (e: ReplacesEvent) => e.accept((next) => void this.replacing.add(next)));
    const name = nameOf(record);
    if (outgoing) {
      // Shown once JsSIP has handed the INVITE over: drawing the new call in the dock would
      // otherwise take the main thread while the offer is being made, delaying the INVITE. JsSIP
      // emits 'sending' just before it writes the INVITE to the socket, so the call (its store
      // entry, announcement and ring-back) follows in a microtask, after the write. A call that
      // fails before that is shown then (finish()).
      const publish = () => {
        if (!this.unpublished.delete(id)) return;
        phone.calls[id] = record;
        this.deps.notify.announce(this.deps.t('telephony:announce.calling', { name }), 'polite');
        this.reflectCalls();
      };
      this.unpublished.set(id, { record, publish });
      session.on('sending', () => queueMicrotask(publish));
      return;
    }
    phone.calls[id] = record;
    if (replacing) {
      this.transition(id, 'answer');
      session.answer(callOptions());
      this.deps.notify.announce(this.deps.t('telephony:announce.transferredIn', { name }), 'assertive');
      return;
    }
    this.deps.notify.announce(this.deps.t('telephony:announce.incoming', { name }), 'assertive');
    this.deps.desktop?.incoming(id, name);
    this.reflectCalls();
    this.warm?.ring();
  }

  private patch(id: string, change: Partial<CallRecord>): void {
    const c = phone.calls[id];
    if (c) Object.assign(c, change);
  }

  private transition(id: string, event: CallEvent): void {
    const c = phone.calls[id];
    if (!c) return;
    const next = nextCallState(c.state, event);
    if (next === null) return;
    if (c.state === 'incoming') this.deps.desktop?.close(id);
    c.state = next;
    if (event === 'hold' || event === 'unhold') c.held = next === 'hold';
    if (next === 'active' && c.startedAt === null) {
      c.startedAt = Date.now();
      // With the policy `on` the server starts recording every answered call by itself.
      if (phone.recordingPolicy.mode === 'on') c.recording = 'recording';
      this.deps.notify.announce(this.deps.t('telephony:announce.connected', { name: nameOf(c) }), 'polite');
      this.scheduleDialDtmf(id);
    } else if (event === 'hold' || event === 'unhold') {
      this.deps.notify.announce(this.deps.t(next === 'hold' ? 'telephony:announce.held' : 'telephony:announce.resumed', { name: nameOf(c) }), 'polite');
    }
    this.reflectCalls();
  }

  private scheduleDialDtmf(id: string): void {
    const steps = this.afterConnect.get(id);
    this.afterConnect.delete(id);
    if (!steps) return;
    let at = 0;
    for (const step of steps) {
      at += step.pauseMs;
      this.addCallTimer(id, setTimeout(() => this.sendDtmf(step.digits, id), at));
    }
  }

  addCallTimer(id: string, t: ReturnType<typeof setTimeout>): void {
    const list = this.callTimers.get(id) ?? [];
    list.push(t);
    this.callTimers.set(id, list);
  }

  private clearCallTimers(id: string): void {
    for (const t of this.callTimers.get(id) ?? []) clearTimeout(t);
    this.callTimers.delete(id);
  }

  private finish(id: string, event: CallEvent, e: SessionEndEvent): void {
    this.unpublished.get(id)?.publish();
    const c = phone.calls[id];
    if (!c || c.state === 'none') return;
    const before = c.state;
    c.state = nextCallState(c.state, event) ?? 'none';
    c.held = false;
    const name = nameOf(c);
    let how: CallEnd = 'ended';
    if (e.cause === CAUSE.mediaDenied) {
      how = 'failed';
      this.toast({ tone: 'error', titleKey: 'telephony:errors.deviceDenied', messageKey: 'telephony:errors.pleaseReload', timeoutMs: 10_000 });
    } else if (this.handedOver.delete(id)) {
      how = 'transferred';
    } else if (before === 'incoming') {
      how = e.originator === 'local' ? 'declined' : 'missed';
    } else if (event === 'failed' && e.originator !== 'local') {
      how = 'failed';
      const reason = FAILURE_REASONS[e.cause] ?? 'other';
      this.toast({ tone: 'error', titleKey: 'telephony:errors.callFailedTitle', messageKey: `telephony:errors.callFailed.${reason}`, values: { name } });
    }
    c.ended = ENDED_BY[how] ?? 'ended';
    c.recording = 'none';
    c.transfer = null;
    this.microphones.get(id)?.getTracks().forEach((t) => t.stop());
    this.microphones.delete(id);
    for (const ended of this.endedHooks) ended(c);
    this.deps.notify.announce(this.deps.t(`telephony:announce.${how}`, { name }), 'polite');
    this.deps.desktop?.close(id);
    if (how === 'missed') this.deps.desktop?.missed(id, name);
    this.sessions.delete(id);
    this.afterConnect.delete(id);
    this.clearCallTimers(id);
    this.deps.audio.detach(id);
    // Unanswered: the microphone opened while it rang closes, unless another call still rings.
    if (before === 'incoming' && !Object.values(phone.calls).some((o) => o.state === 'incoming')) this.warm?.release();
    this.reflectCalls();
    setTimeout(() => {
      if (phone.calls[id]?.state === 'none') delete phone.calls[id];
    }, ENDED_CALL_LINGER_MS);
  }

  /** Rings, ring-back and the 'on call' presence follow the calls; any end (487 included) resets presence. */
  private reflectCalls(): void {
    const calls = Object.values(phone.calls);
    const onCall = calls.some((c) => isBusyState(c.state) || c.state === 'hold');
    if (onCall !== this.onCall) {
      this.onCall = onCall;
      this.deps.setOnCall?.(onCall);
    }
    this.deps.tones.ring(calls.some((c) => c.state === 'incoming'));
    this.deps.tones.ringback(calls.some((c) => c.state === 'outgoing' && !c.earlyMedia));
  }

  /**
   * Answers a ringing call, or resumes a held one. Calls using the line are put on hold first
   * (`others: 'hold'`), or ended (`'end'`); one still being placed cannot be held, so it is ended.
   */
  accept(id = this.incomingId(), others: OthersPolicy = 'hold'): boolean {
    const c = this.record(id);
    const session = id ? this.sessions.get(id) : undefined;
    if (!c || !session || (c.state !== 'incoming' && c.state !== 'hold')) return false;
    for (const other of Object.values(phone.calls)) {
      if (other.id === c.id || !isBusyState(other.state)) continue;
      const s = this.sessions.get(other.id);
      if (!s) continue;
      if (others === 'hold' && other.state === 'active') s.hold();
      else s.terminate();
    }
    if (c.state === 'incoming') {
      this.transition(c.id, 'answer');
      this.answer(c.id, session);
    } else {
      session.unhold();
    }
    return true;
  }

  /** Answers with the microphone opened while the call rang, if there is one (else JsSIP opens one). */
  private answer(id: string, session: SessionLike): void {
    const warm = this.warm?.take();
    if (!warm) return session.answer(callOptions());
    void warm.then((stream) => {
      const live = stream?.getAudioTracks().some((t) => t.readyState === 'live') ? stream : null;
      if (phone.calls[id]?.state !== 'answering' || session.isEnded()) {
        live?.getTracks().forEach((t) => t.stop());
        return;
      }
      if (live) this.microphones.set(id, live);
      try {
        session.answer(live ? { ...callOptions(), mediaStream: live } : callOptions());
      } catch (err) {
        log.error('answer failed', err);
        this.microphones.delete(id);
        live?.getTracks().forEach((t) => t.stop());
      }
    });
  }

  decline(id = this.incomingId()): boolean {
    const c = this.record(id);
    const session = id ? this.sessions.get(id) : undefined;
    if (!c || !session || c.state !== 'incoming') return false;
    session.terminate({ status_code: 603, reason_phrase: 'Decline' });
    return true;
  }

  hangup(id = this.currentId()): boolean {
    const session = id ? this.sessions.get(id) : undefined;
    if (!session || session.isEnded()) return false;
    session.terminate();
    return true;
  }

  toggleHold(id = this.currentId()): boolean {
    const c = this.record(id);
    const session = id ? this.sessions.get(id) : undefined;
    if (!c || !session) return false;
    // A 3-way call holds and resumes as one.
    const other = c.mergedWith ? this.sessions.get(c.mergedWith) : undefined;
    if (other) {
      const hold = c.state === 'active';
      for (const s of [session, other]) {
        if (hold) s.hold();
        else s.unhold();
      }
      return true;
    }
    if (c.state === 'active') return session.hold();
    if (c.state === 'hold') return this.accept(c.id, 'hold');
    return false;
  }

  toggleMute(id = this.currentId()): boolean {
    const c = this.record(id);
    const session = id ? this.sessions.get(id) : undefined;
    if (!c || !session || (c.state !== 'active' && c.state !== 'hold')) return false;
    if (c.muted) session.unmute({ audio: true });
    else session.mute({ audio: true });
    return true;
  }

  /**
   * DTMF on a connected call: in the audio stream (RFC 4733, what gateways, IVRs and rtpengine's
   * DTMF detection expect) when the call negotiated telephone-events, else by SIP INFO.
   */
  sendDtmf(digits: string, id = this.activeId()): boolean {
    const clean = dtmfDigits(digits);
    const c = this.record(id);
    const session = id ? this.sessions.get(id) : undefined;
    if (!clean || !c || !session || c.state !== 'active') return false;
    const sender = session.connection?.getSenders?.().find((s) => s.track?.kind === 'audio');
    const transportType = sender?.dtmf?.canInsertDTMF ? 'RFC2833' : 'INFO';
    this.deps.tones.dtmf(clean);
    try {
      session.sendDTMF(clean, { duration: DTMF_TONE_MS, interToneGap: DTMF_GAP_MS, transportType });
      return true;
    } catch (err) {
      log.error('DTMF failed', err);
      return false;
    }
  }

  activeId(): string | undefined {
    return Object.values(phone.calls).find((c) => c.state === 'active')?.id;
  }
}

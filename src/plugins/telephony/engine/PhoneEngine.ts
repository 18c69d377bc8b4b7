import type { ConnectionHandle, ConnectionReporter, Notifier, PresenceState, SpeedDialService, ToastInput } from '../../../kernel';
import { ApiError, type ApiClient } from '../../../kernel/api';
import { deskPhoneUri } from '../../../wire/calling';
import { CallRecordingSettings, nextRecordingAction, PlatformConfiguration, RecordingControlResponse } from '../../../wire/recording';
import { REG_CLIENT, REG_RENEW_SECONDS, RegActiveResponse, SipCredentialsResponse } from '../../../wire/services';
import type { CallItemAction } from '../model/callButtons';
import { ENDED_CALL_LINGER_MS, isBusyState, nextCallState, type CallEvent, type CallState } from '../model/callState';
import { dtmfDigits, parseDialString, sanitizeDialString, type DtmfStep } from '../model/dialString';
import { DTMF_GAP_MS, DTMF_TONE_MS } from '../model/tones';
import { phone, type CallEnd, type CallRecord, type PhoneStatus } from '../state';
import { callTarget } from './callTarget';
import type { Mixer } from './mixer';
import type { CallOptions, DeviceChoice, NewSessionEvent, ReferEvent, ReferLike, ReplacesEvent, RemoteAudio, SessionEndEvent, SessionLike, TabChannel, Tones, UaConfig, UaLike } from './types';

/** JsSIP's end/failure causes the engine tells apart (JsSIP.C.causes). */
const CAUSE = {
  mediaDenied: 'User Denied Media Access',
  canceled: 'Canceled',
  auth: 'Authentication Error',
} as const;

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

/** Audio only; Chromium gathers no loopback candidates and needs RTCP multiplexing with rtpengine. */
export const CALL_OPTIONS: CallOptions = {
  mediaConstraints: { audio: true, video: false },
  pcConfig: { iceServers: [], rtcpMuxPolicy: 'require' },
};

/** Credentials are renewed at this share of their remaining lifetime. */
const CREDENTIAL_RENEW_SHARE = 0.8;
const CREDENTIAL_RETRY_MS = 60_000;

export interface SipSettings {
  domain: string;
  register_expires: number;
  no_answer_timeout: number;
  restart_after_online_ms: number;
}

export interface EngineDeps {
  api: Pick<ApiClient, 'get' | 'post' | 'request'>;
  notify: Notifier;
  connections: ConnectionReporter;
  sip: SipSettings;
  /** The user's name, sent as the SIP display name. */
  displayName: string;
  /** An id for this tab, sent with every registration reservation. */
  peer: string;
  createUa(config: UaConfig): UaLike;
  audio: RemoteAudio;
  tones: Tones;
  /** Translates (the telephony strings are loaded before the engine starts). */
  t(key: string, values?: Record<string, unknown>): string;
  /** A contact's name for a number (ContactsApi), if any. */
  lookupName?(number: string): string | null | undefined;
  /** The user's own presence (PresenceApi), if any plugin provides it. */
  presence?(): PresenceState | undefined;
  /** Tells presence (PresenceApi) that the user is, or no longer is, on a call. */
  setOnCall?(onCall: boolean): void;
  speedDial?(): SpeedDialService | undefined;
  channel?: TabChannel | null;
  /** Where redial remembers the last dial string. */
  rememberDialled?(dial: string): void;
  /** Where the chosen microphone and speaker are remembered. */
  devices?: { load(): DeviceChoice; save(choice: DeviceChoice): void };
  /** Whether 3-way calling is allowed (feature flags, browser). */
  threeWay?(): boolean;
  /** The audio mixer of a 3-way call. */
  createMixer?(): Mixer;
  /** Desktop notifications of calls (when the user allowed them). */
  desktop?: DesktopNotifier;
  /** A microphone track (navigator.mediaDevices.getUserMedia in the browser). */
  getUserMedia?(constraints: MediaStreamConstraints): Promise<MediaStream>;
}

export type OthersPolicy = 'hold' | 'end';

/** Desktop notifications: a ringing call (click: to the call), a missed one (click: to history). */
export interface DesktopNotifier {
  incoming(callId: string, name: string): void;
  missed(callId: string, name: string): void;
  /** The call was answered, declined or ended: its ringing notification goes. */
  close(callId: string): void;
}

interface PendingOutgoing {
  id: string;
  number: string;
  displayName: string | null;
  dtmf: DtmfStep[];
  consultFor: string | null;
}

/** After a transfer fails (or its consultation call ends) its state shows this long, then resets. */
export const TRANSFER_RESET_MS = 2000;
/**
 * A microphone opened while the user types a number stays open this long waiting for the call
 * (the browser shows it in use meanwhile); then it is closed again.
 */
export const WARM_MIC_MS = 15_000;

const ENDED_BY: Readonly<Record<string, CallEnd>> = { declined: 'declined', missed: 'missed', failed: 'failed', transferred: 'transferred' };

/**
 * The phone: one JsSIP user agent registered while this tab holds the user's registration
 * (`/v1/regreserve`), with time-limited credentials renewed on the same connection, and every call's
 * state in the `phone` store, driven through the specification's state machine.
 */
export class PhoneEngine {
  private ua: UaLike | null = null;
  /** The user's own address (`sip:<extension>@<domain>`), from the last credentials. */
  private ownUri: string | null = null;
  private connection: ConnectionHandle | null = null;
  private readonly sessions = new Map<string, SessionLike>();
  private readonly callTimers = new Map<string, Array<ReturnType<typeof setTimeout>>>();
  private pending: PendingOutgoing | null = null;
  /** DTMF typed after commas in the dial string, sent once the call is answered. */
  private readonly afterConnect = new Map<string, DtmfStep[]>();
  private holdTimer: ReturnType<typeof setTimeout> | null = null;
  private credentialTimer: ReturnType<typeof setTimeout> | null = null;
  private onlineTimer: ReturnType<typeof setTimeout> | null = null;
  private elsewhereToast: string | null = null;
  private seq = 0;
  private disposed = false;
  private authRetried = false;
  /** Last value given to presence, so that it only hears of changes. */
  private onCall = false;
  /** Sessions that replace one of ours (an attended transfer to us), answered without ringing. */
  private readonly replacing = new WeakSet<SessionLike>();
  /** Calls handed over by a completed transfer: they end as "Transferred", not "Call ended". */
  private readonly transferred = new Set<string>();
  /** Set by the browser's `online` event: connected calls restart ICE once registered again. */
  private iceRestartPending = false;
  /** A call is being placed (its microphone is opening). */
  private placing = false;
  /** Outgoing calls not yet shown: they appear when their INVITE leaves (see track()). */
  private readonly unpublished = new Map<string, { record: CallRecord; publish: () => void }>();
  /** The microphone opened ahead of a call being dialled (warmMicrophone). */
  private warm: { stream: Promise<MediaStream | null>; timer: ReturnType<typeof setTimeout> } | null = null;
  /** Microphones opened for our outgoing calls, stopped when each call ends. */
  private readonly microphones = new Map<string, MediaStream>();
  /** The running 3-way call's mixer, if any. */
  private mixer: Mixer | null = null;
  /** Whether the server's last answer said this tab holds the registration. */
  private holding = false;

  constructor(private readonly deps: EngineDeps) {
    const chosen = deps.devices?.load();
    if (chosen) {
      phone.devices = { ...chosen };
      if (chosen.output) deps.audio.setSink(chosen.output);
    }
    deps.channel?.onMessage((m) => {
      // Another tab of this browser took the phone: learn it now rather than at the next renewal.
      if (m.type === 'takeover' && m.peer !== deps.peer) void this.renewHold();
    });
  }

  // ---- registration ownership -----------------------------------------------------------------

  start(): void {
    phone.status = 'connecting';
    void this.reserve(false);
    void this.loadRecordingPolicy();
  }

  /** Whether calls are recorded (always, on demand, never) and the phone digit sequences for it. */
  async loadRecordingPolicy(): Promise<void> {
    const [settings, platform] = await Promise.allSettled([
      this.deps.api.get('/v1/call-recording-settings', undefined, CallRecordingSettings),
      this.deps.api.get('/v1/platform-configuration', undefined, PlatformConfiguration),
    ]);
    if (this.disposed) return;
    if (settings.status === 'fulfilled' && settings.value) phone.recordingPolicy.mode = settings.value.ecr_call_recording_status;
    else if (settings.status === 'rejected') console.error('telephony: recording settings', settings.reason);
    if (platform.status === 'fulfilled' && platform.value) {
      phone.recordingPolicy.pauseSequence = platform.value.ecr_pause_recording_dtmf_sequence;
      phone.recordingPolicy.onDemandSequence = platform.value.ecr_on_demand_dtmf_sequence;
    }
  }

  /** "Use calling here": take the registration from whichever tab or browser holds it. */
  async takeOver(): Promise<void> {
    if (phone.status !== 'elsewhere') return;
    phone.status = 'connecting';
    await this.reserve(true);
  }

  private async reserve(takeover: boolean): Promise<void> {
    const res = await this.askHold(takeover);
    if (this.disposed || !res) return;
    this.holding = res.granted === true;
    if (res.granted) {
      // Only once the hold is ours, or a tab asking at once could still renew the old one.
      if (takeover) this.deps.channel?.post({ type: 'takeover', peer: this.deps.peer });
      this.clearElsewhere();
      if (!this.ua) await this.connectUa();
    } else {
      this.toElsewhere();
    }
    this.scheduleHoldRenewal();
  }

  /** The server's answer, or null when it failed (the reason is already shown or scheduled). */
  private async askHold(takeover: boolean): Promise<RegActiveResponse | null> {
    try {
      return await this.deps.api.post('/v1/regreserve', { peer: this.deps.peer, client: REG_CLIENT, ...(takeover ? { takeover: true } : {}) }, RegActiveResponse);
    } catch (err) {
      if (this.disposed) return null;
      if (err instanceof ApiError && err.status === 404) {
        phone.status = 'unconfigured';
        this.stopUa();
        return null;
      }
      console.error('telephony: registration reservation failed', err);
      if (!this.ua) {
        phone.status = 'error';
        this.reportConnection('error');
        this.scheduleHoldRenewal();
      }
      return null;
    }
  }

  private scheduleHoldRenewal(): void {
    if (this.holdTimer) clearTimeout(this.holdTimer);
    if (this.disposed || phone.status === 'unconfigured') return;
    this.holdTimer = setTimeout(() => void this.renewHold(), REG_RENEW_SECONDS * 1000);
  }

  /** Every REG_RENEW_SECONDS: keep the hold, notice that it was taken, or pick up a freed one. */
  async renewHold(): Promise<void> {
    if (this.disposed || phone.status === 'unconfigured') return;
    const res = await this.askHold(false);
    if (this.disposed) return;
    if (res) this.holding = res.granted === true;
    if (res?.granted) {
      if (!this.ua) {
        this.clearElsewhere();
        await this.connectUa();
      }
    } else if (res && this.ua) {
      this.lost();
    } else if (res) {
      this.toElsewhere();
    }
    this.scheduleHoldRenewal();
  }

  /** Another tab or browser took the registration over: stop here, and say so. */
  private lost(): void {
    const live = [...this.sessions.keys()].filter((id) => phone.calls[id]?.state !== 'none');
    this.stopUa();
    phone.status = 'elsewhere';
    this.showElsewhere(live.length ? 'telephony:notices.movedWithCalls' : 'telephony:notices.moved');
  }

  private toElsewhere(): void {
    // Told once per episode: a dismissed notice does not come back at every renewal.
    if (phone.status === 'elsewhere') return;
    this.stopUa();
    phone.status = 'elsewhere';
    this.showElsewhere('telephony:notices.elsewhere');
  }

  private showElsewhere(messageKey: string): void {
    if (this.elsewhereToast) this.deps.notify.dismiss(this.elsewhereToast);
    const toast: ToastInput = {
      tone: 'warning',
      titleKey: 'telephony:notices.elsewhereTitle',
      messageKey,
      timeoutMs: null,
      action: { labelKey: 'telephony:commands.takeOver', run: () => void this.takeOver() },
      onClose: () => {
        this.elsewhereToast = null;
      },
    };
    this.elsewhereToast = this.deps.notify.toast(toast);
  }

  private clearElsewhere(): void {
    if (this.elsewhereToast) this.deps.notify.dismiss(this.elsewhereToast);
    this.elsewhereToast = null;
  }

  // ---- the user agent -------------------------------------------------------------------------

  private async fetchCredentials(): Promise<SipCredentialsResponse> {
    return this.deps.api.get('/v1/sip-credentials', undefined, SipCredentialsResponse);
  }

  private async connectUa(): Promise<void> {
    phone.status = 'connecting';
    let creds: SipCredentialsResponse;
    try {
      creds = await this.fetchCredentials();
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        phone.status = 'unconfigured';
        return;
      }
      console.error('telephony: credentials', err);
      phone.status = 'error';
      this.reportConnection('error');
      return;
    }
    // The hold may have been lost while the credentials were on their way.
    if (this.disposed || this.ua || (phone.status as PhoneStatus) === 'elsewhere') return;
    this.ownUri = creds.uri;
    const ua = this.deps.createUa({
      wsUrl: creds.ws_url,
      uri: creds.uri,
      authorizationUser: creds.authorization_user,
      password: creds.password,
      displayName: this.deps.displayName,
      registerExpires: this.deps.sip.register_expires,
      noAnswerTimeout: this.deps.sip.no_answer_timeout,
    });
    this.ua = ua;
    this.authRetried = false;
    this.connection ??= this.deps.connections.register('telephony', 'telephony:connection', () => this.reconnect());
    const mine = (fn: () => void) => () => {
      if (this.ua === ua) fn();
    };
    ua.on('connecting', mine(() => this.reportConnection('connecting')));
    ua.on('registered', mine(() => {
      this.authRetried = false;
      phone.status = 'ready';
      this.reportConnection('connected');
      this.restartIce();
    }));
    ua.on('unregistered', mine(() => {
      phone.status = 'connecting';
    }));
    ua.on('registrationFailed', (e: { cause?: string }) => {
      if (this.ua !== ua) return;
      phone.status = 'error';
      this.reportConnection('error');
      // Credentials may have lapsed (a laptop that slept): fetch fresh ones once.
      if (e.cause === CAUSE.auth && !this.authRetried) {
        this.authRetried = true;
        void this.renewCredentials();
      }
    });
    ua.on('disconnected', mine(() => {
      phone.status = 'error';
      this.reportConnection('disconnected');
    }));
    ua.on('newRTCSession', (e: NewSessionEvent) => {
      if (this.ua === ua) this.track(e);
    });
    this.scheduleCredentialRenewal(creds.expires_at);
    ua.start();
  }

  private scheduleCredentialRenewal(expiresAt: string): void {
    if (this.credentialTimer) clearTimeout(this.credentialTimer);
    const left = Date.parse(expiresAt) - Date.now();
    const ms = Number.isFinite(left) ? Math.max(30_000, left * CREDENTIAL_RENEW_SHARE) : CREDENTIAL_RETRY_MS;
    this.credentialTimer = setTimeout(() => void this.renewCredentials(), ms);
  }

  /** New credentials on the same connection: calls in progress are not touched. */
  async renewCredentials(): Promise<void> {
    const ua = this.ua;
    if (!ua) return;
    try {
      const creds = await this.fetchCredentials();
      if (this.ua !== ua) return;
      ua.set('authorization_user', creds.authorization_user);
      ua.set('password', creds.password);
      ua.register();
      this.scheduleCredentialRenewal(creds.expires_at);
    } catch (err) {
      console.error('telephony: credential renewal failed', err);
      if (this.ua === ua) this.credentialTimer = setTimeout(() => void this.renewCredentials(), CREDENTIAL_RETRY_MS);
    }
  }

  /** The connection banner's retry, and the browser coming back online. */
  reconnect(): void {
    if (this.disposed || phone.status === 'elsewhere' || phone.status === 'unconfigured') return;
    const ua = this.ua;
    if (!ua) {
      void this.reserve(false);
    } else if (!ua.isConnected() && !this.hasLiveCalls()) {
      this.stopUa({ keepConnection: true });
      void this.connectUa();
    } else {
      ua.register();
    }
  }

  /** The browser's `online` event: the SIP agent restarts a little later (the network settles first). */
  online(): void {
    if (this.onlineTimer) clearTimeout(this.onlineTimer);
    // The network changed under any call in progress: its media path must be found again.
    this.iceRestartPending = true;
    this.onlineTimer = setTimeout(() => {
      this.onlineTimer = null;
      this.reconnect();
    }, this.deps.sip.restart_after_online_ms);
  }

  /**
   * After a network change, once SIP is registered again: an ICE restart (re-INVITE with new ICE
   * credentials) on every connected call, so its audio follows the new network instead of dying.
   */
  private restartIce(): void {
    if (!this.iceRestartPending) return;
    this.iceRestartPending = false;
    for (const [id, session] of this.sessions) {
      if (phone.calls[id]?.state !== 'active' || !session.renegotiate) continue;
      try {
        session.renegotiate({ rtcOfferConstraints: { iceRestart: true } });
      } catch (err) {
        console.error('telephony: ICE restart failed', err);
      }
    }
  }

  private stopUa(opts: { keepConnection?: boolean } = {}): void {
    if (this.credentialTimer) clearTimeout(this.credentialTimer);
    this.credentialTimer = null;
    const ua = this.ua;
    this.ua = null;
    // Stopping unregisters and ends every session; their `ended`/`failed` events still arrive.
    if (ua) ua.stop();
    if (!opts.keepConnection) {
      this.connection?.dispose();
      this.connection = null;
    }
  }

  private reportConnection(state: Parameters<ConnectionHandle['report']>[0]): void {
    this.connection?.report(state);
  }

  /**
   * Gives the registration hold back (the tab is closing or the user signs out), so that the
   * user's other tab or browser gets the phone at its next renewal instead of 90 s later. Sent with
   * keepalive: it must outlive the page.
   */
  releaseHold(): void {
    if (!this.holding) return;
    this.holding = false;
    this.deps.api
      .request('POST', '/v1/regreserve', { body: { peer: this.deps.peer, client: REG_CLIENT, release: true }, keepalive: true })
      .catch((err: unknown) => console.error('telephony: releasing the registration failed', err));
  }

  dispose(): void {
    this.disposed = true;
    this.dropWarmMicrophone();
    for (const t of [this.holdTimer, this.onlineTimer]) if (t) clearTimeout(t);
    for (const id of [...this.callTimers.keys()]) this.clearCallTimers(id);
    this.stopUa();
    this.clearElsewhere();
    this.deps.tones.ring(false);
    this.deps.tones.ringback(false);
    this.deps.channel?.close();
  }

  // ---- calls ----------------------------------------------------------------------------------

  private hasLiveCalls(): boolean {
    return Object.values(phone.calls).some((c) => c.state !== 'none');
  }

  private record(id: string | undefined): CallRecord | undefined {
    return id ? phone.calls[id] : undefined;
  }

  private nameOf(c: CallRecord): string {
    return c.displayName || c.number;
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

  private error(messageKey: string, values?: Record<string, unknown>): void {
    this.toast({ tone: 'error', titleKey: 'telephony:errors.cannotCallTitle', messageKey, values });
  }

  /**
   * Places a call. `target` is what the user typed or picked: a number (sanitised to digits, comma,
   * # and *; commas add DTMF after 2 s each), `#<shortcut>` for speed dial, or a `sip:` address.
   */
  async call(target: string, opts: { displayName?: string; consultFor?: string } = {}): Promise<void> {
    if (phone.status === 'unconfigured') return this.error('telephony:reasons.notConfigured');
    if (phone.status === 'elsewhere') return this.showElsewhere('telephony:notices.elsewhere');
    let number: string;
    let dtmf: DtmfStep[] = [];
    let dialled: string;
    if (/^sips?:/i.test(target.trim())) {
      number = target.trim();
      dialled = number;
    } else {
      let plan = parseDialString(target);
      dialled = sanitizeDialString(target);
      if (plan.kind === 'speedDial') {
        const service = this.deps.speedDial?.();
        if (!service) return this.error('telephony:errors.noSpeedDial');
        const resolved = await service.resolve(plan.shortcut).catch(() => null);
        if (!resolved) return this.error('telephony:errors.unknownShortcut', { shortcut: plan.shortcut });
        plan = parseDialString(resolved);
        if (plan.kind === 'speedDial') return this.error('telephony:errors.unknownShortcut', { shortcut: plan.shortcut });
      }
      if (plan.kind === 'empty') return this.error('telephony:errors.emptyNumber');
      number = plan.number;
      dtmf = plan.dtmf;
    }
    if (this.allCalls().some((c) => isBusyState(c.state) && c.id !== opts.consultFor)) return this.error('telephony:reasons.busy');
    const ua = this.ua;
    if (!ua || phone.status !== 'ready') return this.error('telephony:reasons.notReady');
    const id = this.newId();
    const displayName = opts.displayName || this.deps.lookupName?.(number) || null;
    // The microphone opens first, while nothing else is going on: JsSIP would only ask for it after
    // setting the call up, and the dock's first paint would then delay the INVITE as well.
    // A second press while the microphone opens must not place a second call.
    if (this.placing) return;
    this.placing = true;
    const microphone = await this.openMicrophone().finally(() => (this.placing = false));
    if (microphone === 'denied') return;
    if (this.ua !== ua || phone.status !== 'ready') {
      microphone?.getTracks().forEach((t) => t.stop());
      return this.error('telephony:reasons.notReady');
    }
    this.pending = { id, number, displayName, dtmf, consultFor: opts.consultFor ?? null };
    if (microphone) this.microphones.set(id, microphone);
    try {
      ua.call(number.includes(':') ? number : `sip:${number}@${this.deps.sip.domain}`, microphone ? { ...this.callOptions(), mediaStream: microphone } : this.callOptions());
    } catch (err) {
      console.error('telephony: call failed to start', err);
      this.microphones.get(id)?.getTracks().forEach((t) => t.stop());
      this.microphones.delete(id);
      this.toast({ tone: 'error', titleKey: 'telephony:errors.callFailedTitle', messageKey: 'telephony:errors.callFailed.other', values: { name: displayName || number } });
    } finally {
      this.pending = null;
    }
    phone.lastDialled = dialled;
    this.deps.rememberDialled?.(dialled);
  }

  /** "Call ▸" from the palette: typed text, or a contact picked from the contacts provider. */
  callChoice(value: unknown): Promise<void> {
    const target = callTarget(value);
    if (!target) {
      this.error('telephony:errors.noNumber');
      return Promise.resolve();
    }
    return this.call(target.target, { displayName: target.displayName });
  }

  /** The calls on show and those whose INVITE is still being prepared. */
  private allCalls(): CallRecord[] {
    return [...Object.values(phone.calls), ...[...this.unpublished.values()].map((u) => u.record)];
  }

  private newId(): string {
    return `c${Date.now().toString(36)}${++this.seq}`;
  }

  private track({ originator, session }: NewSessionEvent): void {
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
      e.accept(undefined, this.callOptions());
    });
    session.on('replaces', (e: ReplacesEvent) => e.accept((next) => void this.replacing.add(next)));
    const name = this.nameOf(record);
    if (outgoing) {
      // Shown once JsSIP hands the INVITE over (its 'sending' event): drawing the new call in the
      // dock would otherwise take the main thread while the offer is being made, delaying the
      // INVITE. A call that fails before that is shown then (finish()).
      const publish = () => {
        if (!this.unpublished.delete(id)) return;
        phone.calls[id] = record;
        this.deps.notify.announce(this.deps.t('telephony:announce.calling', { name }), 'polite');
        this.reflectCalls();
      };
      this.unpublished.set(id, { record, publish });
      session.on('sending', publish);
      return;
    }
    phone.calls[id] = record;
    if (replacing) {
      this.transition(id, 'answer');
      session.answer(this.callOptions());
      this.deps.notify.announce(this.deps.t('telephony:announce.transferredIn', { name }), 'assertive');
      return;
    }
    this.deps.notify.announce(this.deps.t('telephony:announce.incoming', { name }), 'assertive');
    this.deps.desktop?.incoming(id, name);
    this.reflectCalls();
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
      this.deps.notify.announce(this.deps.t('telephony:announce.connected', { name: this.nameOf(c) }), 'polite');
      this.scheduleDialDtmf(id);
    } else if (event === 'hold' || event === 'unhold') {
      this.deps.notify.announce(this.deps.t(next === 'hold' ? 'telephony:announce.held' : 'telephony:announce.resumed', { name: this.nameOf(c) }), 'polite');
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

  private addCallTimer(id: string, t: ReturnType<typeof setTimeout>): void {
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
    const name = this.nameOf(c);
    let how: CallEnd = 'ended';
    if (e.cause === CAUSE.mediaDenied) {
      how = 'failed';
      this.toast({ tone: 'error', titleKey: 'telephony:errors.deviceDenied', messageKey: 'telephony:errors.pleaseReload', timeoutMs: 10_000 });
    } else if (this.transferred.delete(id)) {
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
    this.unlinkConsultation(c);
    if (c.mergedWith) this.unmerge(id);
    this.deps.notify.announce(this.deps.t(`telephony:announce.${how}`, { name }), 'polite');
    this.deps.desktop?.close(id);
    if (how === 'missed') this.deps.desktop?.missed(id, name);
    this.sessions.delete(id);
    this.afterConnect.delete(id);
    this.clearCallTimers(id);
    this.deps.audio.detach(id);
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
    this.deps.tones.ringback(calls.some((c) => c.state === 'outgoing'));
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
      session.answer(this.callOptions());
    } else {
      session.unhold();
    }
    return true;
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
    // In a 3-way call both legs carry the mixed audio: the microphone is muted in the mix.
    if (c.mergedWith && this.mixer) {
      const muted = !c.muted;
      this.mixer.setMuted(muted);
      for (const leg of [c, this.record(c.mergedWith)]) if (leg) leg.muted = muted;
      return true;
    }
    if (c.muted) session.unmute({ audio: true });
    else session.mute({ audio: true });
    return true;
  }

  /**
   * Merges the held call `id` with the connected one into a 3-way call: the held call is resumed
   * and the audio of each leg mixed into the other (see mixer.ts). Needs the 3-way feature flags;
   * not while a 3-way call exists.
   */
  async merge(id = this.heldId()): Promise<boolean> {
    const held = this.record(id);
    const active = Object.values(phone.calls).find((c) => c.state === 'active' && c.id !== id);
    const heldSession = id ? this.sessions.get(id) : undefined;
    const activeSession = active ? this.sessions.get(active.id) : undefined;
    if (!held || held.state !== 'hold' || !active || !heldSession || !activeSession || this.mixer || !this.deps.threeWay?.() || !this.deps.createMixer) return false;
    heldSession.unhold();
    const mixer = this.deps.createMixer();
    this.mixer = mixer;
    held.mergedWith = active.id;
    active.mergedWith = held.id;
    try {
      await mixer.start([
        { id: active.id, pc: activeSession.connection! },
        { id: held.id, pc: heldSession.connection! },
      ]);
      if (active.muted || held.muted) {
        mixer.setMuted(true);
        active.muted = held.muted = true;
      }
      this.deps.notify.announce(this.deps.t('telephony:announce.merged', { a: this.nameOf(active), b: this.nameOf(held) }), 'polite');
      return true;
    } catch (err) {
      console.error('telephony: merging failed', err);
      this.unmerge(active.id);
      this.toast({ tone: 'error', titleKey: 'telephony:errors.mergeTitle', messageKey: 'telephony:errors.mergeFailed' });
      return false;
    }
  }

  /** The newest call on hold (what "Merge calls" merges with the connected one). */
  heldId(): string | undefined {
    return Object.values(phone.calls)
      .filter((c) => c.state === 'hold')
      .sort((a, b) => b.seq - a.seq)[0]?.id;
  }

  /** Ends the 3-way mix: each remaining leg gets its own microphone back. */
  private unmerge(id: string): void {
    const c = phone.calls[id];
    const other = c?.mergedWith ? phone.calls[c.mergedWith] : undefined;
    if (c) c.mergedWith = null;
    if (other) other.mergedWith = null;
    this.mixer?.stop();
    this.mixer = null;
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
      console.error('telephony: DTMF failed', err);
      return false;
    }
  }

  /**
   * The recording button: Start, then Pause and Resume in turn (policy `on_demand`, or pausing a
   * forced recording under `on`). The server answers with the call's real recording state.
   */
  async toggleRecording(id = this.currentId()): Promise<boolean> {
    const c = this.record(id);
    if (!c || (c.state !== 'active' && c.state !== 'hold') || !c.sipCallId) return false;
    const action = nextRecordingAction(c.recording, phone.recordingPolicy.mode);
    if (!action) return false;
    try {
      const res = await this.deps.api.post(`/v1/calls/${encodeURIComponent(c.sipCallId)}/recording`, { action }, RecordingControlResponse);
      const now = this.record(c.id);
      if (now && now.state !== 'none') now.recording = res.state;
      this.deps.notify.announce(this.deps.t(`telephony:announce.recording.${res.state}`, { name: this.nameOf(c) }), 'polite');
      return true;
    } catch (err) {
      this.toast({ tone: 'error', titleKey: 'telephony:errors.recordingTitle', ...(err instanceof ApiError ? { message: err.message } : { messageKey: 'telephony:errors.recordingFailed' }) });
      return false;
    }
  }

  // ---- transfers --------------------------------------------------------------------------------

  /** The call a transfer acts on: connected or held, and not itself a consultation call. */
  private transferable(id: string | undefined): { c: CallRecord; session: SessionLike } | null {
    const c = this.record(id);
    const session = id ? this.sessions.get(id) : undefined;
    if (!c || !session || (c.state !== 'active' && c.state !== 'hold') || c.consultFor) return null;
    return { c, session };
  }

  /** The call a transfer with no id means: the connected call, else the newest held one. */
  transferId(): string | undefined {
    const calls = Object.values(phone.calls).filter((c) => !c.consultFor && (c.state === 'active' || c.state === 'hold'));
    return (calls.find((c) => c.state === 'active') ?? calls.sort((a, b) => b.seq - a.seq)[0])?.id;
  }

  private transferUri(target: string): { uri: string; label: string } | null {
    const t = target.trim();
    if (/^sips?:/i.test(t)) return { uri: t, label: t };
    const plan = parseDialString(t);
    if (plan.kind !== 'number') return null;
    return { uri: `sip:${plan.number}@${this.deps.sip.domain}`, label: this.deps.lookupName?.(plan.number) || plan.number };
  }

  /** The call to transfer and where to, or null after telling the user why not. */
  private transferOf(target: string, id: string | undefined): { t: { c: CallRecord; session: SessionLike }; to: { uri: string; label: string } } | null {
    const t = this.transferable(id);
    if (!t) {
      this.error('telephony:errors.noActiveCall');
      return null;
    }
    const to = this.transferUri(target);
    if (!to) {
      this.error('telephony:errors.emptyNumber');
      return null;
    }
    return { t, to };
  }

  /**
   * Blind transfer: the call is held and its far end asked (REFER) to call `target`; our leg ends
   * once that call is answered. On failure the call stays held, to be resumed or transferred again.
   */
  blindTransfer(target: string, id = this.transferId()): boolean {
    const prepared = this.transferOf(target, id);
    if (!prepared) return false;
    this.referBlind(prepared.t, prepared.to);
    return true;
  }

  /**
   * Move the call to the user's own desk phone: a blind transfer to their extension marked
   * `;device=desk`, which Kamailio rings on their phones that are not browsers only. Until the desk
   * phone is picked up the call stays here, held; if it is not, the call can be resumed.
   */
  moveToDesk(id = this.transferId()): boolean {
    const t = this.transferable(id);
    if (!t) {
      this.error('telephony:errors.noActiveCall');
      return false;
    }
    const extension = this.ownUri?.match(/^sips?:([^@;]+)@/)?.[1];
    if (!extension) return false;
    this.referBlind(t, { uri: deskPhoneUri(extension, this.deps.sip.domain), label: this.deps.t('telephony:transfer.deskPhone') });
    return true;
  }

  private referBlind(t: { c: CallRecord; session: SessionLike }, to: { uri: string; label: string }): void {
    if (t.c.state === 'active') t.session.hold();
    t.c.transfer = { kind: 'blind', target: to.label, status: 'pending' };
    this.deps.notify.announce(this.deps.t('telephony:announce.transferring', { name: this.nameOf(t.c), to: to.label }), 'polite');
    this.sendRefer(t.c.id, t.session, to.uri);
  }

  /**
   * Transfer to a colleague's voicemail: a blind transfer to their extension followed by `*`
   * (specification), which Kamailio sends to the voicemail phone. Only extensions have mailboxes.
   */
  transferToVoicemail(target: string, id = this.transferId()): boolean {
    const plan = parseDialString(target.trim());
    if (plan.kind !== 'number' || !/^[0-9]{1,5}$/.test(plan.number)) {
      this.error('telephony:errors.voicemailNeedsExtension');
      return false;
    }
    const call = this.transferable(id)?.c;
    if (!this.blindTransfer(`${plan.number}*`, id)) return false;
    // Shown and announced as the person's voicemail, not as "1002*".
    if (call?.transfer) call.transfer.target = this.deps.t('telephony:transfer.voicemailOf', { name: this.deps.lookupName?.(plan.number) || plan.number });
    return true;
  }

  /** Attended transfer, first step: hold the call and call `target` to talk first. */
  async startAttendedTransfer(target: string, id = this.transferId()): Promise<boolean> {
    const prepared = this.transferOf(target, id);
    if (!prepared) return false;
    const { t, to } = prepared;
    if (Object.values(phone.calls).some((c) => c.consultFor === t.c.id && c.state !== 'none')) return false;
    if (t.c.state === 'active') t.session.hold();
    t.c.transfer = { kind: 'attended', target: to.label, status: 'pending' };
    await this.call(target, { consultFor: t.c.id });
    // The consultation call could not even start (the error is shown): nothing is pending any more.
    if (!this.allCalls().some((c) => c.consultFor === t.c.id)) t.c.transfer = null;
    return true;
  }

  /** The consultation call of a pending attended transfer (by its id, or the original's), if any. */
  private consultation(id?: string): CallRecord | undefined {
    const all = Object.values(phone.calls).filter((c) => c.consultFor && c.state !== 'none');
    return id ? all.find((c) => c.id === id || c.consultFor === id) : all[0];
  }

  /**
   * Attended transfer, completion: the held caller is asked (REFER with Replaces) to take over our
   * consultation call, so the two talk to each other and both our legs end.
   */
  completeTransfer(id?: string): boolean {
    const consult = this.consultation(id);
    const original = consult?.consultFor ? this.record(consult.consultFor) : undefined;
    const consultSession = consult ? this.sessions.get(consult.id) : undefined;
    const originalSession = original ? this.sessions.get(original.id) : undefined;
    if (!consult || !original || !consultSession || !originalSession || consult.state !== 'active') return false;
    const uri = consult.number.includes(':') ? consult.number : `sip:${consult.number}@${this.deps.sip.domain}`;
    this.sendRefer(original.id, originalSession, uri, consultSession, consult.id);
    return true;
  }

  /** Attended transfer, given up: the consultation call ends and the original call resumes. */
  cancelTransfer(id?: string): boolean {
    const consult = this.consultation(id);
    const original = consult?.consultFor ? this.record(consult.consultFor) : undefined;
    if (!consult || !original) return false;
    original.transfer = null;
    consult.consultFor = null;
    this.hangup(consult.id);
    if (original.state === 'hold') this.sessions.get(original.id)?.unhold();
    return true;
  }

  private sendRefer(id: string, session: SessionLike, uri: string, replaces?: SessionLike, consultId?: string): void {
    let refer: ReferLike | false;
    try {
      refer = session.refer(uri, replaces ? { replaces } : undefined);
    } catch (err) {
      console.error('telephony: REFER failed', err);
      refer = false;
    }
    if (!refer) return this.transferFailed(id);
    let settled = false;
    const fail = () => {
      if (settled) return;
      settled = true;
      this.transferFailed(id);
    };
    refer.on('requestFailed', fail);
    refer.on('failed', fail);
    refer.on('accepted', () => {
      if (settled) return;
      settled = true;
      // The far end reached the target: our part is over.
      for (const leg of [id, consultId]) {
        if (!leg || !this.sessions.has(leg)) continue;
        this.transferred.add(leg);
        this.hangup(leg);
      }
    });
  }

  /** SERVICE_SIP.TRANSFER_FAILED_MESSAGE; the call stays (held) and the transfer state resets after 2 s. */
  private transferFailed(id: string): void {
    const c = phone.calls[id];
    if (!c || !c.transfer) return;
    this.toast({ tone: 'error', titleKey: 'telephony:errors.transferFailedTitle', messageKey: 'telephony:errors.transferFailed', values: { name: this.nameOf(c), to: c.transfer.target } });
    this.markTransferFailed(c);
  }

  /** Shows the transfer as failed, then forgets it after TRANSFER_RESET_MS. */
  private markTransferFailed(c: CallRecord): void {
    if (!c.transfer) return;
    c.transfer.status = 'failed';
    this.addCallTimer(
      c.id,
      setTimeout(() => {
        const now = phone.calls[c.id];
        if (now?.transfer?.status === 'failed') now.transfer = null;
      }, TRANSFER_RESET_MS),
    );
  }

  /** A consultation call or its original ended: the other one is on its own again. */
  private unlinkConsultation(ended: CallRecord): void {
    if (ended.consultFor) {
      const original = phone.calls[ended.consultFor];
      ended.consultFor = null;
      if (original?.transfer?.kind === 'attended' && !this.transferred.has(original.id)) this.markTransferFailed(original);
    }
    for (const other of Object.values(phone.calls)) if (other.consultFor === ended.id) other.consultFor = null;
  }

  // ---- audio devices ------------------------------------------------------------------------------

  /**
   * The call's microphone, opened by us (so that its tracks are ours to stop when the call ends);
   * null where the engine has no getUserMedia of its own (JsSIP then asks), 'denied' when refused.
   */
  private async openMicrophone(): Promise<MediaStream | null | 'denied'> {
    if (!this.deps.getUserMedia) return null;
    const warm = this.warm;
    if (warm) {
      this.warm = null;
      clearTimeout(warm.timer);
      const stream = await warm.stream;
      if (stream?.getAudioTracks().some((t) => t.readyState === 'live')) return stream;
    }
    try {
      return await this.deps.getUserMedia(this.callOptions().mediaConstraints);
    } catch (err) {
      console.error('telephony: microphone', err);
      this.toast({ tone: 'error', titleKey: 'telephony:errors.deviceDenied', messageKey: 'telephony:errors.pleaseReload', timeoutMs: 10_000 });
      return 'denied';
    }
  }

  /**
   * The user started dialling: open the microphone now, so that placing the call does not wait for
   * it (getUserMedia is the largest part of click → INVITE). Not while a call is in progress (its
   * own microphone is open); closed again after WARM_MIC_MS if no call uses it.
   */
  warmMicrophone(): void {
    if (!this.deps.getUserMedia || this.warm || this.disposed || phone.status !== 'ready') return;
    if (Object.values(phone.calls).some((c) => c.state !== 'none')) return;
    const stream = this.deps.getUserMedia(this.callOptions().mediaConstraints).catch(() => null);
    this.warm = { stream, timer: setTimeout(() => this.dropWarmMicrophone(), WARM_MIC_MS) };
  }

  private dropWarmMicrophone(): void {
    const w = this.warm;
    if (!w) return;
    this.warm = null;
    clearTimeout(w.timer);
    void w.stream.then((s) => s?.getTracks().forEach((t) => t.stop()));
  }

  /** CALL_OPTIONS with the chosen microphone, if any. */
  callOptions(): CallOptions {
    const input = phone.devices.input;
    return input ? { ...CALL_OPTIONS, mediaConstraints: { audio: { deviceId: { exact: input } }, video: false } } : CALL_OPTIONS;
  }

  private saveDevices(): void {
    this.deps.devices?.save({ input: phone.devices.input, output: phone.devices.output });
  }

  /**
   * Uses another microphone, remembered for the next calls and switched in every live call
   * without renegotiation (RTCRtpSender.replaceTrack): the far end hears no gap worth noticing.
   */
  async setInputDevice(deviceId: string | null): Promise<boolean> {
    phone.devices.input = deviceId;
    this.dropWarmMicrophone();
    this.saveDevices();
    const live = [...this.sessions.entries()].filter(([id]) => {
      const state = phone.calls[id]?.state;
      return state === 'active' || state === 'hold';
    });
    if (!live.length) return true;
    const getUserMedia = this.deps.getUserMedia ?? ((c: MediaStreamConstraints) => navigator.mediaDevices.getUserMedia(c));
    try {
      for (const [id, session] of live) {
        const sender = session.connection?.getSenders().find((s) => s.track?.kind === 'audio' || s.track === null);
        if (!sender) continue;
        const stream = await getUserMedia({ audio: deviceId ? { deviceId: { exact: deviceId } } : true, video: false });
        const track = stream.getAudioTracks()[0];
        if (!track) continue;
        // A muted (or held) call stays silent on the new microphone.
        track.enabled = sender.track?.enabled ?? !phone.calls[id]?.muted;
        const old = sender.track;
        await sender.replaceTrack(track);
        old?.stop();
      }
      return true;
    } catch (err) {
      console.error('telephony: switching the microphone failed', err);
      this.toast({ tone: 'error', titleKey: 'telephony:errors.deviceTitle', messageKey: 'telephony:errors.microphoneFailed' });
      return false;
    }
  }

  /** Plays calls on another speaker (now and for the next calls). */
  setOutputDevice(deviceId: string | null): void {
    phone.devices.output = deviceId;
    this.saveDevices();
    this.deps.audio.setSink(deviceId);
  }

  activeId(): string | undefined {
    return Object.values(phone.calls).find((c) => c.state === 'active')?.id;
  }

  /** The call item buttons of the specification (merge is not offered yet). */
  itemAction(id: string, action: CallItemAction): boolean {
    const c = this.record(id);
    if (!c) return false;
    switch (action) {
      case 'accept':
      case 'holdAndAccept':
      case 'swap':
        return this.accept(id, 'hold');
      case 'endAndAccept':
        return this.accept(id, 'end');
      case 'end':
        return this.hangup(id);
      case 'dismiss':
        return c.state === 'incoming' ? this.decline(id) : this.hangup(id);
      case 'merge':
        void this.merge(id);
        return true;
    }
  }
}

/**
 * Runs INSIDE the test browser page (bundled with JsSIP by tests/services/sip-page.ts): one JsSIP
 * UA over WebSocket, calls out, answers every incoming call, and reports each session's state and
 * the bytes its RTCPeerConnection received. The Node side drives it through `window.sipPage`.
 */
import * as JsSIP from 'jssip';
import type { DTMF_TRANSPORT } from 'jssip/lib/Constants';
import type { RTCSession } from 'jssip/lib/RTCSession';
import type { RTCSessionEvent } from 'jssip/lib/UA';

export interface PageCredentials {
  wsUrl: string;
  /** Several Kamailios (a cluster): JsSIP's own failover, the highest weight first. Replaces wsUrl. */
  sockets?: Array<{ url: string; weight: number }>;
  uri: string;
  authorization_user: string;
  password: string;
}

export interface PageSessionState {
  key: string;
  direction: 'incoming' | 'outgoing';
  /** The SIP Call-ID of the dialog. */
  callId: string;
  remote: string;
  confirmed: boolean;
  /** A provisional response with SDP arrived (183 Session Progress: early media). */
  earlyMedia: boolean;
  ended: boolean;
  /** `ended`/`failed` cause, with the response status when there was one. */
  endCause: string | null;
  endStatus: number | null;
}

export interface SipPageApi {
  register(creds: PageCredentials, timeoutMs: number): Promise<void>;
  call(target: string): string;
  sessions(): PageSessionState[];
  waitFor(key: string, what: 'confirmed' | 'ended', timeoutMs: number): Promise<PageSessionState>;
  waitForIncoming(timeoutMs: number): Promise<PageSessionState>;
  inboundBytes(key: string): Promise<number>;
  hangup(key: string): void;
  /** Sends DTMF in the media (RFC 4733 events through rtpengine), with the product's timing. */
  /** Resolves once the tones are queued: after the call's media can carry them. */
  dtmf(key: string, tones: string): Promise<void>;
  /** How incoming calls are met from now on: answered (the default), refused with 486 Busy Here, declined (603), or left ringing. */
  setIncoming(mode: IncomingMode): void;
  /** From now on the call sends a pure tone of `hz` instead of the (fake) microphone. */
  sendTone(key: string, hz: number): Promise<void>;
  /** The loudest frequency of what the call receives now, and its level in dB (−Infinity: silence). */
  receivedPeak(key: string): Promise<{ hz: number; db: number }>;
  /** Puts the call on hold or takes it off (a re-INVITE); resolves once it succeeded, fails if the call ended instead. */
  hold(key: string, on: boolean, timeoutMs: number): Promise<void>;
  /** The WebSocket URL of each successful registration, in order (a failover re-registers elsewhere). */
  registrations(): string[];
  stop(): Promise<void>;
}

declare global {
  interface Window {
    sipPage: SipPageApi;
  }
}

const PC_CONFIG: RTCConfiguration = { iceServers: [], rtcpMuxPolicy: 'require' };
const MEDIA = { audio: true, video: false };

let ua: JsSIP.UA | null = null;
const registrations: string[] = [];
let domain = '';
const sessions = new Map<string, { session: RTCSession; state: PageSessionState; waiters: Array<() => void> }>();
const incomingWaiters: Array<(s: PageSessionState) => void> = [];
let counter = 0;
type IncomingMode = 'answer' | 'busy' | 'decline' | 'ring';
let incomingMode: IncomingMode = 'answer';
let lastOutgoingCallId = '';
let audio: AudioContext | null = null;
const analysers = new Map<string, AnalyserNode>();

function notify(key: string): void {
  const entry = sessions.get(key);
  if (!entry) return;
  for (const w of entry.waiters.splice(0)) w();
}

function track(session: RTCSession, direction: 'incoming' | 'outgoing', callId: string): PageSessionState {
  const key = `s${++counter}`;
  const state: PageSessionState = {
    key,
    direction,
    callId,
    remote: session.remote_identity?.uri?.toString() ?? '',
    confirmed: false,
    earlyMedia: false,
    ended: false,
    endCause: null,
    endStatus: null,
  };
  const entry = { session, state, waiters: [] as Array<() => void> };
  sessions.set(key, entry);
  session.on('progress', (e: { originator: string; response?: { body?: string } | null }) => {
    if (e.originator !== 'remote' || !e.response?.body) return;
    state.earlyMedia = true;
    notify(key);
  });
  session.on('confirmed', () => {
    state.confirmed = true;
    notify(key);
  });
  const end = (e: { cause?: string; message?: unknown }) => {
    state.ended = true;
    state.endCause = e.cause ?? null;
    const status = (e.message as { status_code?: number } | null | undefined)?.status_code;
    state.endStatus = typeof status === 'number' ? status : null;
    notify(key);
  };
  session.on('ended', end);
  session.on('failed', end);
  return state;
}

function entryOf(key: string) {
  const entry = sessions.get(key);
  if (!entry) throw new Error(`no session ${key}`);
  return entry;
}

function deadline<T>(ms: number, what: string, work: (done: (v: T) => void, fail: (e: Error) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
    work(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

window.sipPage = {
  setIncoming(mode) {
    incomingMode = mode;
  },
  register(creds, timeoutMs) {
    if (ua) throw new Error('already registered');
    domain = creds.uri.split('@')[1] ?? '';
    const agent = new JsSIP.UA({
      sockets: creds.sockets ? creds.sockets.map((s) => ({ socket: new JsSIP.WebSocketInterface(s.url), weight: s.weight })) : [new JsSIP.WebSocketInterface(creds.wsUrl)],
      uri: creds.uri,
      authorization_user: creds.authorization_user,
      password: creds.password,
      register: true,
      register_expires: 300,
      session_timers: true,
    });
    ua = agent;
    agent.on('newRTCSession', (e: RTCSessionEvent) => {
      if (e.originator === 'local') {
        // Emitted synchronously inside ua.call(): the Call-ID of the INVITE being sent.
        lastOutgoingCallId = e.request.call_id;
        return;
      }
      const state = track(e.session, 'incoming', e.request.getHeader('Call-ID'));
      if (incomingMode === 'busy') e.session.terminate({ status_code: 486, reason_phrase: 'Busy Here' });
      else if (incomingMode === 'decline') e.session.terminate({ status_code: 603, reason_phrase: 'Decline' });
      else if (incomingMode === 'answer') e.session.answer({ mediaConstraints: MEDIA, pcConfig: PC_CONFIG });
      for (const w of incomingWaiters.splice(0)) w(state);
    });
    return deadline<void>(timeoutMs, 'registration', (done, fail) => {
      agent.on('registered', () => {
        registrations.push((agent as unknown as { _transport: { socket: { url: string } } })._transport.socket.url);
        done();
      });
      agent.on('registrationFailed', (e) => fail(new Error(`registration failed: ${e.cause} ${e.response?.status_code ?? ''}`)));
      agent.start();
    });
  },

  call(target) {
    if (!ua) throw new Error('not registered');
    lastOutgoingCallId = '';
    const session = ua.call(target.startsWith('sip:') ? target : `sip:${target}@${domain}`, { mediaConstraints: MEDIA, pcConfig: PC_CONFIG });
    if (!lastOutgoingCallId) throw new Error('JsSIP announced no outgoing session');
    return track(session, 'outgoing', lastOutgoingCallId).key;
  },

  sessions: () => [...sessions.values()].map((e) => ({ ...e.state })),

  registrations: () => [...registrations],

  hold(key, on, timeoutMs) {
    const entry = entryOf(key);
    return deadline<void>(timeoutMs, `${key} ${on ? 'hold' : 'unhold'}`, (done, fail) => {
      // JsSIP ends the call when the re-INVITE fails ("Hold Failed"): that is the failure to report.
      const ended = () => (entry.state.ended ? fail(new Error(`${key} ended: ${entry.state.endCause} ${entry.state.endStatus ?? ''}`)) : entry.waiters.push(ended));
      entry.waiters.push(ended);
      const started = on ? entry.session.hold({}, () => done()) : entry.session.unhold({}, () => done());
      if (!started) fail(new Error(`${key}: JsSIP would not ${on ? 'hold' : 'unhold'} now`));
    });
  },

  waitFor(key, what, timeoutMs) {
    const entry = entryOf(key);
    return deadline<PageSessionState>(timeoutMs, `${key} ${what}`, (done) => {
      const check = () => {
        if (what === 'confirmed' && entry.state.ended) return done({ ...entry.state });
        if (entry.state[what]) return done({ ...entry.state });
        entry.waiters.push(check);
      };
      check();
    });
  },

  waitForIncoming(timeoutMs) {
    return deadline<PageSessionState>(timeoutMs, 'an incoming call', (done) => {
      const waiting = [...sessions.values()].find((e) => e.state.direction === 'incoming' && !e.state.ended);
      if (waiting) done({ ...waiting.state });
      else incomingWaiters.push((s) => done({ ...s }));
    });
  },

  async inboundBytes(key) {
    const pc = entryOf(key).session.connection;
    if (!pc) return 0;
    let bytes = 0;
    (await pc.getStats()).forEach((report: { type: string; kind?: string; bytesReceived?: number }) => {
      if (report.type === 'inbound-rtp' && report.kind === 'audio') bytes += report.bytesReceived ?? 0;
    });
    return bytes;
  },

  async dtmf(key, tones) {
    const { session } = entryOf(key);
    // An answered call's audio sender takes tones only once its transport is up, which lags the
    // answer on a busy machine: wait for it (sendDTMF would throw InvalidStateError meanwhile).
    await deadline<void>(10_000, 'the call to carry tones', (done) => {
      const ready = () => session.connection?.getSenders().some((s) => s.track?.kind === 'audio' && s.dtmf?.canInsertDTMF) === true;
      if (ready()) return done();
      const pc = session.connection;
      const check = () => {
        if (!ready()) return;
        pc?.removeEventListener('connectionstatechange', check);
        pc?.removeEventListener('iceconnectionstatechange', check);
        done();
      };
      pc?.addEventListener('connectionstatechange', check);
      pc?.addEventListener('iceconnectionstatechange', check);
    });
    // In the media, where rtpengine hears it (SIP INFO would only reach the other phone).
    session.sendDTMF(tones, { transportType: 'RFC2833' as unknown as DTMF_TRANSPORT, duration: 125, interToneGap: 75 });
  },

  async sendTone(key, hz) {
    audio ??= new AudioContext({ sampleRate: 48_000 });
    await audio.resume();
    const osc = audio.createOscillator();
    osc.frequency.value = hz;
    const gain = audio.createGain();
    gain.gain.value = 0.5;
    const out = audio.createMediaStreamDestination();
    osc.connect(gain).connect(out);
    osc.start();
    const sender = entryOf(key).session.connection?.getSenders().find((x) => x.track?.kind === 'audio');
    if (!sender) throw new Error(`session ${key} has no audio sender`);
    await sender.replaceTrack(out.stream.getAudioTracks()[0]!);
  },

  async receivedPeak(key) {
    audio ??= new AudioContext({ sampleRate: 48_000 });
    await audio.resume();
    let analyser = analysers.get(key);
    if (!analyser) {
      const track = entryOf(key).session.connection?.getReceivers().find((r) => r.track.kind === 'audio')?.track;
      if (!track) throw new Error(`session ${key} receives no audio`);
      const stream = new MediaStream([track]);
      // Chromium delivers a remote track to WebAudio only while a media element also plays it.
      const el = new Audio();
      el.muted = true;
      el.srcObject = stream;
      void el.play().catch(() => undefined);
      analyser = audio.createAnalyser();
      analyser.fftSize = 4096;
      audio.createMediaStreamSource(stream).connect(analyser);
      analysers.set(key, analyser);
    }
    const bins = new Float32Array(analyser.frequencyBinCount);
    analyser.getFloatFrequencyData(bins);
    let best = 0;
    for (let i = 1; i < bins.length; i++) if (bins[i]! > bins[best]!) best = i;
    return { hz: (best * audio.sampleRate) / analyser.fftSize, db: bins[best]! };
  },

  hangup(key) {
    const { session } = entryOf(key);
    if (!session.isEnded()) session.terminate();
  },

  async stop() {
    const agent = ua;
    if (!agent) return;
    ua = null;
    for (const { session } of sessions.values()) if (!session.isEnded()) session.terminate();
    await deadline<void>(5000, 'the UA to stop', (done) => {
      agent.on('disconnected', () => done());
      agent.stop();
    }).catch(() => undefined);
  },
};

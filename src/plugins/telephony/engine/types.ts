import type { AudioChoice } from '../../../contracts';

/**
 * The parts of JsSIP the engine uses, as interfaces: the real UA comes from `jssipUa.ts`, unit tests
 * pass fakes with the same shape.
 */

export interface UaConfig {
  wsUrl: string;
  /** Every Kamailio of a cluster (wsUrl among them): JsSIP registers on one and fails over to another. */
  wsUrls?: readonly string[] | undefined;
  uri: string;
  authorizationUser: string;
  password: string;
  displayName: string;
  registerExpires: number;
  noAnswerTimeout: number;
}

export interface SessionEndEvent {
  originator: 'local' | 'remote' | 'system';
  cause: string;
}

export interface SessionLike {
  readonly remote_identity: { readonly uri: { readonly user: string | null }; readonly display_name?: string | null };
  readonly connection?: RTCPeerConnection | null;
  on(event: string, listener: (e: never) => void): unknown;
  answer(options: CallOptions): void;
  terminate(options?: { status_code?: number; reason_phrase?: string }): void;
  hold(): boolean;
  unhold(): boolean;
  mute(options?: { audio: boolean }): void;
  unmute(options?: { audio: boolean }): void;
  sendDTMF(tones: string, options: { duration: number; interToneGap: number; transportType: 'INFO' | 'RFC2833' }): void;
  isEnded(): boolean;
  /** A re-INVITE; with `iceRestart` the media path is found again after a network change. */
  renegotiate?(options: { rtcOfferConstraints?: RTCOfferOptions }): boolean;
  /** REFER: asks the far end to call `target` (with `replaces`: to take over that other call). */
  refer(target: string, options?: { replaces?: SessionLike }): ReferLike | false;
  /** JsSIP keeps the initial request here; its Call-ID names the call to the API. */
  readonly _request?: { readonly call_id?: string } | null;
}

/** The progress of a REFER we sent (JsSIP's ReferSubscriber). */
export interface ReferLike {
  on(event: 'requestSucceeded' | 'requestFailed' | 'accepted' | 'failed', listener: () => void): unknown;
}

/** The far end asks us to call elsewhere (a transfer). `accept` places that call. */
export interface ReferEvent {
  accept(init?: (session: SessionLike) => void, options?: CallOptions): void;
  reject(): void;
}

/** An INVITE with Replaces for this call arrived: someone transferred to us takes its place. */
export interface ReplacesEvent {
  accept(init?: (session: SessionLike) => void): void;
  reject(): void;
}

export interface NewSessionEvent {
  originator: 'local' | 'remote';
  session: SessionLike;
}

export interface UaLike {
  start(): void;
  stop(): void;
  register(): void;
  set(parameter: 'authorization_user' | 'password', value: string): boolean;
  isConnected(): boolean;
  call(target: string, options: CallOptions): unknown;
  on(event: string, listener: (e: never) => void): unknown;
}

export interface CallOptions {
  mediaConstraints: MediaStreamConstraints;
  pcConfig: RTCConfiguration;
  /** A microphone already open; JsSIP then does not ask for one (and leaves stopping it to us). */
  mediaStream?: MediaStream;
}

/** Remote audio of each call. */
export interface RemoteAudio {
  attach(callId: string, pc: RTCPeerConnection): void;
  detach(callId: string): void;
  /** Plays every call (current and later) on this output device; null for the system default. */
  setSink(deviceId: string | null): void;
}

/** The microphone and speaker the user chose (null: the system default), remembered per user. */
export type DeviceChoice = AudioChoice;

/** Locally played tones (WebAudio). */
export interface Tones {
  ring(on: boolean): void;
  ringback(on: boolean): void;
  dtmf(digits: string): void;
  /** Rings on this output from now on (null: the system default), where the browser can route WebAudio. */
  setRingSink(deviceId: string | null): void;
  /** A short tone on an output, to check that it is the one the user hears. */
  test(deviceId: string | null): Promise<void>;
  dispose(): void;
}

/**
 * Tabs of one browser: one tells the others at once when it takes the phone over, and a tab asks
 * whether its peer id is already used by another open tab (a duplicated tab copies it).
 */
export interface TabMessage {
  type: 'takeover' | 'peer?' | 'peer!';
  peer: string;
}
export interface TabChannel {
  post(message: TabMessage): void;
  onMessage(listener: (message: TabMessage) => void): void;
  close(): void;
}

import { serviceKey, type Disposable } from '../kernel';

export interface TelephonyService {
  /** Places a call to a number, extension or SIP address. */
  call(target: string, opts?: { displayName?: string }): Promise<void>;
  /**
   * Tells when a call of this user has ended (answered, missed, declined or failed). Its history
   * record reaches the server at about the same moment: Kamailio files it as it passes the hang-up
   * on, so the side that hung up may ask a moment too early.
   */
  onCallEnded(listener: () => void): Disposable;
  /**
   * "Test connection": calls the echo test number (`*43`) with the user's own registration, measures
   * for a few seconds from the call's WebRTC statistics and the microphone, hangs up, and tells how
   * it went. Never throws: a test that cannot run resolves with `{ ok: false, reason }`.
   * `onProgress` is told when the call is placed, when the measuring starts, and as it goes.
   */
  testConnection(onProgress?: (p: ConnectionTestProgress) => void): Promise<ConnectionTestOutcome>;
  /** The user's audio choices for calls in this browser (starting the phone if needed, which reads them). */
  audio(): Promise<AudioChoice>;
  /**
   * Changes some of them: remembered for the next calls and applied to the calls in progress (the
   * microphone switched without renegotiation, calls and ring moved to their outputs).
   */
  setAudio(change: Partial<AudioChoice>): Promise<void>;
  /**
   * Opens a microphone as calls open it (same device and processing), for a level meter; the caller
   * stops its tracks. Rejects as getUserMedia does (NotAllowedError when refused).
   */
  openMicrophone(choice: Pick<AudioChoice, 'input' | 'echoCancellation' | 'noiseSuppression'>): Promise<MediaStream>;
  /** Plays a short tone on an output (null: the system default) the way calls or the ring use it. */
  testTone(output: string | null): Promise<void>;
  /** Do-not-disturb and forward-always as the server holds them (null: not read yet, or failed). */
  forwarding(): Promise<ForwardingState | null>;
  /** Saves do-not-disturb; false when the save failed (the user was told). */
  setDnd(on: boolean): Promise<boolean>;
  /** Forward-always on (to the saved destination) or off; false when it failed or has no destination. */
  setForwardAlways(on: boolean): Promise<boolean>;
}

/** Audio devices (ids from enumerateDevices; null: the system default) and the microphone's processing. */
export interface AudioChoice {
  input: string | null;
  output: string | null;
  /** Where an incoming call rings (may differ from the call's output, e.g. loudspeakers vs a headset). */
  ring: string | null;
  echoCancellation: boolean;
  noiseSuppression: boolean;
}

export interface ForwardingState {
  dnd: boolean;
  forwardAlways: boolean;
  /** Where forward-always sends calls, as the user reads it; null when none was ever chosen. */
  destination: string | null;
}

/**
 * What a connection test measured. RTT (`rttSource: 'echo'`): how late the microphone's own sound
 * came back from the echo number, matched between the two (what a caller hears as delay: both
 * directions, jitter buffers, codecs and the echo phone included). When the microphone was too quiet
 * to match (`'network'`): the ICE round trip between the browser and the media relay (WebRTC
 * `candidate-pair.currentRoundTripTime`, median of the samples; RTCP's when there is none).
 * Jitter and loss: of the audio that came back, so they cover both directions.
 * Null where nothing was measured.
 */
export interface ConnectionTestResult {
  rttMs: number | null;
  rttSource: 'echo' | 'network' | null;
  jitterMs: number | null;
  lossPct: number | null;
  /** The loudest the microphone was during the test, 0 (silence) to 1 (full scale), RMS. */
  micLevel: number;
  /**
   * good: RTT ≤ 300 ms, jitter ≤ 20 ms and loss ≤ 1 %; fair: ≤ 600 ms, ≤ 50 ms, ≤ 5 %; otherwise poor
   * (the RTT limits are ITU-T G.114's one-way 150 ms and 300 ms, there and back).
   */
  verdict: 'good' | 'fair' | 'poor';
}

/**
 * Why a test did not run or did not finish: calling is not set up for the user; another tab or
 * browser has the phone; the phone is not registered (yet); a call is in progress (or another test);
 * no microphone (denied or absent); the echo number did not answer; it answered but no audio came back.
 */
export type ConnectionTestFailure = 'notConfigured' | 'elsewhere' | 'notRegistered' | 'busy' | 'noMicrophone' | 'noAnswer' | 'noEcho';

export type ConnectionTestOutcome = { ok: true; result: ConnectionTestResult } | { ok: false; reason: ConnectionTestFailure };

export interface ConnectionTestProgress {
  phase: 'calling' | 'measuring';
  /** 0 to 1: how much of the measuring is done (0 while calling). */
  fraction: number;
}
/** Provided by telephony. */
export const TelephonyApi = serviceKey<TelephonyService>('telephony.api');

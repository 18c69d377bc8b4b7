import { subscribe } from 'valtio';
import type { ConnectionTestFailure, ConnectionTestOutcome, ConnectionTestProgress } from '../../../contracts';
import { ECHO_EXTENSION } from '../../../wire/services';
import { echoDelay, reduceStats, inboundCounts, rms, verdictOf, type StatsRow } from '../model/connectionQuality';
import { sipUri } from '../model/sip';
import { phone } from '../state';
import { log } from '../log';
import type { EngineDeps } from './deps';
import { callOptions } from './microphone';
import type { SessionLike, UaLike } from './types';

/** How long the test measures once the echo has answered, and how often it samples. */
export const MEASURE_MS = 4000;
export const SAMPLE_MS = 250;
/** The echo number answers at once; this long without an answer is a failure. */
export const ANSWER_TIMEOUT_MS = 10_000;
/** A phone still registering (the test was the first thing asked of it) is waited for this long. */
export const REGISTER_WAIT_MS = 10_000;

export type ConnectionTestDeps = Pick<EngineDeps, 'sip' | 'getUserMedia'> & {
  /** Listens to the microphone and to what comes back (WebAudio in the browser); none: level 0, RTT from the statistics. */
  probe?(microphone: MediaStream, remote: MediaStreamTrack | null): AudioProbe | null;
};

/** What the test needs from the rest of the phone. */
export interface ConnectionTestLine {
  ua(): UaLike | null;
  /** A call of the user's is in progress (the line is taken). */
  busy(): boolean;
  placeUntracked(place: () => void): SessionLike | null;
}

const fail = (reason: ConnectionTestFailure): ConnectionTestOutcome => ({ ok: false, reason });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the test hears: the microphone's level, and how late the microphone's sound comes back. */
export interface AudioProbe {
  /** The loudest the microphone was so far (RMS, 0–1). */
  micLevel(): number;
  /** The echo's delay in ms (null: nothing to match, e.g. a silent microphone). */
  echoDelayMs(): number | null;
  close(): void;
}

/** The longest echo looked for. */
const MAX_ECHO_MS = 1000;

/**
 * WebAudio: the microphone and the audio that comes back, side by side on one audio clock (a
 * two-channel recorder), as loudness envelopes of one point per millisecond; echoDelay matches them.
 * A ScriptProcessorNode rather than an AudioWorklet: a worklet's module would be one more file
 * (or a blob: URL, which the page's CSP refuses) for a few seconds of recording.
 */
export function webAudioProbe(mic: MediaStream, remote: MediaStreamTrack | null): AudioProbe | null {
  if (typeof AudioContext === 'undefined') return null;
  const ctx = new AudioContext();
  const perPoint = Math.max(1, Math.round(ctx.sampleRate / 1000));
  const sent: number[] = [];
  const back: number[] = [];
  let level = 0;
  const merger = ctx.createChannelMerger(2);
  ctx.createMediaStreamSource(mic).connect(merger, 0, 0);
  // Chromium hands a remote WebRTC track to WebAudio only while a media element plays it (muted here:
  // the test is a measurement, not a conversation).
  const element = remote ? new Audio() : null;
  if (remote && element) {
    const stream = new MediaStream([remote]);
    element.muted = true;
    element.srcObject = stream;
    void element.play().catch(() => undefined);
    ctx.createMediaStreamSource(stream).connect(merger, 0, 1);
  }
  const recorder = ctx.createScriptProcessor(4096, 2, 1);
  recorder.onaudioprocess = (e) => {
    const m = e.inputBuffer.getChannelData(0);
    const r = e.inputBuffer.getChannelData(1);
    level = Math.max(level, rms(m));
    for (let i = 0; i + perPoint <= m.length; i += perPoint) {
      let sm = 0;
      let sr = 0;
      for (let j = i; j < i + perPoint; j++) {
        sm += Math.abs(m[j]!);
        sr += Math.abs(r[j]!);
      }
      sent.push(sm / perPoint);
      back.push(sr / perPoint);
    }
  };
  // A processor runs only while connected to the output; through a silent gain, so nothing is heard.
  const mute = ctx.createGain();
  mute.gain.value = 0;
  merger.connect(recorder).connect(mute).connect(ctx.destination);
  void ctx.resume().catch(() => undefined);
  return {
    micLevel: () => level,
    echoDelayMs: () => (remote ? echoDelay(sent, back, MAX_ECHO_MS) : null),
    close() {
      recorder.onaudioprocess = null;
      if (element) element.srcObject = null;
      void ctx.close().catch(() => undefined);
    },
  };
}

/**
 * "Test connection": a call to the echo number (ECHO_EXTENSION) with the user's registration, the
 * microphone as in a real call, statistics sampled while the audio comes back, then hang up.
 * The echo is not played to the user (the test is a measurement, not a conversation).
 */
export class ConnectionTest {
  private running = false;

  constructor(
    private readonly deps: ConnectionTestDeps,
    private readonly line: ConnectionTestLine,
  ) {}

  async run(onProgress?: (p: ConnectionTestProgress) => void): Promise<ConnectionTestOutcome> {
    await registered();
    if (phone.status === 'unconfigured') return fail('notConfigured');
    if (phone.status === 'elsewhere') return fail('elsewhere');
    const ua = this.line.ua();
    if (!ua || phone.status !== 'ready') return fail('notRegistered');
    if (this.running || this.line.busy()) return fail('busy');
    this.running = true;
    try {
      return await this.measure(ua, onProgress ?? (() => undefined));
    } catch (err) {
      log.error('connection test failed', err);
      return fail('noEcho');
    } finally {
      this.running = false;
    }
  }

  private async measure(ua: UaLike, progress: (p: ConnectionTestProgress) => void): Promise<ConnectionTestOutcome> {
    if (!this.deps.getUserMedia) return fail('noMicrophone');
    const microphone = await this.deps.getUserMedia(callOptions().mediaConstraints).catch((err: unknown) => {
      log.warn('connection test: no microphone', err);
      return null;
    });
    if (!microphone?.getAudioTracks().length) return fail('noMicrophone');
    let probe: AudioProbe | null = null;
    let session: SessionLike | null = null;
    try {
      progress({ phase: 'calling', fraction: 0 });
      session = this.line.placeUntracked(() => void ua.call(sipUri(ECHO_EXTENSION, this.deps.sip.domain), { ...callOptions(), mediaStream: microphone }));
      if (!session || !(await answered(session))) return fail('noAnswer');
      const pc = session.connection;
      if (!pc) return fail('noEcho');
      probe = this.deps.probe?.(microphone, pc.getReceivers().find((r) => r.track?.kind === 'audio')?.track ?? null) ?? null;
      const snapshots: StatsRow[][] = [];
      const sample = async () => void snapshots.push(rowsOf(await pc.getStats()));
      await sample();
      progress({ phase: 'measuring', fraction: 0 });
      for (let t = SAMPLE_MS; t <= MEASURE_MS && !session.isEnded(); t += SAMPLE_MS) {
        await pause(SAMPLE_MS);
        await sample();
        progress({ phase: 'measuring', fraction: t / MEASURE_MS });
      }
      if (inboundCounts(snapshots.at(-1)!).received === 0) return fail('noEcho');
      const network = reduceStats(snapshots);
      const echoMs = probe?.echoDelayMs() ?? null;
      const figures = { ...network, rttMs: echoMs ?? network.rttMs };
      const rttSource = echoMs !== null ? 'echo' : network.rttMs !== null ? 'network' : null;
      return { ok: true, result: { ...figures, rttSource, micLevel: Math.min(1, probe?.micLevel() ?? 0), verdict: verdictOf(figures) } };
    } finally {
      if (session && !session.isEnded()) session.terminate();
      probe?.close();
      microphone.getTracks().forEach((t) => t.stop());
    }
  }
}

/** Resolves once the phone is no longer starting or connecting (or after REGISTER_WAIT_MS). */
function registered(): Promise<void> {
  const settled = () => phone.status !== 'off' && phone.status !== 'connecting';
  if (settled()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stop();
      resolve();
    };
    const stop = subscribe(phone, () => settled() && done());
    const timer = setTimeout(done, REGISTER_WAIT_MS);
  });
}

/** True once the echo answered; false when the call failed or no answer came in time. */
function answered(session: SessionLike): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ANSWER_TIMEOUT_MS);
    const settle = (ok: boolean) => () => {
      clearTimeout(timer);
      resolve(ok);
    };
    session.on('confirmed', settle(true));
    session.on('failed', settle(false));
    session.on('ended', settle(false));
  });
}

function rowsOf(report: RTCStatsReport): StatsRow[] {
  const rows: StatsRow[] = [];
  report.forEach((r: StatsRow) => rows.push(r));
  return rows;
}

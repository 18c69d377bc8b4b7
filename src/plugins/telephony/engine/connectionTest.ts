import { subscribe } from 'valtio';
import type { ConnectionTestFailure, ConnectionTestOutcome, ConnectionTestProgress } from '../../../contracts';
import { ECHO_EXTENSION } from '../../../wire/services';
import { reduceStats, inboundCounts, rms, verdictOf, type StatsRow } from '../model/connectionQuality';
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
  /** A level meter on the microphone (WebAudio in the browser); none: the level reads 0. */
  meter?(stream: MediaStream): { level(): number; close(): void } | null;
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

/** A WebAudio analyser on the microphone: RMS of the latest frame. */
export function webAudioMeter(stream: MediaStream): { level(): number; close(): void } | null {
  if (typeof AudioContext === 'undefined') return null;
  const ctx = new AudioContext();
  const analyser = ctx.createAnalyser();
  analyser.fftSize = 2048;
  ctx.createMediaStreamSource(stream).connect(analyser);
  const frame = new Float32Array(analyser.fftSize);
  void ctx.resume().catch(() => undefined);
  return {
    level() {
      analyser.getFloatTimeDomainData(frame);
      return rms(frame);
    },
    close: () => void ctx.close().catch(() => undefined),
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
    const meter = this.deps.meter?.(microphone) ?? null;
    let session: SessionLike | null = null;
    try {
      progress({ phase: 'calling', fraction: 0 });
      session = this.line.placeUntracked(() => void ua.call(sipUri(ECHO_EXTENSION, this.deps.sip.domain), { ...callOptions(), mediaStream: microphone }));
      if (!session || !(await answered(session))) return fail('noAnswer');
      const pc = session.connection;
      if (!pc) return fail('noEcho');
      const snapshots: StatsRow[][] = [];
      let micLevel = 0;
      const sample = async () => {
        snapshots.push(rowsOf(await pc.getStats()));
        micLevel = Math.max(micLevel, meter?.level() ?? 0);
      };
      await sample();
      progress({ phase: 'measuring', fraction: 0 });
      for (let t = SAMPLE_MS; t <= MEASURE_MS && !session.isEnded(); t += SAMPLE_MS) {
        await pause(SAMPLE_MS);
        await sample();
        progress({ phase: 'measuring', fraction: t / MEASURE_MS });
      }
      if (inboundCounts(snapshots.at(-1)!).received === 0) return fail('noEcho');
      const figures = reduceStats(snapshots);
      return { ok: true, result: { ...figures, micLevel: Math.min(1, micLevel), verdict: verdictOf(figures) } };
    } finally {
      if (session && !session.isEnded()) session.terminate();
      meter?.close();
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

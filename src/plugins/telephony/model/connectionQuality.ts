import type { ConnectionTestResult } from '../../../contracts';

/**
 * The connection test's figures from WebRTC statistics snapshots (taken over a few seconds of a call
 * to the echo number), and its verdict. Pure: the engine takes the snapshots, tests hand in fakes.
 */

/** One `getStats()` result as plain rows (RTCStatsReport's values). */
export type StatsRow = { type: string; [field: string]: unknown };

/**
 * Upper bounds of each verdict (inclusive); above any "fair" bound is "poor". RTT is there and back:
 * ITU-T G.114's one-way mouth-to-ear 150 ms (good) and 300 ms (still usable), doubled.
 */
export const VERDICT_LIMITS = {
  good: { rttMs: 300, jitterMs: 20, lossPct: 1 },
  fair: { rttMs: 600, jitterMs: 50, lossPct: 5 },
} as const;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function median(values: number[]): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The candidate pair carrying the media: the transport's selected one, else a nominated succeeded one. */
function selectedPair(rows: readonly StatsRow[]): StatsRow | undefined {
  const selectedIds = new Set(rows.filter((r) => r.type === 'transport' && typeof r.selectedCandidatePairId === 'string').map((r) => r.selectedCandidatePairId));
  const pairs = rows.filter((r) => r.type === 'candidate-pair');
  return pairs.find((p) => selectedIds.has(p.id)) ?? pairs.find((p) => p.state === 'succeeded' && p.nominated === true);
}

const audioIn = (rows: readonly StatsRow[]) => rows.find((r) => r.type === 'inbound-rtp' && (r.kind === 'audio' || r.mediaType === 'audio'));

/** Packets received and lost of the audio that came back, in one snapshot. */
export function inboundCounts(rows: readonly StatsRow[]): { received: number; lost: number } {
  const r = audioIn(rows);
  return { received: num(r?.packetsReceived) ?? 0, lost: Math.max(0, num(r?.packetsLost) ?? 0) };
}

/**
 * RTT: median of the ICE pair's current round trip over the snapshots (RTCP's remote-inbound
 * round trip where the pair has none). Jitter: the last snapshot's (RFC 3550's running estimate).
 * Loss: lost packets among those expected between the first and the last snapshot.
 */
export function reduceStats(snapshots: ReadonlyArray<readonly StatsRow[]>): Pick<ConnectionTestResult, 'rttMs' | 'jitterMs' | 'lossPct'> {
  const ice: number[] = [];
  const rtcp: number[] = [];
  for (const rows of snapshots) {
    const pair = num(selectedPair(rows)?.currentRoundTripTime);
    if (pair !== null) ice.push(pair * 1000);
    const remote = num(rows.find((r) => r.type === 'remote-inbound-rtp' && (r.kind === 'audio' || r.mediaType === 'audio'))?.roundTripTime);
    if (remote !== null) rtcp.push(remote * 1000);
  }
  const last = snapshots.at(-1) ?? [];
  const jitter = num(audioIn(last)?.jitter);
  let lossPct: number | null = null;
  if (snapshots.length) {
    const a = inboundCounts(snapshots[0]!);
    const b = inboundCounts(last);
    const received = b.received - a.received;
    const lost = b.lost - a.lost;
    if (received + lost > 0) lossPct = (100 * Math.max(0, lost)) / (received + Math.max(0, lost));
  }
  return { rttMs: median(ice.length ? ice : rtcp), jitterMs: jitter === null ? null : jitter * 1000, lossPct };
}

/** The worst of the three figures decides; a figure the browser did not report does not count. */
export function verdictOf(f: Pick<ConnectionTestResult, 'rttMs' | 'jitterMs' | 'lossPct'>): ConnectionTestResult['verdict'] {
  const within = (l: (typeof VERDICT_LIMITS)['good' | 'fair']) =>
    (f.rttMs === null || f.rttMs <= l.rttMs) && (f.jitterMs === null || f.jitterMs <= l.jitterMs) && (f.lossPct === null || f.lossPct <= l.lossPct);
  return within(VERDICT_LIMITS.good) ? 'good' : within(VERDICT_LIMITS.fair) ? 'fair' : 'poor';
}

/** RMS of one analyser frame of samples (−1…1). */
export function rms(samples: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!;
  return samples.length ? Math.sqrt(sum / samples.length) : 0;
}

/**
 * The delay of the echo: the lag (in points of the envelopes) at which what came back best matches
 * what the microphone sent, by normalised cross-correlation of the two loudness envelopes (one
 * point per millisecond, on the same audio clock). Null when nothing stands out (a silent
 * microphone, or no echo): below MIN_ECHO_CORRELATION. Speech and Chromium's test beeps repeat, so
 * of the peaks nearly as high as the best (90 %), the earliest is the echo.
 */
export const MIN_ECHO_CORRELATION = 0.3;

export function echoDelay(sent: ArrayLike<number>, received: ArrayLike<number>, maxLag: number): number | null {
  const n = Math.min(sent.length, received.length);
  if (n < 2) return null;
  const centred = (xs: ArrayLike<number>) => {
    let mean = 0;
    for (let i = 0; i < n; i++) mean += xs[i]!;
    mean /= n;
    return Float64Array.from({ length: n }, (_, i) => xs[i]! - mean);
  };
  const a = centred(sent);
  const b = centred(received);
  const scores: number[] = [];
  for (let lag = 0; lag <= Math.min(maxLag, n - 2); lag++) {
    let ab = 0;
    let aa = 0;
    let bb = 0;
    for (let i = 0; i + lag < n; i++) {
      ab += a[i]! * b[i + lag]!;
      aa += a[i]! * a[i]!;
      bb += b[i + lag]! * b[i + lag]!;
    }
    scores.push(aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0);
  }
  const best = Math.max(...scores);
  if (!(best >= MIN_ECHO_CORRELATION)) return null;
  for (let lag = 0; lag < scores.length; lag++) {
    const s = scores[lag]!;
    const peak = s >= (scores[lag - 1] ?? -Infinity) && s >= (scores[lag + 1] ?? -Infinity);
    if (peak && s >= 0.9 * best) return lag;
  }
  return null;
}

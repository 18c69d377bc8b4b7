import { describe, expect, it } from 'vitest';
import { connectionTestToast } from './connectionReport';
import { echoDelay, inboundCounts, reduceStats, rms, VERDICT_LIMITS, verdictOf, type StatsRow } from './connectionQuality';

/** One getStats() snapshot as Chromium reports a call: transport, its selected pair, inbound audio. */
function snapshot(o: { rttS?: number; jitterS?: number; received: number; lost: number; remoteRttS?: number; selected?: boolean }): StatsRow[] {
  const rows: StatsRow[] = [
    { type: 'transport', id: 'T01', selectedCandidatePairId: o.selected === false ? undefined : 'CP1' },
    { type: 'candidate-pair', id: 'CP0', state: 'failed', currentRoundTripTime: 9 },
    { type: 'candidate-pair', id: 'CP1', state: 'succeeded', nominated: true, ...(o.rttS === undefined ? {} : { currentRoundTripTime: o.rttS }) },
    { type: 'inbound-rtp', kind: 'audio', packetsReceived: o.received, packetsLost: o.lost, ...(o.jitterS === undefined ? {} : { jitter: o.jitterS }) },
    { type: 'outbound-rtp', kind: 'audio', packetsSent: o.received + o.lost },
  ];
  if (o.remoteRttS !== undefined) rows.push({ type: 'remote-inbound-rtp', kind: 'audio', roundTripTime: o.remoteRttS });
  return rows;
}

describe('reduceStats', () => {
  it('takes the median ICE round trip of the selected pair, the last jitter, and the loss between the first and last snapshot', () => {
    const f = reduceStats([
      snapshot({ rttS: 0.01, jitterS: 0.002, received: 100, lost: 2 }),
      snapshot({ rttS: 0.03, jitterS: 0.004, received: 150, lost: 2 }),
      snapshot({ rttS: 0.5, jitterS: 0.004, received: 200, lost: 3 }),
      snapshot({ rttS: 0.02, jitterS: 0.006, received: 297, lost: 5 }),
    ]);
    // Median of 10, 30, 500, 20 ms: one slow sample does not make the connection slow.
    expect(f.rttMs).toBeCloseTo(25);
    expect(f.jitterMs).toBeCloseTo(6);
    // 197 received and 3 lost since the first snapshot: 3 of 200.
    expect(f.lossPct).toBeCloseTo(1.5);
  });

  it("uses RTCP's round trip when the ICE pair reports none, and the nominated pair when no transport names one", () => {
    expect(reduceStats([snapshot({ received: 1, lost: 0, remoteRttS: 0.04 }), snapshot({ received: 50, lost: 0, remoteRttS: 0.06 })]).rttMs).toBeCloseTo(50);
    expect(reduceStats([snapshot({ rttS: 0.012, received: 1, lost: 0, selected: false })]).rttMs).toBeCloseTo(12);
  });

  it('reports null for what the browser did not report, and no loss when nothing was expected', () => {
    expect(reduceStats([snapshot({ received: 0, lost: 0 }), snapshot({ received: 0, lost: 0 })])).toEqual({ rttMs: null, jitterMs: null, lossPct: null });
    expect(reduceStats([])).toEqual({ rttMs: null, jitterMs: null, lossPct: null });
  });

  it('counts the audio that came back', () => {
    expect(inboundCounts(snapshot({ received: 42, lost: 1 }))).toEqual({ received: 42, lost: 1 });
    expect(inboundCounts([{ type: 'inbound-rtp', kind: 'video', packetsReceived: 9 }])).toEqual({ received: 0, lost: 0 });
  });
});

describe('verdictOf', () => {
  const good = VERDICT_LIMITS.good;
  const fair = VERDICT_LIMITS.fair;
  it('is good up to and including every good limit', () => {
    expect(verdictOf({ rttMs: good.rttMs, jitterMs: good.jitterMs, lossPct: good.lossPct })).toBe('good');
    expect(verdictOf({ rttMs: 0.4, jitterMs: 0, lossPct: 0 })).toBe('good');
  });
  it('is fair when one figure is past its good limit and none past fair', () => {
    expect(verdictOf({ rttMs: good.rttMs + 1, jitterMs: 0, lossPct: 0 })).toBe('fair');
    expect(verdictOf({ rttMs: 10, jitterMs: good.jitterMs + 0.1, lossPct: 0 })).toBe('fair');
    expect(verdictOf({ rttMs: 10, jitterMs: 1, lossPct: fair.lossPct })).toBe('fair');
  });
  it('is poor when any figure is past its fair limit', () => {
    expect(verdictOf({ rttMs: fair.rttMs + 1, jitterMs: 0, lossPct: 0 })).toBe('poor');
    expect(verdictOf({ rttMs: 10, jitterMs: fair.jitterMs + 1, lossPct: 0 })).toBe('poor');
    expect(verdictOf({ rttMs: 10, jitterMs: 1, lossPct: fair.lossPct + 0.5 })).toBe('poor');
  });
  it('ignores a figure that was not measured', () => {
    expect(verdictOf({ rttMs: null, jitterMs: null, lossPct: null })).toBe('good');
    expect(verdictOf({ rttMs: null, jitterMs: 30, lossPct: null })).toBe('fair');
  });
});

describe('the result toast', () => {
  it('titles the verdict and formats the figures for the language', () => {
    const t = connectionTestToast({ ok: true, result: { rttMs: 12.34, rttSource: 'echo', jitterMs: null, lossPct: 1.5, micLevel: 0.25, verdict: 'fair' } }, 'en', 'not measured');
    expect(t).toMatchObject({ tone: 'warning', titleKey: 'telephony:connectionTest.fair', messageKey: 'telephony:connectionTest.figures' });
    expect(t.values).toEqual({ rtt: '12.3 ms', jitter: 'not measured', loss: '1.5%', mic: '25%' });
    expect(connectionTestToast({ ok: true, result: { rttMs: 1, rttSource: 'network', jitterMs: 1, lossPct: 0, micLevel: 0.001, verdict: 'good' } }, 'de', '-').messageKey).toBe('telephony:connectionTest.figuresSilentMic');
  });
  it('says why a test did not run', () => {
    expect(connectionTestToast({ ok: false, reason: 'noAnswer' }, 'en', '')).toMatchObject({ tone: 'error', titleKey: 'telephony:connectionTest.failedTitle', messageKey: 'telephony:connectionTest.failed.noAnswer' });
  });
});

describe('echoDelay', () => {
  /** A loudness envelope (one point per ms) of beeps: `on` ms loud every `period` ms, from `start`. */
  const beeps = (n: number, period: number, on: number, start = 0, loud = 0.5, floor = 0.01) =>
    Array.from({ length: n }, (_, i) => (i >= start && (i - start) % period < on ? loud : floor));

  it('finds how late the beeps come back', () => {
    const sent = beeps(4000, 500, 40, 100);
    // Back 87 ms later, quieter and with a little noise.
    const back = sent.map((_, i) => 0.3 * (sent[i - 87] ?? 0.01) + 0.002 * ((i * 7919) % 13));
    expect(echoDelay(sent, back, 1000)).toBe(87);
  });

  it('of repeating beeps, takes the first match, not one a period later', () => {
    const sent = beeps(4000, 300, 30);
    const back = sent.map((_, i) => sent[i - 120] ?? 0.01);
    expect(echoDelay(sent, back, 1000)).toBe(120);
  });

  it('is null when the microphone was silent or nothing came back that matches', () => {
    expect(echoDelay(new Array(2000).fill(0), beeps(2000, 400, 40), 1000)).toBeNull();
    const noise = Array.from({ length: 3000 }, (_, i) => ((i * 2654435761) % 1000) / 1000);
    expect(echoDelay(beeps(3000, 500, 40), noise, 1000)).toBeNull();
    expect(echoDelay([], [], 1000)).toBeNull();
  });
});

it('rms of a full-scale square wave is 1, of silence 0', () => {
  expect(rms([1, -1, 1, -1])).toBe(1);
  expect(rms(new Float32Array(8))).toBe(0);
});

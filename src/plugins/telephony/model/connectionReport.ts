import type { ToastInput } from '../../../kernel';
import type { ConnectionTestFailure, ConnectionTestOutcome } from '../../../contracts';

const VERDICT_TITLES = {
  good: 'telephony:connectionTest.good',
  fair: 'telephony:connectionTest.fair',
  poor: 'telephony:connectionTest.poor',
} as const;

const FAILURES: Record<ConnectionTestFailure, string> = {
  notConfigured: 'telephony:connectionTest.failed.notConfigured',
  elsewhere: 'telephony:connectionTest.failed.elsewhere',
  notRegistered: 'telephony:connectionTest.failed.notRegistered',
  busy: 'telephony:connectionTest.failed.busy',
  noMicrophone: 'telephony:connectionTest.failed.noMicrophone',
  noAnswer: 'telephony:connectionTest.failed.noAnswer',
  noEcho: 'telephony:connectionTest.failed.noEcho',
};

/**
 * The toast that tells the result of "Test connection": the verdict as its title, the figures
 * (formatted for the user's language, "not measured" where the browser reported nothing) as its
 * message; or why the test did not run.
 */
export function connectionTestToast(outcome: ConnectionTestOutcome, locale: string, notMeasured: string): ToastInput {
  if (!outcome.ok) return { tone: 'error', titleKey: 'telephony:connectionTest.failedTitle', messageKey: FAILURES[outcome.reason], timeoutMs: 15_000 };
  const r = outcome.result;
  const ms = new Intl.NumberFormat(locale, { style: 'unit', unit: 'millisecond', maximumFractionDigits: 1 });
  const pct = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  const or = (v: number | null, f: Intl.NumberFormat, scale = 1) => (v === null ? notMeasured : f.format(v * scale));
  return {
    tone: r.verdict === 'good' ? 'success' : r.verdict === 'fair' ? 'warning' : 'error',
    titleKey: VERDICT_TITLES[r.verdict],
    messageKey: r.micLevel < 0.01 ? 'telephony:connectionTest.figuresSilentMic' : 'telephony:connectionTest.figures',
    values: { rtt: or(r.rttMs, ms), jitter: or(r.jitterMs, ms), loss: or(r.lossPct, pct, 0.01), mic: pct.format(r.micLevel) },
    timeoutMs: 15_000,
  };
}

import { NOTICE_KINDS, noticeKindsOff, type NoticeKind } from '../../kernel/lazy';
import { CUTOFF_DEFAULT_DAYS, CUTOFF_KINDS, CUTOFF_NO_TIME_MARKER, cutoffsComplete, type CutoffKind } from '../../wire/texts';

/** The Messages panel's cut-off choices in days; 730 is the product's "never cut off" marker. */
export const CUTOFF_CHOICES = [7, 30, CUTOFF_DEFAULT_DAYS, 180, 365, CUTOFF_NO_TIME_MARKER] as const;

export type CutoffDraft = Record<CutoffKind, number | null>;

/**
 * The saved `uc-messages-cut-off` as the panel's four choices: a kind never saved (or saved as
 * something that is not a positive number of days) shows the default, 90 days, the value messaging
 * applies to it.
 */
export function cutoffDraft(saved: unknown): CutoffDraft {
  const v = saved && typeof saved === 'object' ? (saved as Record<string, unknown>) : {};
  const out = {} as CutoffDraft;
  for (const k of CUTOFF_KINDS) {
    const days = v[k];
    out[k] = typeof days === 'number' && Number.isInteger(days) && days > 0 ? days : CUTOFF_DEFAULT_DAYS;
  }
  return out;
}

/** What Save stores: all four values, or nothing (null) while one is missing (the specification's rule). */
export function cutoffsToSave(draft: Partial<CutoffDraft>): Record<CutoffKind, number> | null {
  const picked = Object.fromEntries(CUTOFF_KINDS.map((k) => [k, draft[k] ?? null]));
  return cutoffsComplete(picked) ? picked : null;
}

/** The choices offered for one kind: the standard ones, plus an odd saved value so it is not lost. */
export const cutoffChoices = (current: number | null): number[] =>
  current === null || (CUTOFF_CHOICES as readonly number[]).includes(current) ? [...CUTOFF_CHOICES] : [...CUTOFF_CHOICES, current].sort((a, b) => a - b);

export const isNever = (days: number): boolean => days === CUTOFF_NO_TIME_MARKER;

export type NoticeSwitches = Record<NoticeKind, boolean>;

/** The saved `uc-desktop-notifications-off` as four switches (on unless switched off). */
export function noticeSwitches(saved: unknown): NoticeSwitches {
  const off = noticeKindsOff(saved);
  return Object.fromEntries(NOTICE_KINDS.map((k) => [k, !off.includes(k)])) as NoticeSwitches;
}

/** The switches as the preference stores them: the kinds switched off. */
export const noticesOffValue = (on: NoticeSwitches): NoticeKind[] => NOTICE_KINDS.filter((k) => !on[k]);

/**
 * A call's states: outgoing → active; incoming → answering → active; active ⇄ hold; failure, cancel
 * or bye → none. Active and hold count as "ongoing".
 */
export const CALL_STATES = ['none', 'incoming', 'answering', 'outgoing', 'active', 'hold'] as const;
export type CallState = (typeof CALL_STATES)[number];

/**
 * What can happen to a call. `accepted`: the far end answered our outgoing call; `answer`: we
 * answered an incoming one; `confirmed`: the answer is established; `failed`/`cancel`/`bye` end it.
 */
export type CallEvent = 'accepted' | 'answer' | 'confirmed' | 'hold' | 'unhold' | 'failed' | 'cancel' | 'bye';

const ENDING: ReadonlySet<CallEvent> = new Set(['failed', 'cancel', 'bye']);

const TRANSITIONS: Readonly<Record<CallState, Partial<Record<CallEvent, CallState>>>> = {
  none: {},
  outgoing: { accepted: 'active' },
  incoming: { answer: 'answering' },
  answering: { confirmed: 'active' },
  active: { hold: 'hold' },
  hold: { unhold: 'active' },
};

/** The next state, or null when `event` makes no sense in `state` (the caller ignores it). */
export function nextCallState(state: CallState, event: CallEvent): CallState | null {
  if (ENDING.has(event)) return state === 'none' ? null : 'none';
  return TRANSITIONS[state][event] ?? null;
}

export const isOngoing = (state: CallState) => state === 'active' || state === 'hold';
/** States in which this call occupies the line (another call cannot simply be accepted). */
export const isBusyState = (state: CallState) => state === 'active' || state === 'outgoing' || state === 'answering';

/** A failed, cancelled or finished call stays visible this long, then its record is removed. */
export const ENDED_CALL_LINGER_MS = 3000;

/** The ongoing-call timer: HH:mm:ss, hours not capped at 24. */
export function formatCallTimer(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  return [hh, mm, ss].map((n) => String(n).padStart(2, '0')).join(':');
}

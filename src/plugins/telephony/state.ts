import { proxy } from 'valtio';
import type { CallState } from './model/callState';

/**
 * `off` until the phone engine has started (it loads after the first screen), `unconfigured` for a
 * user without an extension, `elsewhere` while another tab or browser holds the registration.
 */
export type PhoneStatus = 'off' | 'unconfigured' | 'connecting' | 'ready' | 'elsewhere' | 'error';

export type CallEnd = 'ended' | 'failed' | 'declined' | 'missed';

export interface CallRecord {
  id: string;
  state: CallState;
  number: string;
  displayName: string | null;
  direction: 'incoming' | 'outgoing';
  /** When the call became active (ms since the epoch); null before. */
  startedAt: number | null;
  held: boolean;
  muted: boolean;
  /** The other leg of a 3-way call: always null until merging is built. */
  mergedWith: string | null;
  /** How a call in state `none` ended, shown for the few seconds its record lingers. */
  ended: CallEnd | null;
  /** Arrival order, for a stable list. */
  seq: number;
}

/** Live telephony state: the engine writes it, commands and the dock read it when they run or render. */
export const phone = proxy({
  status: 'off' as PhoneStatus,
  calls: {} as Record<string, CallRecord>,
  dialpadOpen: false,
  /** Redial target: the last dial string placed from this browser. */
  lastDialled: '',
});

export function callList(calls: Readonly<Record<string, CallRecord>> = phone.calls): CallRecord[] {
  return Object.values(calls).sort((a, b) => a.seq - b.seq);
}

export function resetPhone(): void {
  phone.status = 'off';
  phone.calls = {};
  phone.dialpadOpen = false;
  phone.lastDialled = '';
}

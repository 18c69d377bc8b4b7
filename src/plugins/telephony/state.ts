import { proxy } from 'valtio';
import type { AudioChoice } from '../../contracts';
import type { ForwardSetting } from '../../wire/calling';
import type { RecordingMode, RecordingState } from '../../wire/recording';
import type { ClickDialState } from './engine/clickDial';
import type { CallState } from './model/callState';

/**
 * `off` until the phone engine has started (it loads after the first screen), `unconfigured` for a
 * user without an extension, `elsewhere` while another tab or browser holds the registration.
 */
export type PhoneStatus = 'off' | 'unconfigured' | 'connecting' | 'ready' | 'elsewhere' | 'error';

export type CallEnd = 'ended' | 'failed' | 'declined' | 'missed' | 'transferred';

/** A transfer of this call that is under way (blind, or attended with a consultation call). */
export interface TransferState {
  kind: 'blind' | 'attended';
  /** Who the call goes to, as the user reads it. */
  target: string;
  status: 'pending' | 'failed';
}

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
  /** This call's recording (reset when the call ends). */
  recording: RecordingState;
  /** The SIP Call-ID, which names the call to the API (recording control); null until known. */
  sipCallId: string | null;
  /** This call is being transferred. */
  transfer: TransferState | null;
  /** This is the consultation call of an attended transfer of that call. */
  consultFor: string | null;
  /** An outgoing call that has early media (183 with SDP): the far end's audio, not our ring-back. */
  earlyMedia?: boolean;
}

/** The phone of a signed-out user, or of one whose engine has not started: the store starts so, and returns to it on sign-out. */
export const initialTelephonyState = () => ({
  status: 'off' as PhoneStatus,
  calls: {} as Record<string, CallRecord>,
  dialpadOpen: false,
  /** Redial target: the last dial string placed from this browser. */
  lastDialled: '',
  /** Where the server sends this user's calls; null until read (refreshed every 5 min). */
  settings: { dnd: null as boolean | null, forwardAlways: null as ForwardSetting | null, saving: false },
  /** The organisation's recording policy and the digit sequences any phone can use (read at start). */
  recordingPolicy: { mode: 'off' as RecordingMode, pauseSequence: '', onDemandSequence: '' },
  /** The chosen microphone, speaker and ringer (device ids; null for the system default) and the microphone's processing. */
  devices: { input: null, output: null, ring: null, echoCancellation: true, noiseSuppression: true } as AudioChoice,
  /** A phone other than a browser is registered to the user's extension (null until asked). */
  deskPhone: null as boolean | null,
  /** "Call my phone first" is on (preference uc-click-dial): Call rings the desk phone first. */
  clickDialOn: false,
  /** The click-dial under way or just over, as the dock shows it. */
  clickDial: null as ClickDialState | null,
});

/** Live telephony state: the engine writes it, commands and the dock read it when they run or render. */
export const phone = proxy(initialTelephonyState());

export function callList(calls: Readonly<Record<string, CallRecord>> = phone.calls): CallRecord[] {
  return Object.values(calls).sort((a, b) => a.seq - b.seq);
}

/** Back to the initial state (the plugin's dispose, and tests). */
export function resetPhone(): void {
  Object.assign(phone, initialTelephonyState());
}

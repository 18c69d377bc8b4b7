import type { ConnectionReporter, Notifier, ApiClient } from '../../../kernel';
import type { ContactsService, PresenceState, SpeedDialService } from '../../../contracts';
import type { Mixer } from './mixer';
import type { DeviceChoice, RemoteAudio, TabChannel, Tones, UaConfig, UaLike } from './types';

export interface SipSettings {
  domain: string;
  register_expires: number;
  no_answer_timeout: number;
  restart_after_online_ms: number;
}

/**
 * Everything the phone takes from outside, injected (engine/index.ts wires the browser's and the
 * kernel's; unit tests pass fakes). Each part of the engine picks what it needs from it.
 */
export interface EngineDeps {
  api: Pick<ApiClient, 'get' | 'post' | 'request'>;
  notify: Notifier;
  connections: ConnectionReporter;
  sip: SipSettings;
  /** The user's name, sent as the SIP display name. */
  displayName: string;
  /** An id for this tab, sent with every registration reservation. */
  peer: string;
  createUa(config: UaConfig): UaLike;
  audio: RemoteAudio;
  tones: Tones;
  /** Translates (the telephony strings are loaded before the engine starts). */
  t(key: string, values?: Record<string, unknown>): string;
  /** A contact's name for a number (ContactsApi), if any. */
  lookupName?(number: string): string | null | undefined;
  /** The user's own presence (PresenceApi), if any plugin provides it. */
  presence?(): PresenceState | undefined;
  /** Tells presence (PresenceApi) that the user is, or no longer is, on a call. */
  setOnCall?(onCall: boolean): void;
  speedDial?(): SpeedDialService | undefined;
  /** Who a contact picked in the palette is (ContactsApi), if a plugin provides contacts. */
  contacts?(): Pick<ContactsService, 'resolve'> | undefined;
  channel?: TabChannel | null;
  /** "Call my phone first": rings the desk phone, which then calls `number` (used while phone.clickDialOn). */
  clickDial?(number: string, name: string): Promise<void>;
  /** Counts a call placed (usage analytics: that it happened, never the number). */
  placed?(): void;
  /** Where redial remembers the last dial string. */
  rememberDialled?(dial: string): void;
  /** Where the chosen microphone and speaker are remembered. */
  devices?: { load(): DeviceChoice; save(choice: DeviceChoice): void };
  /** Whether 3-way calling is allowed (feature flags, browser). */
  threeWay?(): boolean;
  /** The audio mixer of a 3-way call. */
  createMixer?(): Mixer;
  /** Desktop notifications of calls (when the user allowed them). */
  desktop?: DesktopNotifier;
  /** A microphone track (navigator.mediaDevices.getUserMedia in the browser). */
  getUserMedia?(constraints: MediaStreamConstraints): Promise<MediaStream>;
}

export type OthersPolicy = 'hold' | 'end';

/** Desktop notifications: a ringing call (click: to the call), a missed one (click: to history). */
export interface DesktopNotifier {
  incoming(callId: string, name: string): void;
  missed(callId: string, name: string): void;
  /** The call was answered, declined or ended: its ringing notification goes. */
  close(callId: string): void;
}

/** JsSIP's end/failure causes the engine tells apart (JsSIP.C.causes). */
export const CAUSE = {
  mediaDenied: 'User Denied Media Access',
  canceled: 'Canceled',
  auth: 'Authentication Error',
} as const;

/**
 * What plugins know of each other: typed keys of the services they offer, and the ids and paths
 * one plugin names in another's. Declared here, in one file, so that no plugin imports another
 * plugin's files and no contract is a string spelled twice; a plugin `provides` the implementation.
 */
import type { Disposable } from './disposable';
import { serviceKey } from './services';

export interface TelephonyService {
  /** Places a call to a number, extension or SIP address. */
  call(target: string, opts?: { displayName?: string }): Promise<void>;
  /**
   * Tells when a call of this user has ended (answered, missed, declined or failed). Its history
   * record reaches the server at about the same moment: Kamailio files it as it passes the hang-up
   * on, so the side that hung up may ask a moment too early.
   */
  onCallEnded(listener: () => void): Disposable;
}
export const TelephonyApi = serviceKey<TelephonyService>('telephony.api');

/** The contacts plugin's search provider: commands whose argument is a contact name it (`CommandArgSpec.provider`). */
export const CONTACTS_PROVIDER = 'contacts';
/** The history plugin's screen, where a missed call's notification leads. */
export const HISTORY_PATH = '/history';

export interface ContactSummary {
  id: string;
  name: string;
  numbers: readonly string[];
}
/** A contact picked in the palette: what it is called there, and whether it is the signed-in user. */
export interface ResolvedContact extends ContactSummary {
  self: boolean;
}
export interface ContactsService {
  /** The contact a phone number belongs to, if any (for caller names in lists). */
  lookupNumber(number: string): ContactSummary | undefined;
  /**
   * The contact behind an entity of the contacts provider (`PaletteEntity.id`, what "Call ▸ Bob"
   * receives), or undefined for any other entity or a contact no longer in the directory. Its name
   * is the one the palette lists (a nameless contact's e-mail or number).
   */
  resolve(entityId: string): ResolvedContact | undefined;
}
export const ContactsApi = serviceKey<ContactsService>('contacts.api');

export interface MessagingService {
  /** Opens (or starts) the one-to-one chat with an organisation user. */
  openChat(userId: number): void;
  /** Starts a new text (SMS) conversation with a number. */
  newText(number: string): void;
}
export const MessagingApi = serviceKey<MessagingService>('messaging.api');

export interface MeetingsService {
  /** Starts an instant meeting inviting these people (user ids or e-mail addresses). */
  startMeeting(invitees: ReadonlyArray<{ userId?: number; email?: string; name: string }>): void;
}
export const MeetingsApi = serviceKey<MeetingsService>('meetings.api');

export interface WizardService {
  /** True while the onboarding wizard must be completed before the app is usable. */
  isRequired(): Promise<boolean>;
}
export const WizardApi = serviceKey<WizardService>('wizard.api');

/** The user's own presence states (specification); the wire values are chat, away, xa and dnd. */
export type PresenceState = 'available' | 'away' | 'busy' | 'invisible' | 'lunch' | 'custom' | 'unavailable' | 'donotdisturb';
export interface PresenceService {
  /** The signed-in user's own presence now (telephony rejects incoming calls in do-not-disturb). */
  ownState(): PresenceState;
  /**
   * Telephony says when the user is on a call: an available user is then shown as available with
   * the text 'on call'. Any end of the call — answered, cancelled (487) or failed — resets it.
   */
  setOnCall(onCall: boolean): void;
}
/** Owned by messaging (presence); read by telephony. */
export const PresenceApi = serviceKey<PresenceService>('messaging.presence');

export interface SpeedDialService {
  /** The dial string saved under a shortcut (what the user typed after `#`), or null when there is none. */
  resolve(shortcut: string): Promise<string | null>;
}
export const SpeedDialApi = serviceKey<SpeedDialService>('speeddial.api');

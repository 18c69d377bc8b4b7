import { serviceKey } from '../kernel';

export interface MessagingService {
  /** Opens (or starts) the one-to-one chat with an organisation user. */
  openChat(userId: number): void;
  /** Starts a new text (SMS) conversation with a number. */
  newText(number: string): void;
}
export const MessagingApi = serviceKey<MessagingService>('messaging.api');

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

import { serviceKey, type Disposable } from '../kernel';

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
/** Provided by telephony. */
export const TelephonyApi = serviceKey<TelephonyService>('telephony.api');

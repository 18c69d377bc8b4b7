import { Api, Notifications, type ServiceLookup } from '../../kernel';
import { MobileApps, MobileAuthResponse } from '../../wire/mobile';
import { log } from './log';
import { mobileState } from './state';

let pending: Promise<void> | null = null;
/** A new sign-in code for the QR code (one request at a time). A failure keeps the shown code while it is valid and says so. */
export function newCode(s: ServiceLookup): Promise<void> {
  pending ??= (async () => {
    mobileState.status = mobileState.code ? mobileState.status : 'loading';
    try {
      const res = await s.get(Api).get('/v1/mobile-auth', undefined, MobileAuthResponse);
      Object.assign(mobileState, { code: res.access_token, expiresAt: Date.now() + res.expires_in * 1000, status: 'ready' });
    } catch (err) {
      log.error('sign-in code failed', err);
      mobileState.status = 'failed';
      if (mobileState.expiresAt <= Date.now()) mobileState.code = null;
      s.get(Notifications).toast({ titleKey: 'mobile:errors.title', messageKey: 'mobile:errors.qr', tone: 'error' });
    } finally {
      pending = null;
    }
  })();
  return pending;
}

/** The store links; none on failure (the page still shows the code). */
export async function loadApps(s: ServiceLookup): Promise<void> {
  try {
    mobileState.apps = await s.get(Api).get('/v1/mobile-apps', undefined, MobileApps);
  } catch (err) {
    log.error('store links failed', err);
    mobileState.apps = {};
  }
}

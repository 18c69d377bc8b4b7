import { proxy } from 'valtio';
import type { MobileApps } from '../../wire/mobile';

export const MOBILE_PATH = '/mobileDownload';

/** Nothing fetched: the store starts so, and returns to it when the plugin stops or the page closes. */
export const initialMobileState = () => ({
  /** The sign-in code the QR code shows, and when the server lets it expire (ms since epoch). */
  code: null as string | null,
  expiresAt: 0,
  /** `failed`: the last request for a code failed; the old code (if still valid) stays shown. */
  status: 'idle' as 'idle' | 'loading' | 'ready' | 'failed',
  /** The deployment's store links; null until fetched. */
  apps: null as MobileApps | null,
});

/** Live state: the page reads it, the lazy chunk writes it. */
export const mobileState = proxy(initialMobileState());

export function resetMobileState(): void {
  Object.assign(mobileState, initialMobileState());
}

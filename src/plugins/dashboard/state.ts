import { proxy } from 'valtio';
import type { FeedItem } from './model';

export const DASHBOARD_PATH = '/dashboard';
/** The specification's `home` route: leads to the user's chosen home page, as `/` does. */
export const HOME_PATH = '/home';

/** The dashboard before it has loaded anything: the store starts so, and returns to it on sign-out. */
export const initialDashboardState = () => ({
  /** Voicemail and calls as last read from the server (messages come live from messaging); null until read. */
  feed: null as FeedItem[] | null,
  /** A source could not be read: the feed shows what it has and says so. */
  feedFailed: false,
  /** The join popup is open over the dashboard. */
  joinOpen: false,
});

export const dashboardState = proxy(initialDashboardState());

export function resetDashboardState(): void {
  Object.assign(dashboardState, initialDashboardState());
}

import type { Navigator } from '../kernel';

/** The part of the app router the navigator needs. */
export interface NavigableRouter {
  navigate(opts: { to: string; search?: never; replace?: boolean }): Promise<unknown>;
  /** Where the user is going: set when a navigation starts, before the new screen has loaded. */
  readonly latestLocation: { pathname: string };
}

/** The Navigation service plugins get: the app router, with automatic changes kept from undoing the user's. */
export function appNavigator(router: NavigableRouter): Navigator {
  return {
    navigate: (to, opts) => {
      if (opts?.ifStillOn !== undefined && !router.latestLocation.pathname.startsWith(opts.ifStillOn)) return;
      void router.navigate({ to, search: opts?.search as never, replace: opts?.replace });
    },
  };
}

/**
 * Where a visitor without a session lands: always the login page, remembering the page asked for
 * (except the home and the logout page) so that signing in returns there. Plain URL rules instead of
 * a router, so that the login page's JavaScript carries no router.
 */
export function loginUrl(at: { pathname: string; search: string; hash: string }): string {
  if (at.pathname === '/login' || at.pathname === '/login/') return `/login${at.search}${at.hash}`;
  // Signed out for maintenance: the login page says so.
  if (at.pathname === '/logout' && new URLSearchParams(at.search).get('reason') === 'maintenance') return '/login?reason=maintenance';
  if (at.pathname === '/' || at.pathname === '/logout' || at.pathname === '/logout/') return '/login';
  return `/login?${new URLSearchParams({ redirect: `${at.pathname}${at.search}${at.hash}` }).toString()}`;
}

/** The page the login form was asked to return to, if any (checked by safeRedirect before use). */
export function redirectParam(search: string): string | undefined {
  return new URLSearchParams(search).get('redirect') ?? undefined;
}

/** Why the visitor was signed out, when the login page has something to say about it. */
export function signedOutReason(search: string): 'maintenance' | undefined {
  return new URLSearchParams(search).get('reason') === 'maintenance' ? 'maintenance' : undefined;
}

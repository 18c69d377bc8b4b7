/** The landing path after login: only same-origin paths, never the login page itself. */
export function safeRedirect(target: string | undefined): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/login') || target.startsWith('/logout')) return '/';
  return target;
}

/** The meeting's slug when the page asked for is a meeting's (`/uc/{alias}/{slug}`): a guest may join it. */
export function meetingSlugOf(path: string | undefined): string | null {
  return /^\/uc\/[^/?#]+\/([a-z0-9]{5,20})(?:[?#]|$)/.exec(path ?? '')?.[1] ?? null;
}

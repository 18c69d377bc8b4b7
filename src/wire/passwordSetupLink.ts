/**
 * The one-time "set your password" link (issue 24), without zod: the set-password page (outside the
 * app, like the login page) reads it. The token rides in the fragment, which browsers never send to
 * a server nor put in a Referer, so it stays out of access logs.
 */
export const PASSWORD_SETUP_PATH = '/set-password';
/** How long a link works: a week, long enough for a new colleague's first day; a new link replaces it. */
export const PASSWORD_SETUP_TTL_SECONDS = 7 * 24 * 3600;
/** The token's form: 32 random bytes, base64url. */
export const SETUP_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const passwordSetupUrl = (origin: string, token: string): string => `${origin}${PASSWORD_SETUP_PATH}#${token}`;

/** The token of a link's fragment (`#token`), or null when there is none that could be one. */
export function setupTokenFromHash(hash: string): string | null {
  const token = hash.replace(/^#/, '').trim();
  return SETUP_TOKEN_PATTERN.test(token) ? token : null;
}

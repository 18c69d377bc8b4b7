/*
 * What both the login page and the app need: the page's API client, signing in and out, and finding
 * whether the browser still has a session. Loaded before either (see start.tsx), so it stays small.
 */
import type { AccessTokenResponse as AccessToken, LoginRequest } from '../wire/auth';
import { AccessTokenResponse } from '../wire/tokenResponse';
import { ApiClient, ApiError } from '../kernel';

/**
 * The one API client of the page; renewal failure sends the browser through /logout to /login.
 * On /logout itself a sign-out is under way (and may carry its reason, maintenance): the requests
 * it cuts short must not start another one without that reason.
 */
export const api = new ApiClient({
  onAuthFailure: () => {
    if (!location.pathname.startsWith('/login') && !location.pathname.startsWith('/logout')) location.assign('/logout');
  },
});

/** The user of the refresh cookie's session (its access token is kept); null when there is none. */
export async function renewSession(): Promise<AccessToken | null> {
  try {
    return await api.renew();
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) return null;
    throw err;
  }
}

export async function login(req: LoginRequest): Promise<AccessToken> {
  const token = await api.post('/login', req, AccessTokenResponse);
  api.setToken(token.access_token);
  return token;
}

export async function logout(): Promise<void> {
  try {
    await api.post('/logout', {});
  } catch {
    /* the cookie is cleared server-side when reachable; either way the page forgets the token */
  }
  api.setToken(null);
}

import type { AccessTokenResponse as AccessToken, LoginRequest } from '../wire/auth';
import { AccessTokenResponse, Profile, UccConfig } from '../wire/bootResponses';
import type { UccConfig as UccConfigType } from '../wire/config';
import type { PreferenceKey } from '../wire/preferences';
import type { Profile as ProfileType } from '../wire/profile';
import { ApiClient, ApiError, type PreferencesStore } from '../kernel';

export interface LoadedSession {
  userId: number;
  profile: ProfileType;
  config: UccConfigType;
}

/** The one API client of the page; renewal failure sends the browser through /logout to /login. */
export const api = new ApiClient({
  onAuthFailure: () => {
    if (!location.pathname.startsWith('/login')) location.assign('/logout');
  },
});

async function loadUser(userId: number): Promise<LoadedSession> {
  const [profile, config] = await Promise.all([api.get(`/v1/users/${userId}`, undefined, Profile), api.get('/v1/ucc-config', undefined, UccConfig)]);
  return { userId, profile, config };
}

/** Restores a session from the refresh cookie; null when there is none. */
export async function restoreSession(): Promise<LoadedSession | null> {
  try {
    const token = await api.renew();
    return await loadUser(token.user_id);
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

export function createPreferences(client: ApiClient): PreferencesStore {
  return {
    async get<T>(key: PreferenceKey): Promise<T | false> {
      try {
        const res = await client.get<{ value: T }>(`/v1/user-preferences/${encodeURIComponent(key)}`);
        return res.value;
      } catch (err) {
        // A preference never saved answers 404: store false for it and resolve false, so unknown
        // preferences read as off from then on (the product's rule for a preference get 404).
        if (err instanceof ApiError && err.status === 404) {
          await client.put(`/v1/user-preferences/${encodeURIComponent(key)}`, { value: false }).catch(() => undefined);
          return false;
        }
        throw err;
      }
    },
    async set(key, value) {
      await client.put(`/v1/user-preferences/${encodeURIComponent(key)}`, { value });
    },
  };
}

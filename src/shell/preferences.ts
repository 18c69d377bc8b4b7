import type { PreferenceKey } from '../wire/preferences';
import { ApiError, toDisposable, type ApiClient, type PreferencesStore } from '../kernel';

export function createPreferences(client: ApiClient): PreferencesStore {
  const listeners = new Map<PreferenceKey, Set<(value: unknown) => void>>();
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
      for (const l of [...(listeners.get(key) ?? [])]) {
        try {
          l(value);
        } catch (err) {
          // One reader's failure must not stop the others nor fail the save that did happen.
          console.error('preference listener', key, err);
        }
      }
    },
    onChange(key, listener) {
      let set = listeners.get(key);
      if (!set) listeners.set(key, (set = new Set()));
      set.add(listener);
      return toDisposable(() => set.delete(listener));
    },
  };
}

import type { ApiClient, UsageAnalytics } from '../kernel';

const SESSION_KEY = 'uc-analytics-session';

/**
 * The tab's analytics session: a random id kept for the tab's life (sessionStorage), so counts can
 * tell one visit from many without knowing who it was.
 */
export function analyticsSessionId(storage: Pick<Storage, 'getItem' | 'setItem'> | null = typeof sessionStorage === 'undefined' ? null : sessionStorage): string {
  const kept = storage?.getItem(SESSION_KEY);
  if (kept) return kept;
  const id = crypto.randomUUID();
  storage?.setItem(SESSION_KEY, id);
  return id;
}

/** Counting is best effort: a failed count is logged, never shown, never retried. */
export function createAnalytics(api: Pick<ApiClient, 'post'>, sessionId: () => string = analyticsSessionId): UsageAnalytics {
  return {
    track(action) {
      api.post('/v1/analytics', { action_type: action, session_id: sessionId() }).catch((err: unknown) => console.warn('analytics', err));
    },
  };
}

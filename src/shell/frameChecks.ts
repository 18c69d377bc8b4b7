import { ApiError, type ApiClient, type Disposable, type ServerPushHub } from '../kernel';
import { MAINTENANCE_SUBJECT } from '../wire/frameConstants';
import { shellState } from './uiState';

/*
 * The frame's checks (README, "Old clients" and "Maintenance"): whether this tab's client is too
 * old, whether the service is under maintenance, and which announcement the user has not confirmed.
 */

/**
 * What the app cannot work without, each a feature a supported browser has had for years: a
 * browser missing one gets the old-client modal instead of failing somewhere later.
 */
export const REQUIRED_FEATURES: ReadonlyArray<[string, (w: typeof globalThis) => boolean]> = [
  ['WebSocket', (w) => typeof w.WebSocket === 'function'],
  ['RTCPeerConnection', (w) => typeof w.RTCPeerConnection === 'function'],
  ['indexedDB', (w) => typeof w.indexedDB === 'object' && w.indexedDB !== null],
  ['structuredClone', (w) => typeof w.structuredClone === 'function'],
  ['crypto.randomUUID', (w) => typeof w.crypto?.randomUUID === 'function'],
  ['Array.prototype.findLast', () => typeof Array.prototype.findLast === 'function'],
  ['Intl.RelativeTimeFormat', (w) => typeof w.Intl?.RelativeTimeFormat === 'function'],
];

export function missingFeatures(w: typeof globalThis = globalThis): string[] {
  return REQUIRED_FEATURES.filter(([, has]) => !has(w)).map(([name]) => name);
}

/** The built entry script this page runs (`index-3f9c1a.js`); null under the development server. */
export function pageBuild(doc: Pick<Document, 'querySelector'> = document): string | null {
  const src = doc.querySelector<HTMLScriptElement>('script[type="module"][src^="/assets/"]')?.getAttribute('src');
  return src ? src.slice('/assets/'.length) : null;
}

/** Stale: the server serves another build than the one this tab runs (both known). */
export function isStale(mine: string | null, served: string | null): boolean {
  return mine !== null && served !== null && mine !== served;
}

/** The old-client rule: a missing browser feature first (a reload will not help), else a stale build. */
export function oldClientReason(served: string | null, mine = pageBuild(), missing = missingFeatures()): 'browser' | 'stale' | null {
  if (missing.length) return 'browser';
  return isStale(mine, served) ? 'stale' : null;
}

export const MAINTENANCE_LOGOUT = '/logout?reason=maintenance';

/**
 * The maintenance check: a 503 sends the browser to /logout, which signs out and shows the login
 * page with the maintenance message; otherwise the answer also says which build is served.
 */
export async function checkMaintenance(api: Pick<ApiClient, 'get'>, go: (to: string) => void = (to) => location.assign(to)): Promise<void> {
  try {
    const status = await api.get<{ client_build: string | null }>('/v1/maintenance');
    const reason = oldClientReason(status.client_build);
    if (reason && !shellState.oldClient) shellState.oldClient = reason;
  } catch (err) {
    if (err instanceof ApiError && err.status === 503) go(MAINTENANCE_LOGOUT);
    else console.warn('maintenance check', err);
  }
}

/** Runs the check whenever the server pushes the maintenance headline. */
export function watchMaintenance(push: ServerPushHub, api: Pick<ApiClient, 'get'>, go?: (to: string) => void): Disposable {
  return push.subscribe(MAINTENANCE_SUBJECT, () => void checkMaintenance(api, go));
}

export async function loadAnnouncements(api: Pick<ApiClient, 'get'>): Promise<void> {
  try {
    const { pending } = await api.get<{ pending: string[] }>('/v1/announcements');
    if (pending.includes('design-changes')) shellState.announcement = 'design-changes';
  } catch (err) {
    console.warn('announcements', err);
  }
}

/** Confirmed on the server first: closing it only when the server has it means it never shows again. */
export async function confirmAnnouncement(api: Pick<ApiClient, 'post'>, id: 'design-changes'): Promise<void> {
  await api.post(`/v1/announcements/${id}/confirm`, {});
  if (shellState.announcement === id) shellState.announcement = null;
}

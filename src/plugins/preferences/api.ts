import { Api, ApiError, HomePage, Preferences, Session, type ServiceLookup } from '../../kernel';
import { AvatarResponse } from '../../wire/contacts';
import { AvailabilityRegionList, E911Address } from '../../wire/profileExtras';
import { Profile } from '../../wire/profile';
import { UcSettings, type UcSettingKey } from '../../wire/ucSettings';
import { DestinationsCatalogue, FindMe, InboundRoutes, type DestinationTypeInfo } from '../../wire/inbound';
import { THEME_STORAGE_KEY, type ThemeChoice } from './state';

const settingsPath = (services: ServiceLookup) => `/v1/users/${services.get(Session).userId}/settings/uc`;

export const loadUcSettings = (services: ServiceLookup): Promise<UcSettings> => services.get(Api).get(settingsPath(services), undefined, UcSettings);

export const saveUcSettings = (services: ServiceLookup, patch: Partial<Record<UcSettingKey, boolean>>): Promise<UcSettings> =>
  services.get(Api).put(settingsPath(services), patch, UcSettings);

/** Resolves; rejects with the kernel's ApiError, whose message the password form reads (error catalogue). */
export const changePassword = async (services: ServiceLookup, current: string, next: string): Promise<void> => {
  const session = services.get(Session);
  await services.get(Api).patch(`/v1/users/${session.userId}`, { current_password: current, new_password: next }, Profile);
};

/** Saves the home page and takes it at once: `/` leads there from now on. null: the product's home. */
export async function saveHomePage(services: ServiceLookup, path: string | null): Promise<void> {
  await services.get(Preferences).set('uc-home-page', path ?? false);
  services.maybe(HomePage)?.choose(path);
}

/** What /theme.js does at boot, for a choice made now. */
export function applyTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    /* storage blocked: this page still follows the choice, the next load the system */
  }
  const dark = choice === 'dark' || (choice === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.setAttribute('data-theme', dark ? 'dark' : 'light');
}

export function currentTheme(): ThemeChoice {
  try {
    const v = localStorage.getItem(THEME_STORAGE_KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

/** Saves the theme on the server (the other browsers of the user take it at their next start) and applies it here. */
export async function saveTheme(services: ServiceLookup, choice: ThemeChoice): Promise<void> {
  applyTheme(choice);
  await services.get(Preferences).set('uc-theme', choice);
}

/** The server's copy wins over this browser's at start, like the language. */
export async function adoptSavedTheme(services: ServiceLookup): Promise<void> {
  const saved = await services.get(Preferences).get<string>('uc-theme');
  if ((saved === 'light' || saved === 'dark' || saved === 'system') && saved !== currentTheme()) applyTheme(saved);
}

/** What the profile panel shows beside the profile: null when the server has none (E911 404) or could not answer. */
export interface ProfileExtras {
  e911: E911Address | null | 'unavailable';
  regions: AvailabilityRegionList | 'unavailable';
}

/** The profile itself, the one part whose failure the loader retries (profileLoader.ts). */
export const loadOwnProfile = (services: ServiceLookup): Promise<Profile> => services.get(Api).get(`/v1/users/${services.get(Session).userId}`, undefined, Profile);

/** The E911 address (a 404 is "none on file", as the error catalogue tolerates it) and the regions; failures are shown, not retried. */
export async function loadProfileExtras(services: ServiceLookup): Promise<ProfileExtras> {
  const api = services.get(Api);
  const [e911, regions] = await Promise.all([
    api.get('/v1/e911', undefined, E911Address).catch((err: unknown) => (err instanceof ApiError && err.status === 404 ? null : 'unavailable' as const)),
    api.get('/v1/availability_regions', undefined, AvailabilityRegionList).catch(() => 'unavailable' as const),
  ]);
  return { e911, regions };
}

/** The photo goes as the form field `photo`; the session's profile (and so the account menu) follows. */
export async function uploadOwnPhoto(services: ServiceLookup, file: File): Promise<void> {
  const session = services.get(Session);
  const body = new FormData();
  body.append('photo', file, file.name);
  await services.get(Api).request('POST', `/v1/users/${session.userId}/avatar`, { body, schema: AvatarResponse });
  await session.refreshProfile();
}

export async function removeOwnPhoto(services: ServiceLookup): Promise<void> {
  const session = services.get(Session);
  await services.get(Api).delete(`/v1/users/${session.userId}/avatar`);
  await session.refreshProfile();
}

/** The inbound rules, the find-me list and what each destination type can route to here. */
export interface CallingRules {
  inbound: InboundRoutes;
  findMe: FindMe;
  types: DestinationTypeInfo[];
}

/** Rejects with the kernel's ApiError (a 403 for a user not allowed to see them). */
export async function loadCallingRules(services: ServiceLookup): Promise<CallingRules> {
  const api = services.get(Api);
  const [inbound, findMe, catalogue] = await Promise.all([
    api.get('/v1/broad/inbound', undefined, InboundRoutes),
    api.get('/v1/broad/find-me', undefined, FindMe),
    api.get('/v1/broad/destinations', undefined, DestinationsCatalogue),
  ]);
  return { inbound, findMe: withWindowZone(findMe), types: catalogue.types };
}

/**
 * Find-me with its window's zone always said: a window saved before zones were kept was, and is,
 * read in UTC; no window, no zone. The drafts and the saved copy then compare equal.
 */
export const withWindowZone = (f: FindMe): FindMe => ({ ...f, timeZone: f.startTime ? (f.timeZone ?? 'UTC') : null });

/** The server's answer is what was stored (a number reduced to what is dialled). */
export const saveInbound = (services: ServiceLookup, routes: InboundRoutes): Promise<InboundRoutes> => services.get(Api).put('/v1/broad/inbound', routes, InboundRoutes);

export const loadFindMe = (services: ServiceLookup): Promise<FindMe> => services.get(Api).get('/v1/broad/find-me', undefined, FindMe);

export const saveFindMe = (services: ServiceLookup, findMe: FindMe): Promise<FindMe> => services.get(Api).put('/v1/broad/find-me', findMe, FindMe).then(withWindowZone);

/** Find-me's recorded name: a WAV the server plays to callers before "please hold…". */
export const saveRecordedName = async (services: ServiceLookup, wav: Blob): Promise<void> => {
  const body = new FormData();
  body.append('name', wav, 'name.wav');
  await services.get(Api).request('PUT', '/v1/broad/find-me/name', { body });
};

export const removeRecordedName = (services: ServiceLookup): Promise<void> => services.get(Api).delete('/v1/broad/find-me/name');

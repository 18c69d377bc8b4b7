import { proxy, ref } from 'valtio';
import type { PaletteEntity } from '../../kernel';

export const PREFERENCES_PATH = '/preferences';

/**
 * The specification's panels, in its order. Which of them exist, and for whom, is the panel
 * registry's say (ui/registry.ts): a panel not built yet is simply absent from it.
 */
export const PANEL_IDS = ['profile', 'general', 'audio', 'calling', 'messages', 'integrations', 'logging', 'password', 'connectwise', 'salesforce'] as const;
export type PanelId = (typeof PANEL_IDS)[number];
export const isPanelId = (v: unknown): v is PanelId => (PANEL_IDS as readonly unknown[]).includes(v);

/** The Profile panel's dialogs, which `&modal=` opens with the panel (the contacts' "Edit profile" asks for `edit`). */
export const PROFILE_MODALS = ['edit', 'photo'] as const;
export type ProfileModal = (typeof PROFILE_MODALS)[number];

/** The Calling panel's tabs (`&tab=`), the specification's order. */
export const CALLING_TABS = ['inbound-dialing', 'find-me', 'click-dial'] as const;
export type CallingTab = (typeof CALLING_TABS)[number];

export type PreferencesSearch = {
  panel?: PanelId;
  modal?: ProfileModal;
  tab?: CallingTab;
};

/** `?panel=` keeps a known panel id; anything else is dropped, and the screen shows its first panel. */
export function panelSearch(search: Record<string, unknown>): PreferencesSearch {
  if (!isPanelId(search.panel)) return {};
  const modal = search.panel === 'profile' ? PROFILE_MODALS.find((m) => m === search.modal) : undefined;
  const tab = search.panel === 'calling' ? CALLING_TABS.find((t) => t === search.tab) : undefined;
  return { panel: search.panel, ...(modal && { modal }), ...(tab && { tab }) };
}

/** Where in the screen a search leads: the panel, and the Calling panel's tab (its first when none is named). */
export function placeOf(search: PreferencesSearch, firstPanel: PanelId | undefined): string {
  const panel = search.panel ?? firstPanel;
  return panel === 'calling' ? `${panel}/${search.tab ?? CALLING_TABS[0]}` : String(panel);
}

/** What the open panel's form would lose if the user left now (see ui/usePanelForm.ts). */
export interface UnsavedForm {
  panel: PanelId;
  /** Saves; false when the save failed (the panel shows why, and the user stays). */
  save: () => Promise<boolean>;
  discard: () => void;
}

export const initialPreferencesState = () => ({
  unsaved: null as UnsavedForm | null,
});

/** Live state: the unsaved form the screen's leave guard asks about. */
export const preferencesState = proxy(initialPreferencesState());

export function resetPreferencesState(): void {
  Object.assign(preferencesState, initialPreferencesState());
  palette.entities = ref([]);
}

/** The palette's entities, one per panel the user has ("Preferences ▸ General"), built by the lazy chunk. */
export const palette = proxy({ entities: ref([] as PaletteEntity[]) });

export type ThemeChoice = 'light' | 'dark' | 'system';
export const THEMES: readonly ThemeChoice[] = ['light', 'dark', 'system'];
/** This browser's copy of the theme choice, read before the first paint by /theme.js. */
export const THEME_STORAGE_KEY = 'uc-theme';

/** The dashboard backgrounds (public/backgrounds/): the list is the wire's, which the dashboard reads too. */
export { DASHBOARD_BACKGROUNDS as BACKGROUNDS, dashboardBackgroundUrl as backgroundUrl, type DashboardBackground } from '../../wire/dashboardBackgrounds';

/** How the rooms list is ordered (`uc-sort-rooms`). */
export const ROOM_SORTS = ['recent', 'name'] as const;
export type RoomSort = (typeof ROOM_SORTS)[number];

import { proxy, ref } from 'valtio';
import type { PaletteEntity } from '../../kernel';
import type { SpeedDial } from '../../wire/speedDial';

export const SPEED_DIAL_PATH = '/speed-dial';

/** What the edit form starts with: an entry's values, or a new one's (possibly prefilled). */
export interface FormStart {
  /** The entry changed; null for a new one. */
  id: number | null;
  shortcut: string;
  label: string;
  number: string;
  shared: boolean;
}

/** Nothing loaded, nothing open: the store starts so, and returns to it when the plugin stops. */
export const initialSpeedDialState = () => ({
  /** The caller's entries and the organisation's shared ones, in the server's order (own first, by position). */
  items: null as SpeedDial[] | null,
  /** The organisation's maximum and how many it has (max_org_speed_dials, total_org_speed_dials). */
  max: 0,
  total: 0,
  loadFailed: false,
  /** The edit form's dialog, open while set. */
  form: null as FormStart | null,
  /** The side panel (sidecar) of the dialpad and the call screen. */
  panelOpen: false,
});

/** Live state: the commands and the overlay host read it at boot; the lazy chunk writes it. */
export const sdState = proxy(initialSpeedDialState());

/** The palette's entities, rebuilt by the lazy chunk whenever the list changes. */
export const palette = proxy({ entities: ref([] as PaletteEntity[]) });

export function resetSpeedDialState(): void {
  Object.assign(sdState, initialSpeedDialState());
  palette.entities = ref([]);
}

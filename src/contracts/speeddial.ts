import { serviceKey } from '../kernel';

export interface SpeedDialService {
  /** The dial string saved under a shortcut (what the user typed after `#`), or null when there is none. */
  resolve(shortcut: string): Promise<string | null>;
}
export const SpeedDialApi = serviceKey<SpeedDialService>('speeddial.api');

/** The speed-dial side panel (sidecar): the list to dial from, run by the dialpad's "Speed dial" button. */
export const SPEED_DIAL_PANEL_COMMAND = 'speed-dial.panel';
/**
 * "Add to speed dial": the speed-dial form for a new entry, prefilled with these arguments (a
 * contact's action passes the contact's number and name).
 */
export const SPEED_DIAL_ADD_COMMAND = 'speed-dial.add';
export interface SpeedDialAddArgs {
  number?: string;
  label?: string;
}

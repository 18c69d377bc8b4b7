import { serviceKey } from '../kernel';

export interface SpeedDialService {
  /** The dial string saved under a shortcut (what the user typed after `#`), or null when there is none. */
  resolve(shortcut: string): Promise<string | null>;
}
export const SpeedDialApi = serviceKey<SpeedDialService>('speeddial.api');

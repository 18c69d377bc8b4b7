import { proxy, ref } from 'valtio';
import type { PaletteEntity } from '../../kernel';

/** One recorded call. */
export interface Recording {
  id: string;
  direction: 'IN' | 'OUT';
  phoneNumber: string;
  cnam: string | null;
  /** UTC ISO 8601. */
  timestamp: string;
  durationSeconds: number;
  mediaUrl: string;
}

/** The recording player's states; a fetch, decode or failover-block failure ends in 'failed'. */
export type PlayerState = 'not playing' | 'loading' | 'playing' | 'paused' | 'failed';

export const RECORDINGS_PATH = '/recordings';

/** Nothing loaded and nothing shown: the store starts so, and returns to it when the plugin stops. */
export const initialRecordingsState = () => ({
  /** From GET /v1/call-recording-settings: recordings are shown when the user may view them. */
  visible: false,
  items: null as Recording[] | null,
  total: 0,
  loadFailed: false,
  selectedId: null as string | null,
  player: { id: null as string | null, state: 'not playing' as PlayerState, position: 0, duration: 0 },
});

/** Live state: the commands, the badge-less nav entry and the palette read it; the lazy chunk writes it. */
export const recState = proxy(initialRecordingsState());

export const palette = proxy({ entities: ref([] as PaletteEntity[]) });


export function resetRecordingsState(): void {
  Object.assign(recState, initialRecordingsState());
  palette.entities = ref([]);
}

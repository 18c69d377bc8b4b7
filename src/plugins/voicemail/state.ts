import { proxy, ref } from 'valtio';
import type { PaletteEntity } from '../../kernel';
import type { TranscriptState } from '../../wire/voicemail';

/** One voicemail, the same whichever API generation it came from. */
export interface Voicemail {
  id: string;
  status: 'UNREAD' | 'READ';
  callerNumber: string;
  callerName: string | null;
  durationSeconds: number;
  /** UTC ISO 8601. */
  timestamp: string;
  transcriptState: TranscriptState;
  /** Null until known (v2 fetches it on demand). */
  transcript: string | null;
}

export type VoicemailGroup = 'ALL' | 'UNREAD' | 'READ';
/** Audio of one message: idle until asked for, then loading, and failed or ready. */
export type AudioState = 'idle' | 'loading' | 'failed' | 'ready';

/** The state of a user who has not loaded any messages: the store starts so, and returns to it on sign-out. */
export const initialVoicemailState = () => ({
  items: null as Voicemail[] | null,
  loadFailed: false,
  /** 2 when the voicemail2 feature is on. */
  generation: 2 as 1 | 2,
  /** The message in the detail pane (the route's id). */
  selectedId: null as string | null,
  /** Ticked for bulk actions. */
  checked: [] as string[],
  /** Whose audio is loaded in the player, and how it stands. */
  player: { id: null as string | null, audio: 'idle' as AudioState, playing: false, position: 0, duration: 0 },
  /** Messages whose transcript is shown. */
  expanded: [] as string[],
});

/**
 * Live state, read by the commands when they run, by the badge and the palette at boot, and by
 * the lazily loaded screen. The work (API calls, refresh, audio) lives in the lazy chunk.
 */
export const vmState = proxy(initialVoicemailState());

/** Back to the initial state, keeping the API generation the plugin chose at activation. */
export function resetVoicemailState(): void {
  Object.assign(vmState, { ...initialVoicemailState(), generation: vmState.generation });
  palette.entities = ref([]);
}

/** Declared with the other plugins' contracts: the dashboard's feed leads here. */
export { VOICEMAIL_PATH } from '../../contracts';

export const unreadCount = (items: readonly Voicemail[] | null): number => (items ? items.filter((v) => v.status === 'UNREAD').length : 0);


/** The palette's entities, built by the lazy chunk whenever the messages change. */
export const palette = proxy({ entities: ref([] as PaletteEntity[]) });

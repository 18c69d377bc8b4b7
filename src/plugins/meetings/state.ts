import { proxy, ref } from 'valtio';
import type { PaletteEntity } from '../../kernel';
import type { CalendarFeed, Meeting, MeetingFilter, MeetingPermissions } from '../../wire/meetings';
import type { AdHocInvite } from './adhoc/model';
import type { FormInvitee, MeetingForm, ModalTab } from './model';

export const MEETINGS_PATH = '/meetings';
export const SCHEDULE_PATH = '/schedule';
export const ROOMS_PATH = '/rooms';
/** The meeting window: `{meeting_url}/uc/{alias}/{slug}` (its lobby until the meeting page with media lands). */
export const LOBBY_PATH = '/uc/$alias/$slug';
/** The room editor for a new room (`/rooms/new`). */
export const NEW_ROOM_ID = 'new';
export const PAGE_SIZE = 50;

/** The modal, when open: which tab, which meeting it edits, what is typed, and the error the server gave. */
export interface ModalState {
  tab: ModalTab;
  editingId: number | null;
  /** Set to seed a fresh form (the contacts' "Meet" invites someone); consumed by the modal. */
  seed: { form?: MeetingForm; invitees?: FormInvitee[] } | null;
}

/** The state of a user who has loaded nothing: the store starts so, and returns to it on sign-out. */
export const initialMeetingsState = () => ({
  /** The loaded occurrences, oldest first; null until the first page is in. */
  items: null as Meeting[] | null,
  total: 0,
  loadFailed: false,
  loadingMore: false,
  filter: null as MeetingFilter | null,
  search: '',
  /** The row in the detail pane (a meeting's occurrence key). */
  selectedKey: null as string | null,
  permissions: null as MeetingPermissions | null,
  /** The preference uc-can-create-meetings (the server derives it): null until read at sign-in. */
  canCreate: null as boolean | null,
  rooms: null as Meeting[] | null,
  roomsFailed: false,
  roomRefreshMs: 300_000,
  selectedRoomId: null as number | null,
  feeds: null as CalendarFeed[] | null,
  modal: null as ModalState | null,
  roomModal: null as { editingId: number | null } | null,
  feedsOpen: false,
  joinByIdOpen: false,
  /** In the meeting's media (the meeting page): what its commands act on and list by. */
  live: null as LiveControls | null,
  /** Ad-hoc invites of this session, sent and received, by invite id. */
  adhoc: {} as Record<string, AdHocInvite>,
  /** The invite the inviter's modal waits on ("Waiting for Bob…"). */
  adhocModal: null as string | null,
});

/** The meeting page's controls, mirrored for the commands' listing and for their titles' state. */
export interface LiveControls {
  muted: boolean;
  camera: boolean;
  hand: boolean;
  sharing: boolean;
  panel: 'participants' | 'chat' | 'devices' | null;
}

/** Live state: read by the commands and the palette at boot, written by the lazy chunk. */
export const meetingsState = proxy(initialMeetingsState());

export function resetMeetingsState(): void {
  Object.assign(meetingsState, initialMeetingsState());
  palette.entities = ref([]);
}

/** The palette's meetings and rooms, built by the lazy chunk whenever they change. */
export const palette = proxy({ entities: ref([] as PaletteEntity[]) });

/** The meeting shown in the detail pane. */
export const selectedMeeting = (): Meeting | undefined => meetingsState.items?.find((m) => m.key === meetingsState.selectedKey);

import type { ComponentType } from 'react';
import { serviceKey } from '../kernel';

export interface MeetingsService {
  /** Starts an instant meeting inviting these people (user ids or e-mail addresses). */
  startMeeting(invitees: ReadonlyArray<{ userId?: number; email?: string; name: string }>): void;
}
export const MeetingsApi = serviceKey<MeetingsService>('meetings.api');

/**
 * The join popup (a meeting's ID and its PIN), shown by another screen over itself (the dashboard's
 * "Join a meeting"). Resolves with the dialog, its strings loaded; it calls `onClose` when done.
 */
export interface JoinMeetingDialogService {
  load(): Promise<ComponentType<{ onClose(): void }>>;
}
export const JoinMeetingDialog = serviceKey<JoinMeetingDialogService>('meetings.joinDialog');

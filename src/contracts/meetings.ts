import { serviceKey } from '../kernel';

export interface MeetingsService {
  /** Starts an instant meeting inviting these people (user ids or e-mail addresses). */
  startMeeting(invitees: ReadonlyArray<{ userId?: number; email?: string; name: string }>): void;
}
export const MeetingsApi = serviceKey<MeetingsService>('meetings.api');

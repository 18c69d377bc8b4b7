import type { ComponentType } from 'react';
import { serviceKey, type Disposable } from '../kernel';

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

/** One of today's meetings, as the meetings list holds it. */
export interface TodaysMeeting {
  /** The occurrence's key: what MEETINGS_JOIN_COMMAND takes as `key`. */
  key: string;
  name: string;
  /** ms since the epoch. */
  start: number;
  end: number | null;
}
export interface TodaysMeetingsService {
  /** The meetings (not rooms) occurring on `now`'s day in the browser's zone, by start; null until the list is in. */
  today(now: Date): TodaysMeeting[] | null;
  /** Told when the list changes. */
  onChange(listener: () => void): Disposable;
}
export const TodaysMeetingsApi = serviceKey<TodaysMeetingsService>('meetings.today');
/** Joins a meeting by its occurrence key (`{ key }`): the meetings plugin's own Join (the meeting window, or why not yet). */
export const MEETINGS_JOIN_COMMAND = 'meetings.join';

/** The namespace of an ad-hoc invite's payload element in a chat message. */
export const ADHOC_INVITE_NS = 'urn:xmpp:uc:adhoc:0';
/** What a chat message carrying an invite shows in place of its text: its state and, for the invitee, Accept and Decline. */
export interface AdHocInviteCardProps {
  attrs: Readonly<Record<string, string>>;
  mine: boolean;
  /** The readable text the message carries (shown when the invite cannot be read). */
  body: string;
}
export interface AdHocInvitesService {
  /** Whether the user may meet this colleague now (true, or why not: the meetings' reason). */
  enablement(features: { webMeetingManagement: boolean; adhocEnabled: boolean }, userId: number | null, self: boolean): true | { reasonKey: string; values?: Record<string, unknown> };
  /** Offers the colleague a meeting now: the invite modal opens and waits for their answer. */
  invite(userId: number, name: string): void;
  /** The card a chat shows for an invite message, its strings loaded. */
  card(): Promise<ComponentType<AdHocInviteCardProps>>;
}
export const AdHocInvitesApi = serviceKey<AdHocInvitesService>('meetings.adhoc');

import { subscribe } from 'valtio';
import { Navigation, Notifications, Preferences, toDisposable, type ServiceLookup } from '../../kernel';
import type { JoinMeetingDialogService, MeetingsService, TodaysMeetingsService } from '../../contracts';
import { log } from './log';
import type { FormInvitee } from './model';
import { meetingsState, MEETINGS_PATH } from './state';

/**
 * What other plugins ask of meetings: the contacts' "Meet" opens the modal on its Schedule tab with
 * those people invited (an ad-hoc call-like meeting is the next issue's).
 */
/**
 * Reads uc-can-create-meetings, the one answer to "may this user start or schedule meetings" (the
 * server derives it from web meeting management and the role); kept for the commands. A failed read
 * leaves it unknown: the server still refuses what is not allowed.
 */
export async function readCanCreate(services: ServiceLookup): Promise<boolean | null> {
  try {
    meetingsState.canCreate = (await services.get(Preferences).get<boolean>('uc-can-create-meetings')) === true;
  } catch (err) {
    log.warn('uc-can-create-meetings not read', err);
  }
  return meetingsState.canCreate;
}

export function meetingsService(services: ServiceLookup): MeetingsService {
  return {
    async startMeeting(people) {
      if ((meetingsState.canCreate ?? (await readCanCreate(services))) === false) {
        services.get(Notifications).toast({ titleKey: 'meetings:reasons.noCreate', tone: 'info' });
        return;
      }
      const invitees = people.flatMap((p): FormInvitee[] =>
        p.userId !== undefined ? [{ kind: 'user', userId: p.userId, name: p.name }] : p.email ? [{ kind: 'email', email: p.email, name: p.name }] : [],
      );
      meetingsState.modal = { tab: 'schedule', editingId: null, seed: { invitees } };
      services.get(Navigation).navigate(MEETINGS_PATH);
    },
  };
}

/** The join popup for another screen (the dashboard): the chunk's dialog, with its strings. */
export const joinMeetingDialog: JoinMeetingDialogService = {
  load: () => import('./lazy').then(async (m) => (await m.strings(), m.JoinByIdDialog)),
};

/** Today's meetings for the dashboard, from the list the plugin loads after the first screen. */
export const todaysMeetings: TodaysMeetingsService = {
  today(now) {
    if (!meetingsState.items) return null;
    const from = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
    const to = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1).getTime();
    return meetingsState.items
      .flatMap((m) => {
        const start = m.start ? Date.parse(m.start) : NaN;
        return !m.is_room && start >= from && start < to ? [{ key: m.key, name: m.meeting_name, start, end: m.end ? Date.parse(m.end) : null }] : [];
      })
      .sort((a, b) => a.start - b.start);
  },
  onChange: (listener) => {
    let last = meetingsState.items;
    return toDisposable(subscribe(meetingsState, () => last !== meetingsState.items && ((last = meetingsState.items), listener())));
  },
};

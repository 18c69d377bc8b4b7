import { subscribe } from 'valtio';
import { Navigation, toDisposable, type ServiceLookup } from '../../kernel';
import type { JoinMeetingDialogService, MeetingsService, TodaysMeetingsService } from '../../contracts';
import type { FormInvitee } from './model';
import { meetingsState, MEETINGS_PATH } from './state';

/**
 * What other plugins ask of meetings: the contacts' "Meet" opens the modal on its Schedule tab with
 * those people invited (an ad-hoc call-like meeting is the next issue's).
 */
export function meetingsService(services: ServiceLookup): MeetingsService {
  return {
    startMeeting(people) {
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

import { Navigation, type ServiceLookup } from '../../kernel';
import type { JoinMeetingDialogService, MeetingsService } from '../../contracts';
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

import { subscribe } from 'valtio';
import { Navigation, Notifications, toDisposable, type Disposable, type ServiceLookup } from '../../kernel';
import { ADHOC_INVITE_NS, ChatPayloadsApi, PeerPresenceApi, type AdHocInvitesService, type JoinMeetingDialogService, type MeetingsService, type TodaysMeetingsService } from '../../contracts';
import { adHocBlock } from './adhoc/model';
import { loadLazy } from './chunk';
import { readCanCreate } from './canCreate';
import type { FormInvitee } from './model';
import { meetingsState, MEETINGS_PATH } from './state';

/**
 * What other plugins ask of meetings: the contacts' "Meet" opens the modal on its Schedule tab with
 * those people invited (an ad-hoc call-like meeting is the next issue's).
 */
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
  load: () => loadLazy().then(async (m) => (await m.strings(), m.JoinByIdDialog)),
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

/**
 * "Meet now": the rule (web meeting management, ad-hoc enabled, a colleague other than oneself who
 * is available, from chat's presence) for every button and command that offers it, and the invite.
 */
export function adHocInvites(services: ServiceLookup): AdHocInvitesService {
  return {
    enablement(features, userId, self) {
      const available = userId !== null && services.maybe(PeerPresenceApi)?.of(userId)?.state === 'available';
      const block = adHocBlock({ webMeetingManagement: features.webMeetingManagement, adhocEnabled: features.adhocEnabled, userId, self, available });
      return block ? { reasonKey: `meetings:reasons.adhoc.${block}` } : true;
    },
    invite: (userId, name) => void loadLazy().then(async (m) => (await m.strings(), m.inviteAdHoc(services, userId, name))),
    card: () => loadLazy().then(async (m) => (await m.strings(), m.AdHocInviteCard)),
  };
}

/**
 * Invites in the chat are listened for from the first screen on (chat reads only the elements of
 * namespaces someone listens to, and an offer may come with the first messages); the chunk acts on them.
 */
export function listenForInvites(services: ServiceLookup): Disposable | undefined {
  return services.maybe(ChatPayloadsApi)?.subscribe(ADHOC_INVITE_NS, (e) => void loadLazy().then(async (m) => (await m.strings(), m.onAdHocPayload(services, e))));
}

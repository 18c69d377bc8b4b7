import type { Queryable } from '../db/types';
import { partyAt } from '../sip/extension';
import { upsertCallHistory } from '../sip/repository';

/** One dial-in call as its caller's history keeps it. */
export interface DialInCall {
  callId: string;
  /** The caller's extension, as Kamailio vouches for it; null for an outside call (no history). */
  caller: string | null;
  /** What the phone dialled (`*64*<meeting ID>*<PIN>`): a redial from the history joins again. */
  dialled: string;
  /** Shown as the other party; null when the digits named no meeting. */
  meetingName: string | null;
  startedAt: Date;
  /** When it was answered into the meeting's audio; null for a call refused or never let in. */
  answeredAt: Date | null;
  endedAt: Date;
}

/**
 * The caller's history row for a call into a meeting (Kamailio's call reports skip dial-in: its
 * route leaves before the call is tracked): an outgoing call to the meeting, answered with the
 * time spent in it, or unanswered when refused or never let in. Only a colleague's call has a
 * history; keyed by Call-ID like every call's row.
 */
export async function recordDialIn(db: Queryable, c: DialInCall): Promise<void> {
  const caller = c.caller === null ? null : await partyAt(db, c.caller);
  if (!caller) return;
  await upsertCallHistory(db, {
    userId: caller.id,
    direction: 'outbound',
    disposition: c.answeredAt ? 'ANSWERED' : 'UNANSWERED',
    callTime: c.startedAt.toISOString(),
    sourcePhone: caller.extension,
    destPhone: c.dialled,
    duration: c.answeredAt ? Math.max(0, Math.round((c.endedAt.getTime() - c.answeredAt.getTime()) / 1000)) : 0,
    otherName: c.meetingName,
    sipCallId: c.callId,
  });
}

import { setTimeout as sleep } from 'node:timers/promises';
import type { Queryable } from '../db/types';
import { hostIsIn } from './admission-rules';
import * as admissions from './admissions-repository';
import type { MeetingRooms } from './janus-rooms';
import type { MeetingRow } from './repository';

/** What became of a phone held at the door. */
export type PhoneEntry = 'in' | 'denied' | 'hung-up' | 'timed-out';

/** How often a held phone looks again (the host's click should be heard within a second or so). */
const POLL_MS = 1000;
/**
 * The caller hears ringing while held; Kamailio drops an INVITE with no reply for fr_inv_timer
 * (60 s), so the ringing is said again well within it.
 */
const RING_AGAIN_MS = 20_000;
/** The longest a phone is held: then it is told nobody let it in (Kamailio's limit for dial-in is above it). */
export const PHONE_WAIT_MAX_MS = 15 * 60_000;

/**
 * The meeting's rules for a phone, as for a person at the lobby's Join now: a phone of one of the
 * hosts comes straight in; "only moderators may start" holds it until a host is in the videoroom;
 * the waiting room holds it in the host's list ("Phone <number>") until admitted or denied, unless
 * member bypass lets in the phones of colleagues (the extension Kamailio vouches for is a user's
 * of the meeting's organisation; an outside caller ID proves nothing). Held, the phone rings (`ringing` is called now and again).
 */
export async function phoneEntry(o: {
  db: Queryable;
  rooms: Pick<MeetingRooms, 'participants'>;
  meeting: Pick<MeetingRow, 'id' | 'organization_id' | 'waiting_room' | 'member_bypass' | 'only_mods'>;
  /** The caller's extension as Kamailio vouches for it; null for an outside caller (never a member). */
  caller: string | null;
  /** The number the phone shows (its From), as the host's list names it. */
  callerNumber: string;
  calling: () => boolean;
  ringing: () => void;
  maxMs?: number;
}): Promise<PhoneEntry> {
  const { db, meeting } = o;
  const member = o.caller === null ? null : await admissions.colleagueAt(db, meeting.organization_id, o.caller);
  if (member !== null && (await admissions.hostIds(db, meeting.id)).includes(member)) return 'in';
  const mustWait = meeting.waiting_room && !(meeting.member_bypass && member !== null);
  if (!mustWait && !meeting.only_mods) return 'in';

  o.ringing();
  let rang = Date.now();
  const deadline = rang + (o.maxMs ?? PHONE_WAIT_MAX_MS);
  let occupant: number | null = null;
  let outcome: PhoneEntry | null = null;
  try {
    while (outcome === null) {
      if (!o.calling()) outcome = 'hung-up';
      else if (Date.now() >= deadline) outcome = 'timed-out';
      else if (!meeting.only_mods || (await hostIsIn(db, o.rooms, meeting.id))) {
        if (!mustWait) outcome = 'in';
        else {
          occupant ??= await admissions.phoneOccupant(db);
          const status = await admissions.admissionOf(db, meeting.id, occupant);
          if (status === 'admitted') outcome = 'in';
          else if (status === 'denied') outcome = 'denied';
          else await admissions.wait(db, meeting.id, occupant, o.callerNumber, new Date(), o.callerNumber);
        }
      }
      if (outcome !== null) break;
      if (Date.now() - rang >= RING_AGAIN_MS) {
        o.ringing();
        rang = Date.now();
      }
      await sleep(POLL_MS);
    }
    return outcome;
  } finally {
    if (occupant !== null && (outcome === 'hung-up' || outcome === 'timed-out' || outcome === null)) await admissions.stopWaiting(db, meeting.id, occupant).catch(() => undefined);
  }
}

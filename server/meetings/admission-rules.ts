import { readDisplay } from '../../src/wire/meetingDisplay';
import type { Queryable } from '../db/types';
import * as admissions from './admissions-repository';
import type { MeetingRooms } from './janus-rooms';

/**
 * "Only moderators may start": whether one of the meeting's hosts is in its videoroom now. The
 * browsers' way in (media-routes) and the phones' (dial-in) ask the same; a videoroom Janus cannot
 * list counts as empty.
 */
export async function hostIsIn(db: Queryable, rooms: Pick<MeetingRooms, 'participants'>, meetingId: number): Promise<boolean> {
  const hosts = new Set(await admissions.hostIds(db, meetingId));
  const inRoom = await rooms.participants(meetingId).catch(() => []);
  return inRoom.some((p) => {
    const u = readDisplay(p.display).userId;
    return u !== null && hosts.has(u);
  });
}

import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import ical, { ICalAttendeeRole, ICalCalendarMethod, ICalEventRepeatingFreq, ICalEventStatus, ICalWeekday } from 'ical-generator';
import { OCCURS } from '../../src/wire/meetings';
import { toFloating } from './model';

/** What an invitation or a calendar download says about a meeting. */
export interface IcsMeeting {
  id: number;
  /** The domain after the @ of the UID, the same for every copy of one meeting. */
  uidDomain: string;
  name: string;
  description: string;
  start: Date;
  end: Date;
  timeZone: string;
  recurrence: { occurs: number; dayInWeek: boolean[]; until: Date | null } | null;
  url: string;
  accessCode: string;
  /** The iCalendar SEQUENCE: 0 at creation, one more at each change. */
  sequence: number;
  organizer: { name: string; email: string };
  attendees: Array<{ name: string; email: string; moderator: boolean }>;
}

const WEEKDAYS = [ICalWeekday.MO, ICalWeekday.TU, ICalWeekday.WE, ICalWeekday.TH, ICalWeekday.FR, ICalWeekday.SA, ICalWeekday.SU];

export const meetingUid = (m: Pick<IcsMeeting, 'id' | 'uidDomain'>) => `meeting-${m.id}@${m.uidDomain}`;

/**
 * The meeting as an iCalendar document. REQUEST (an invitation or its update, with SEQUENCE),
 * CANCEL (the same UID, cancelled) or PUBLISH (the "Add to calendar" download). Recurring
 * meetings are one event with an RRULE in the meeting's zone, so every occurrence keeps its local time.
 */
export function meetingIcs(m: IcsMeeting, method: 'REQUEST' | 'CANCEL' | 'PUBLISH'): string {
  // With a TZID, ical-generator writes a Date's UTC fields: give it the wall-clock time of the zone.
  const zoned = m.timeZone !== 'UTC';
  const calendar = ical({
    prodId: { company: 'Acme', product: 'UC', language: 'EN' },
    method: ICalCalendarMethod[method],
  });
  const details = [m.description, `Join: ${m.url}`, `Meeting ID: ${m.accessCode}`].filter(Boolean).join('\n\n');
  const local = (d: Date) => (zoned ? new Date(toFloating(d.getTime(), m.timeZone)) : d);
  const event = calendar.createEvent({
    id: meetingUid(m),
    sequence: m.sequence,
    start: local(m.start),
    end: local(m.end),
    timezone: zoned ? m.timeZone : null,
    summary: m.name,
    description: details,
    location: m.url,
    url: m.url,
    organizer: { name: m.organizer.name, email: m.organizer.email },
    status: method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  for (const a of m.attendees) event.createAttendee({ name: a.name, email: a.email, rsvp: method === 'REQUEST', role: a.moderator ? ICalAttendeeRole.CHAIR : ICalAttendeeRole.REQ });
  if (m.recurrence) {
    const days = WEEKDAYS.filter((_, i) => m.recurrence!.dayInWeek[i]);
    event.repeating({
      freq: m.recurrence.occurs === OCCURS.DAILY ? ICalEventRepeatingFreq.DAILY : ICalEventRepeatingFreq.WEEKLY,
      interval: m.recurrence.occurs === OCCURS.FORTNIGHTLY ? 2 : 1,
      startOfWeek: ICalWeekday.MO,
      ...(days.length ? { byDay: days } : {}),
      ...(m.recurrence.until ? { until: m.recurrence.until } : {}),
    });
  }
  return withVtimezone(calendar.toString(), zoned ? m.timeZone : null);
}

/**
 * Adds the zone's VTIMEZONE (its offsets and daylight-saving rules, from @touch4it/ical-timezones),
 * which the TZID of the times names: without it Outlook and others guess, or fall back to UTC. Not
 * through ical-generator's calendar time zone, which also writes DTSTAMP as a local time without
 * its Z, where RFC 5545 wants UTC.
 */
function withVtimezone(ics: string, zone: string | null): string {
  const vtimezone = zone ? getVtimezoneComponent(zone) : null;
  if (!vtimezone) return ics;
  const lines = vtimezone.trim().split(/\r?\n/).join('\r\n');
  return ics.replace('\r\nBEGIN:VEVENT\r\n', `\r\n${lines}\r\nBEGIN:VEVENT\r\n`);
}

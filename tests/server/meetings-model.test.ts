import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import ical from 'node-ical';
import { isBookmark, MEETING_MAX_DURATION_MS } from '../../src/wire/meetings';
import { feedHttpUrl, feedSource, isPrivateAddress, parseFeed } from '../../server/meetings/feeds';
import { meetingIcs, type IcsMeeting } from '../../server/meetings/ics';
import {
  durationProblem,
  fromFloating,
  joinableSpan,
  meetingIdOfSlug,
  meetingSlug,
  meetingUrl,
  occurrences,
  roundUpPastStart,
  toFloating,
} from '../../server/meetings/model';

const NY = 'America/New_York';
const MIN = 60_000;
const DAY = 86_400_000;
/** The hour and minute of an instant in New York, and its weekday (Mon = 1 … Sun = 7). */
const nyWall = (t: number) => {
  const d = new Date(toFloating(t, NY));
  return { hm: `${d.getUTCHours()}:${String(d.getUTCMinutes()).padStart(2, '0')}`, weekday: ((d.getUTCDay() + 6) % 7) + 1, date: d.toISOString().slice(0, 10) };
};

describe('meeting slugs and URLs', () => {
  it('are lowercase letters and digits, at least 5 long, one per id, and decode back', () => {
    const seen = new Set<string>();
    for (const id of [1, 2, 3, 42, 999, 123_456, 2 ** 31 - 1]) {
      const slug = meetingSlug(id);
      expect(slug).toMatch(/^[a-z0-9]{5,}$/);
      expect(meetingIdOfSlug(slug)).toBe(id);
      seen.add(slug);
    }
    expect(seen.size).toBe(7);
  });

  it('refuse slugs that are not the canonical slug of an id', () => {
    for (const bad of ['aaaaa', 'zzzzzzzzzzzzzzzzzzzz', '00000', meetingSlug(7) + 'a']) {
      const id = meetingIdOfSlug(bad);
      if (id !== null) expect(meetingSlug(id)).toBe(bad);
    }
    expect(meetingIdOfSlug(meetingSlug(7).toUpperCase())).toBeNull();
  });

  it('are {meeting_url}/uc/{alias}/{slug}', () => {
    expect(meetingUrl('https://meet.acme.example/', 'Alice', 12)).toBe(`https://meet.acme.example/uc/alice/${meetingSlug(12)}`);
  });
});

describe('meeting times', () => {
  it('end at least a minute after the start, at most 30 hours, duration above zero', () => {
    const s = Date.UTC(2026, 2, 20, 15);
    expect(durationProblem(s, s)).toBe('durationZero');
    expect(durationProblem(s, s - MIN)).toBe('durationZero');
    expect(durationProblem(s, s + 59_999)).toBe('endTooSoon');
    expect(durationProblem(s, s + MIN)).toBeNull();
    expect(durationProblem(s, s + MEETING_MAX_DURATION_MS)).toBeNull();
    expect(durationProblem(s, s + MEETING_MAX_DURATION_MS + 1)).toBe('tooLong');
  });

  it('a past start rounds up to the next quarter hour; a future one stays', () => {
    const now = Date.UTC(2026, 2, 20, 15, 7, 30);
    expect(roundUpPastStart(now - 5 * MIN, now)).toBe(Date.UTC(2026, 2, 20, 15, 15));
    expect(roundUpPastStart(now + MIN, now)).toBe(now + MIN);
  });

  it('wall-clock conversion is exact on both sides of a DST change', () => {
    for (const iso of ['2026-03-07T14:00:00Z', '2026-03-09T13:00:00Z', '2026-11-02T14:00:00Z']) {
      const t = Date.parse(iso);
      expect(fromFloating(toFloating(t, NY), NY)).toBe(t);
    }
    expect(nyWall(Date.parse('2026-03-07T14:00:00Z')).hm).toBe('9:00');
    expect(nyWall(Date.parse('2026-03-09T13:00:00Z')).hm).toBe('9:00');
  });
});

describe('recurrence expansion', () => {
  // Monday 2 March 2026, 9:00 in New York (EST); clocks go forward on 8 March.
  const start = Date.parse('2026-03-02T14:00:00Z');
  const every = (...flags: number[]) => [1, 2, 3, 4, 5, 6, 7].map((d) => flags.includes(d));

  // Windows end two hours short of a whole number of weeks: after the change, 9:00 is an hour earlier in UTC.
  it('weekly on Monday and Wednesday keeps 9:00 local across the DST change', () => {
    const spans = occurrences(start, 30 * MIN, NY, { occurs: 2, dayInWeek: every(1, 3), until: null }, start, start + 21 * DAY - 2 * 60 * MIN);
    expect(spans.map((s) => nyWall(s.start).date)).toEqual(['2026-03-02', '2026-03-04', '2026-03-09', '2026-03-11', '2026-03-16', '2026-03-18']);
    expect(new Set(spans.map((s) => nyWall(s.start).hm))).toEqual(new Set(['9:00']));
    expect(spans[2]!.start - spans[1]!.start).toBe(5 * DAY - 60 * MIN);
    for (const s of spans) expect(s.end - s.start).toBe(30 * MIN);
  });

  it('fortnightly skips every other week', () => {
    const spans = occurrences(start, 30 * MIN, NY, { occurs: 3, dayInWeek: every(1), until: null }, start, start + 42 * DAY - 2 * 60 * MIN);
    expect(spans.map((s) => nyWall(s.start).date)).toEqual(['2026-03-02', '2026-03-16', '2026-03-30']);
  });

  it('daily with weekday flags skips the weekend; without flags every day', () => {
    const weekdays = occurrences(start, 15 * MIN, NY, { occurs: 1, dayInWeek: every(1, 2, 3, 4, 5), until: null }, start, start + 7 * DAY - 2 * 60 * MIN);
    expect(weekdays.map((s) => nyWall(s.start).weekday)).toEqual([1, 2, 3, 4, 5]);
    expect(occurrences(start, 15 * MIN, NY, { occurs: 1, dayInWeek: every(), until: null }, start, start + 7 * DAY - 2 * 60 * MIN)).toHaveLength(7);
  });

  it('stops at until, and only occurrences overlapping the window come out', () => {
    const until = Date.parse('2026-03-11T23:00:00Z');
    const spans = occurrences(start, 30 * MIN, NY, { occurs: 2, dayInWeek: every(1, 3), until }, start, start + 60 * DAY);
    expect(spans).toHaveLength(4);
    // A window starting in the middle of the 9 March occurrence includes it.
    const mid = Date.parse('2026-03-09T13:10:00Z');
    expect(occurrences(start, 30 * MIN, NY, { occurs: 2, dayInWeek: every(1), until: null }, mid, mid + MIN)).toHaveLength(1);
  });

  it('a one-off meeting is one span if it overlaps the window', () => {
    expect(occurrences(start, 30 * MIN, NY, null, start + 29 * MIN, start + DAY)).toHaveLength(1);
    expect(occurrences(start, 30 * MIN, NY, null, start + 30 * MIN, start + DAY)).toHaveLength(0);
  });

  it('the join window opens 10 minutes before the start and closes at the end', () => {
    const span = { start, end: start + 30 * MIN };
    expect(joinableSpan([span], start - 10 * MIN - 1)).toBeNull();
    expect(joinableSpan([span], start - 10 * MIN)).toEqual(span);
    expect(joinableSpan([span], start + 29 * MIN)).toEqual(span);
    expect(joinableSpan([span], start + 30 * MIN)).toBeNull();
  });
});

describe('bookmarks', () => {
  it('accept URLs, host names and IP addresses only', () => {
    for (const ok of ['https://wiki.acme.example/a?b=c', 'http://10.0.0.1:8080/', 'acme.example', 'docs.acme.example', '192.168.1.20', '2001:db8::1']) expect(isBookmark(ok), ok).toBe(true);
    for (const bad of ['hello', 'javascript:alert(1)', 'ftp://x.example', 'a b.example', '999.1.1.1', '', 'http://']) expect(isBookmark(bad), bad).toBe(false);
  });
});

describe('.ics invitations', () => {
  const meeting: IcsMeeting = {
    id: 7,
    uidDomain: 'uc.test',
    name: 'Weekly sync',
    description: 'Agenda',
    start: new Date('2026-03-23T13:00:00Z'),
    end: new Date('2026-03-23T13:30:00Z'),
    timeZone: NY,
    recurrence: { occurs: 3, dayInWeek: [true, false, true, false, false, false, false], until: null },
    url: 'https://meet.example/uc/alice/abcde',
    accessCode: '314159000',
    sequence: 2,
    organizer: { name: 'Alice Nguyen', email: 'alice@acme.example' },
    attendees: [{ name: 'sam@globex.example', email: 'sam@globex.example', moderator: false }],
  };

  it('REQUEST carries the UID, SEQUENCE, local start in the zone and the recurrence', () => {
    const text = meetingIcs(meeting, 'REQUEST').replace(/\r\n[ \t]/g, '');
    expect(text).toContain('METHOD:REQUEST');
    expect(text).toContain('UID:meeting-7@uc.test');
    expect(text).toContain('SEQUENCE:2');
    expect(text).toContain('DTSTART;TZID=America/New_York:20260323T090000');
    expect(text).toMatch(/RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE/);
    expect(text).toMatch(/ATTENDEE;[^\n]*RSVP=TRUE[^\n]*:MAILTO:sam@globex\.example/i);
    // A calendar program reads back what was meant.
    const parsed = Object.values(ical.sync.parseICS(text)).find((c) => c?.type === 'VEVENT') as ical.VEvent;
    expect(parsed.start.toISOString()).toBe('2026-03-23T13:00:00.000Z');
    expect(String(parsed.summary)).toBe('Weekly sync');
  });

  it('carries the VTIMEZONE of the meeting\'s zone, with its daylight-saving rules, before the event; DTSTAMP stays UTC; a UTC meeting needs none', () => {
    const text = meetingIcs(meeting, 'PUBLISH').replace(/\r\n[ \t]/g, '');
    const tz = /BEGIN:VTIMEZONE\r\n([\s\S]*?)END:VTIMEZONE\r\n/.exec(text);
    expect(tz?.[1]).toContain('TZID:America/New_York');
    expect(tz?.[1]).toMatch(/BEGIN:DAYLIGHT\r\nTZOFFSETFROM:-0500\r\nTZOFFSETTO:-0400/);
    expect(tz?.[1]).toMatch(/BEGIN:STANDARD\r\nTZOFFSETFROM:-0400\r\nTZOFFSETTO:-0500/);
    expect(text.indexOf('BEGIN:VTIMEZONE')).toBeLessThan(text.indexOf('BEGIN:VEVENT'));
    expect(text).toMatch(/\r\nDTSTAMP:\d{8}T\d{6}Z\r\n/);
    expect(text.split('\r\n').every((l) => !l.includes('\n'))).toBe(true);
    const parsed = ical.sync.parseICS(text);
    expect(Object.values(parsed).some((c) => c?.type === 'VTIMEZONE')).toBe(true);
    expect(meetingIcs({ ...meeting, timeZone: 'UTC' }, 'PUBLISH')).not.toContain('VTIMEZONE');
  });

  it('CANCEL is the same UID, cancelled', () => {
    const text = meetingIcs({ ...meeting, sequence: 3 }, 'CANCEL');
    expect(text).toContain('METHOD:CANCEL');
    expect(text).toContain('STATUS:CANCELLED');
    expect(text).toContain('UID:meeting-7@uc.test');
    expect(text).toContain('SEQUENCE:3');
  });
});

describe('external calendar feeds', () => {
  it('only http(s) and webcal addresses; the source from the host', () => {
    expect(feedHttpUrl('webcal://calendar.example/a.ics').protocol).toBe('http:');
    expect(feedHttpUrl('webcals://calendar.example/a.ics').protocol).toBe('https:');
    expect(() => feedHttpUrl('file:///etc/passwd')).toThrow(/http/);
    expect(() => feedHttpUrl('https://u:p@calendar.example/')).toThrow(/password/);
    expect(feedSource(new URL('https://outlook.office365.com/owa/calendar/x/reachcalendar.ics'))).toBe('microsoft');
    expect(feedSource(new URL('https://calendar.google.com/calendar/ical/x/basic.ics'))).toBe('google');
    expect(feedSource(new URL('https://cal.example/x.ics'))).toBe('ics');
  });

  it('refuses loopback, private, link-local and mapped addresses', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.0.10', '169.254.169.254', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', 'nonsense']) expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['93.184.216.34', '2606:4700::1111']) expect(isPrivateAddress(a), a).toBe(false);
  });

  it('parses events, expands recurring ones with their exceptions, drops cancelled ones', () => {
    const body = [
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//t//t//EN', 'X-WR-CALNAME:Work',
      'BEGIN:VEVENT', 'UID:one@t', 'DTSTAMP:20260301T000000Z', 'DTSTART:20260321T150000Z', 'DTEND:20260321T160000Z', 'SUMMARY:Dentist', 'LOCATION:https://meet.example/x', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:rec@t', 'DTSTAMP:20260301T000000Z', 'DTSTART:20260302T140000Z', 'DTEND:20260302T143000Z', 'RRULE:FREQ=WEEKLY;COUNT=4', 'EXDATE:20260309T140000Z', 'SUMMARY:Weekly', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:gone@t', 'DTSTAMP:20260301T000000Z', 'DTSTART:20260322T150000Z', 'DTEND:20260322T160000Z', 'STATUS:CANCELLED', 'SUMMARY:Off', 'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const { name, events } = parseFeed(body, new Date('2026-03-01T00:00:00Z'), new Date('2026-04-01T00:00:00Z'), 100);
    expect(name).toBe('Work');
    expect(events.map((e) => e.name).sort()).toEqual(['Dentist', 'Weekly', 'Weekly', 'Weekly']);
    expect(events.find((e) => e.name === 'Dentist')!.url).toBe('https://meet.example/x');
    expect(events.filter((e) => e.name === 'Weekly').map((e) => e.start.toISOString()).sort()).toEqual([
      '2026-03-02T14:00:00.000Z', '2026-03-16T14:00:00.000Z', '2026-03-23T14:00:00.000Z',
    ]);
    expect(() => parseFeed('<html>not a calendar</html>', new Date(0), new Date(), 10)).toThrow(/iCalendar/);
  });
});

describe('loading under plain Node', () => {
  // vitest resolves CommonJS/UMD packages more leniently than Node's ESM loader, which the server runs under.
  it('the meeting modules load as the server loads them (tsx), not only in vitest', () => {
    const modules = ['model', 'ics', 'feeds', 'invitations'].map((m) => path.resolve(import.meta.dirname, `../../server/meetings/${m}.ts`));
    const script = `for (const m of ${JSON.stringify(modules)}) await import(m); console.log('loaded');`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.stdout.trim()).toBe('loaded');
  });
});

import { describe, expect, it } from 'vitest';
import type { Meeting } from '../../wire/meetings';
import {
  attendeeTooltip,
  avatarStack,
  canBookRooms,
  canEditMeeting,
  checkForm,
  codeToWire,
  dialIns,
  formatTime,
  instantOf,
  isCode,
  joinOrder,
  joinState,
  accessCodeOf,
  lobbyChanges,
  lobbyParams,
  meetingWindowUrl,
  pinForJoin,
  newForm,
  parseTime,
  roundUpToIncrement,
  splitBookmarks,
  titleMatches,
  wallClockOf,
  withEndDateChecked,
  type MeetingForm,
} from './model';

const NY = 'America/New_York';
const at = (iso: string) => Date.parse(iso);
const MIN = 60_000;

/** A valid scheduled form in New York, 10:00–11:00 on 10 June 2026; `now` is well before. */
const form = (over: Partial<MeetingForm> = {}): MeetingForm => ({
  ...newForm(at('2026-06-01T12:00:00Z'), NY),
  name: 'Planning',
  startDate: '2026-06-10',
  startTime: '10:00 AM',
  endDate: '2026-06-10',
  endTime: '11:00 AM',
  ...over,
});
const NOW = at('2026-06-01T12:00:00Z');

describe('times h:mm AM/PM', () => {
  it('parses h:mm AM and PM, with or without the space, and refuses the rest', () => {
    expect(parseTime('9:30 AM')).toBe(9 * 60 + 30);
    expect(parseTime('12:00 AM')).toBe(0);
    expect(parseTime('12:15 PM')).toBe(12 * 60 + 15);
    expect(parseTime('11:59pm')).toBe(23 * 60 + 59);
    for (const bad of ['13:00 PM', '9:60 AM', '9:5 AM', '0:30 AM', '930 AM', '9:30', '21:30', '', 'noon']) expect(parseTime(bad), bad).toBeNull();
  });
  it('formats minutes back to h:mm AM/PM', () => {
    expect([0, 9 * 60 + 5, 12 * 60, 23 * 60 + 45].map(formatTime)).toEqual(['12:00 AM', '9:05 AM', '12:00 PM', '11:45 PM']);
  });
  it('reads wall-clock times in the zone, across the DST change', () => {
    // 8 March 2026: New York springs forward at 2:00 (EST −5 → EDT −4).
    expect(new Date(instantOf('2026-03-07', 9 * 60, NY)).toISOString()).toBe('2026-03-07T14:00:00.000Z');
    expect(new Date(instantOf('2026-03-09', 9 * 60, NY)).toISOString()).toBe('2026-03-09T13:00:00.000Z');
    // 2:30 does not exist that night: it moves forward to 3:30 EDT.
    expect(new Date(instantOf('2026-03-08', 2 * 60 + 30, NY)).toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(wallClockOf(at('2026-11-01T05:30:00Z'), NY)).toEqual({ date: '2026-11-01', minutes: 60 + 30 });
    expect(wallClockOf(at('2026-06-10T23:30:00Z'), 'Asia/Tokyo')).toEqual({ date: '2026-06-11', minutes: 8 * 60 + 30 });
  });
});

describe('the modal rules', () => {
  it('a valid schedule becomes the request, with the zone and zero-padded codes', () => {
    const { errors, input } = checkForm(form({ pin: '0042', invitees: [{ kind: 'user', userId: 7, name: 'Bob' }, { kind: 'email', email: 'g@x.example', name: 'g@x.example' }] }), 'schedule', NOW, NY);
    expect(errors).toEqual({});
    expect(input).toMatchObject({
      meeting_name: 'Planning',
      instant: false,
      start: '2026-06-10T14:00:00.000Z',
      end: '2026-06-10T15:00:00.000Z',
      time_zone: NY,
      pin: '0042',
      password: null,
      recurrence: null,
      invitees: [{ user_id: 7, is_moderator: false }, { email: 'g@x.example', is_moderator: false }],
    });
  });
  it('a new form starts at the next increment and lasts four increments', () => {
    const f = newForm(at('2026-06-10T14:07:30Z'), NY);
    expect([f.startDate, f.startTime, f.endDate, f.endTime]).toEqual(['2026-06-10', '10:15 AM', '2026-06-10', '11:15 AM']);
    expect(roundUpToIncrement(at('2026-06-10T14:15:00Z'))).toBe(at('2026-06-10T14:15:00Z'));
  });
  it('a start in the past rounds up to the next increment (Schedule), keeping the length', () => {
    const now = at('2026-06-10T14:07:00Z'); // 10:07 in New York
    const { errors, form: f, input } = checkForm(form({ startTime: '9:00 AM', endTime: '9:30 AM' }), 'schedule', now, NY);
    expect(errors).toEqual({});
    expect([f.startTime, f.endTime]).toEqual(['10:15 AM', '10:45 AM']);
    expect(input?.start).toBe('2026-06-10T14:15:00.000Z');
  });
  it('editing keeps a start that has passed (a meeting under way)', () => {
    const now = at('2026-06-10T14:07:00Z');
    expect(checkForm(form(), 'edit', now, NY).input?.start).toBe('2026-06-10T14:00:00.000Z');
  });
  it('the end must come at least 1 minute after the start, and the duration be above zero', () => {
    expect(checkForm(form({ endTime: '10:00 AM' }), 'schedule', NOW, NY).errors).toEqual({ end: 'durationZero' });
    expect(checkForm(form({ endTime: '9:59 AM' }), 'schedule', NOW, NY).errors).toEqual({ end: 'endTooSoon' });
    expect(checkForm(form({ endTime: '10:01 AM' }), 'schedule', NOW, NY).errors).toEqual({});
  });
  it('a meeting lasts at most 30 hours (108000000 ms)', () => {
    expect(checkForm(form({ endDate: '2026-06-11', endTime: '4:00 PM' }), 'schedule', NOW, NY).errors).toEqual({});
    expect(checkForm(form({ endDate: '2026-06-11', endTime: '4:01 PM' }), 'schedule', NOW, NY).errors).toEqual({ end: 'tooLong' });
  });
  it('30 hours across the autumn DST change are 30 real hours, not 30 on the clock', () => {
    // 1 November 2026 has 25 hours in New York: 10:00 on the 31st + 30 h is 3:00 PM on the 1st.
    expect(checkForm(form({ startDate: '2026-10-31', endDate: '2026-11-01', endTime: '3:00 PM' }), 'schedule', at('2026-10-01T00:00:00Z'), NY).errors).toEqual({});
    expect(checkForm(form({ startDate: '2026-10-31', endDate: '2026-11-01', endTime: '4:00 PM' }), 'schedule', at('2026-10-01T00:00:00Z'), NY).errors).toEqual({ end: 'tooLong' });
  });
  it('times must be h:mm AM/PM; what was typed stays', () => {
    const { errors, form: f, input } = checkForm(form({ startTime: '25:00', name: 'Typed' }), 'schedule', NOW, NY);
    expect(errors).toEqual({ startTime: 'badTime' });
    expect(input).toBeNull();
    expect([f.name, f.startTime]).toEqual(['Typed', '25:00']);
  });
  it('an end date before the start resets the end to the start plus four increments', () => {
    const f = withEndDateChecked(form({ startDate: '2026-06-12', endDate: '2026-06-10' }), NY);
    expect([f.endDate, f.endTime]).toEqual(['2026-06-12', '11:00 AM']);
    const late = withEndDateChecked(form({ startDate: '2026-06-12', startTime: '11:30 PM', endDate: '2026-06-10' }), NY);
    expect([late.endDate, late.endTime]).toEqual(['2026-06-13', '12:30 AM']);
    expect(withEndDateChecked(form(), NY)).toEqual(form());
  });
  it('weekly or fortnightly needs a weekday; daily does not', () => {
    expect(checkForm(form({ occurs: 2 }), 'schedule', NOW, NY).errors).toEqual({ days: 'weekdayRequired' });
    expect(checkForm(form({ occurs: 3 }), 'schedule', NOW, NY).errors).toEqual({ days: 'weekdayRequired' });
    expect(checkForm(form({ occurs: 1 }), 'schedule', NOW, NY).errors).toEqual({});
    const days = [false, false, true, false, false, false, false];
    expect(checkForm(form({ occurs: 2, days }), 'schedule', NOW, NY).input?.recurrence).toEqual({ occurs: 2, day_in_week: days, until: null });
  });
  it('bookmarks split on spaces: valid ones are taken, the others stay in the input', () => {
    expect(splitBookmarks('  https://a.example/x  wiki.acme.example 10.0.0.1 nope http:// ftp://x.example ')).toEqual({
      accepted: ['https://a.example/x', 'wiki.acme.example', '10.0.0.1'],
      rest: 'nope http:// ftp://x.example',
    });
    const r = checkForm(form({ bookmarks: ['old.example'], bookmarkText: 'new.example bad' }), 'schedule', NOW, NY);
    expect(r.errors).toEqual({ bookmarks: 'bookmark' });
    expect([r.form.bookmarks, r.form.bookmarkText]).toEqual([['old.example', 'new.example'], 'bad']);
    expect(checkForm(form({ bookmarkText: 'a.example a.example' }), 'schedule', NOW, NY).input?.bookmarks).toEqual(['a.example']);
  });
  it('PIN and password: empty or exactly four digits, sent as four digits', () => {
    for (const ok of ['', '0000', '1234']) expect(isCode(ok), ok).toBe(true);
    for (const bad of ['123', '12345', '12a4', ' 1234', '****']) expect(isCode(bad), bad).toBe(false);
    expect(checkForm(form({ pin: '123' }), 'schedule', NOW, NY).errors).toEqual({ pin: 'pin' });
    expect(checkForm(form({ password: 'abcd' }), 'schedule', NOW, NY).errors).toEqual({ password: 'password' });
    expect([codeToWire(''), codeToWire('0007')]).toEqual([null, '0007']);
  });
  it('a name is required; the Start tab needs nothing else and is instant', () => {
    expect(checkForm(form({ name: '  ' }), 'schedule', NOW, NY).errors).toEqual({ name: 'nameRequired' });
    const r = checkForm(form({ startTime: 'garbage', occurs: 2 }), 'start', NOW, NY);
    expect(r.errors).toEqual({});
    expect(r.input).toMatchObject({ instant: true, recurrence: null });
    expect(r.input?.start).toBeUndefined();
  });
});

const meeting = (over: Partial<Meeting> = {}): Meeting => ({
  id: 1,
  key: 'uc:1:0',
  meeting_type: 'meeting',
  is_room: false,
  source: 'uc',
  meeting_name: 'Design review',
  meeting_description: '',
  start: '2026-06-10T14:00:00.000Z',
  end: '2026-06-10T15:00:00.000Z',
  duration_ms: 3_600_000,
  series_start: null,
  time_zone: NY,
  is_recurring: false,
  recurrence: null,
  bookmarks: [],
  meeting_access_code: '123456789',
  has_pin: false,
  pin: null,
  has_password: false,
  password: null,
  phone_numbers: [],
  phone_pin: null,
  waiting_room: false,
  member_bypass: false,
  only_mods: false,
  is_private: false,
  ad_hoc: false,
  max_participants: null,
  attendees: [],
  booked_by: 'Alice Nguyen',
  booked_by_id: 5,
  slug: 'abcde',
  url: 'https://meet.example/uc/alice/abcde',
  editable: true,
  feed_id: null,
  ...over,
});

describe('the join window', () => {
  const start = at('2026-06-10T14:00:00Z');
  it('opens 10 minutes before the start and closes at the end', () => {
    expect(joinState(meeting(), start - 10 * MIN - 1)).toEqual({ kind: 'early', opensAt: start - 10 * MIN });
    expect(joinState(meeting(), start - 10 * MIN).kind).toBe('open');
    expect(joinState(meeting(), start + 59 * MIN).kind).toBe('open');
    expect(joinState(meeting(), start + 60 * MIN).kind).toBe('ended');
  });
  it('only with an ID (and its link); a room is always open', () => {
    expect(joinState(meeting({ meeting_access_code: null }), start).kind).toBe('noId');
    expect(joinState(meeting({ url: null }), start).kind).toBe('noId');
    expect(joinState(meeting({ is_room: true, start: null, end: null }), 0).kind).toBe('open');
  });
});

describe('the join popup', () => {
  it("a masked PIN '****' does nothing: it counts as no PIN; otherwise empty or four digits", () => {
    expect(pinForJoin('****')).toEqual({ pin: null });
    expect(pinForJoin('')).toEqual({ pin: null });
    expect(pinForJoin(' 0420 ')).toEqual({ pin: '0420' });
    for (const bad of ['***', '12345', 'abcd', '12 4']) expect(pinForJoin(bad), bad).toBeNull();
  });
  it('a meeting ID is 6 to 12 digits, typed with spaces or dashes', () => {
    expect(accessCodeOf('123 456-789')).toBe('123456789');
    for (const bad of ['12345', '1234567890123', '12345a', '']) expect(accessCodeOf(bad), bad).toBeNull();
  });
});

describe('the meeting window', () => {
  const base = 'https://meet.example/uc/alice/abcde';
  it('carries a repeated invitees[] and state xa, dnd or away from the own presence', () => {
    expect(meetingWindowUrl(base, { invitees: ['a@x.example', 'b@x.example'], presence: 'available' })).toBe(`${base}?invitees%5B%5D=a%40x.example&invitees%5B%5D=b%40x.example`);
    expect(new URL(meetingWindowUrl(base, { presence: 'unavailable' })).searchParams.get('state')).toBe('xa');
    expect(new URL(meetingWindowUrl(base, { presence: 'donotdisturb' })).searchParams.get('state')).toBe('dnd');
    expect(new URL(meetingWindowUrl(base, { presence: 'busy' })).searchParams.get('state')).toBe('dnd');
    expect(new URL(meetingWindowUrl(base, { presence: 'lunch' })).searchParams.get('state')).toBe('away');
    expect(meetingWindowUrl(base, { presence: undefined })).toBe(base);
  });
  it('carries ssid, show_login_prompt=true only when the session could not be kept alive, and a PIN only when valid', () => {
    const u = new URL(meetingWindowUrl(base, { ssid: '42', showLoginPrompt: true, pin: '0042' }));
    expect(u.searchParams.get('ssid')).toBe('42');
    expect(u.searchParams.get('show_login_prompt')).toBe('true');
    expect(u.searchParams.get('pin')).toBe('0042');
    const plain = new URL(meetingWindowUrl(base, { ssid: null, showLoginPrompt: false, pin: '****' }));
    expect([...plain.searchParams.keys()]).toEqual([]);
    expect(new URL(meetingWindowUrl(base, { pin: '123' })).searchParams.has('pin')).toBe(false);
  });
  it('the lobby reads back what the window was given, and ignores what is malformed', () => {
    const url = new URL(meetingWindowUrl(base, { ssid: '42', invitees: ['a@x.example', 'a@x.example', 'b@x.example'], presence: 'busy', showLoginPrompt: true, pin: '1234' }));
    expect(lobbyParams(url.search)).toEqual({ ssid: '42', invitees: ['a@x.example', 'b@x.example'], state: 'dnd', showLoginPrompt: true, pin: '1234' });
    expect(lobbyParams('?ssid=a%20b&state=busy&show_login_prompt=1&pin=****&invitees[]=nobody')).toEqual({ ssid: null, invitees: [], state: null, showLoginPrompt: false, pin: null });
    expect(lobbyParams('')).toEqual({ ssid: null, invitees: [], state: null, showLoginPrompt: false, pin: null });
  });
});

describe('the lobby', () => {
  const o = (user_id: number, is_self = false) => ({ user_id, name: `U${user_id}`, is_self });
  it('announces others arriving and leaving, never the user, and a second window of someone already in is no arrival', () => {
    expect(lobbyChanges([o(1, true)], [o(1, true), o(2)])).toEqual({ arrived: [o(2)], left: [] });
    expect(lobbyChanges([o(1, true), o(2), o(3)], [o(1, true), o(3)])).toEqual({ arrived: [], left: [o(2)] });
    expect(lobbyChanges([o(2)], [o(2), o(2)])).toEqual({ arrived: [], left: [] });
    expect(lobbyChanges([], [o(1, true)])).toEqual({ arrived: [], left: [] });
  });
});

describe('permissions', () => {
  const v = { userId: 5, roleId: 3, webMeetingManagement: true };
  it('editable only when not a room, the product’s own, web meeting management on, and booked by the user', () => {
    expect(canEditMeeting(meeting(), v)).toBe(true);
    expect(canEditMeeting(meeting({ is_room: true }), v)).toBe(false);
    expect(canEditMeeting(meeting({ source: 'google' }), v)).toBe(false);
    expect(canEditMeeting(meeting(), { ...v, webMeetingManagement: false })).toBe(false);
    expect(canEditMeeting(meeting({ booked_by_id: 6 }), v)).toBe(false);
    expect(canEditMeeting(meeting(), { ...v, userId: null })).toBe(false);
  });
  it('the rooms booking area: web meeting management and video admin, or role id 2', () => {
    expect(canBookRooms(v, true)).toBe(true);
    expect(canBookRooms(v, false)).toBe(false);
    expect(canBookRooms({ ...v, webMeetingManagement: false }, true)).toBe(false);
    expect(canBookRooms({ ...v, roleId: 2, webMeetingManagement: false }, false)).toBe(true);
  });
});

describe('the list and the detail', () => {
  it('searches titles case-insensitively', () => {
    expect(titleMatches(meeting(), 'REVIEW')).toBe(true);
    expect(titleMatches(meeting(), ' design re')).toBe(true);
    expect(titleMatches(meeting(), 'alice')).toBe(false);
  });
  it('the attendee tooltip names up to 47, then counts; the avatar stack shows two', () => {
    const names = Array.from({ length: 50 }, (_, i) => `P${i}`);
    expect(attendeeTooltip(names)).toEqual({ names: names.slice(0, 47), more: 3 });
    expect(attendeeTooltip(names.slice(0, 3))).toEqual({ names: names.slice(0, 3), more: 0 });
    expect(avatarStack(names.slice(0, 5))).toEqual({ shown: ['P0', 'P1'], more: 3 });
  });
  it('"Join meeting ▸" lists today’s meetings first by start, then the others by ID', () => {
    const now = at('2026-06-10T12:00:00Z');
    const list = [
      meeting({ id: 1, meeting_access_code: '900', start: '2026-06-12T14:00:00Z' }),
      meeting({ id: 2, meeting_access_code: '500', start: '2026-06-10T20:00:00Z' }),
      meeting({ id: 3, meeting_access_code: '100', start: '2026-06-11T14:00:00Z' }),
      meeting({ id: 4, meeting_access_code: '700', start: '2026-06-10T15:00:00Z' }),
    ];
    expect(joinOrder(list, now, NY).map((m) => m.id)).toEqual([4, 2, 3, 1]);
  });
});

describe('dial-in', () => {
  it('is the dial-in number, the meeting ID and the phone PIN, only for those who were given the PIN', () => {
    expect(dialIns(meeting({ meeting_access_code: '314159336', phone_numbers: ['*64'], phone_pin: '012345' }))).toEqual(['*64*314159336*012345']);
    expect(dialIns(meeting({ meeting_access_code: '314159336', phone_numbers: ['*64'], phone_pin: null }))).toEqual([]);
    expect(dialIns(meeting({ meeting_access_code: null, phone_numbers: [], phone_pin: null }))).toEqual([]);
  });
});

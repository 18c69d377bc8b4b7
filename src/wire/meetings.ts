import * as z from 'zod/mini';
import { DbId } from './common';
import { TurnCredentialsResponse } from './services';

/*
 * Meetings and rooms (issue 21). A room is a meeting row of type `room` (the specification: "rooms/{id}:
 * id is a meeting id"): no time, always open to join. The rules that both ends check live here, so the
 * client's modal and the server refuse the same input with the same words.
 */

/** Join from this long before the start until the end. */
export const MEETING_JOIN_WINDOW_MS = 10 * 60_000;
/** The longest meeting: 30 hours. */
export const MEETING_MAX_DURATION_MS = 108_000_000;
/** The end must come at least this long after the start. */
export const MEETING_MIN_DURATION_MS = 60_000;
/** The modal's time step: a past start rounds up to the next one; a bad end becomes start + 4 of them. */
export const MEETING_INCREMENT_MINUTES = 15;
/** Slugs of meeting URLs: hash ids of these characters, at least this long. */
export const MEETING_SLUG_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const MEETING_SLUG_MIN_LENGTH = 5;
/** The rooms list refreshes this often (room_refresh_interval_ms), and this soon after a change. */
export const ROOM_REFRESH_INTERVAL_MS = 300_000;
export const ROOM_REFRESH_AFTER_UPDATE_MS = 31_000;
export const MEETING_NAME_MAX = 200;
export const MEETING_DESCRIPTION_MAX = 4000;
export const MEETING_BOOKMARKS_MAX = 20;
export const MEETING_INVITEES_MAX = 200;
/** The list's window may span at most this many days. */
export const MEETING_LIST_MAX_DAYS = 400;

/** Recurrence: the specification's `occurs` codes. */
export const OCCURS = { DAILY: 1, WEEKLY: 2, FORTNIGHTLY: 3 } as const;
export type Occurs = (typeof OCCURS)[keyof typeof OCCURS];

/** The messages of the validation rules, word for word on both ends. */
export const MEETING_ERRORS = {
  nameRequired: 'A meeting needs a name',
  endTooSoon: 'The end must be at least 1 minute after the start',
  tooLong: 'A meeting lasts at most 30 hours',
  durationZero: 'The duration must be above zero',
  weekdayRequired: 'Weekly or fortnightly meetings need at least one weekday',
  pin: 'The PIN must be empty or exactly four digits',
  password: 'The password must be empty or exactly four digits',
  bookmark: 'Bookmarks must be web addresses, host names or IP addresses',
  badDate: 'Dates must be ISO 8601 instants between 2000 and 2100',
  badTimeZone: 'Unknown time zone',
  endOrDuration: 'Give the end or the duration, not both',
  notEditable: 'Only the person who booked this meeting can change it',
  createNotAllowed: 'Web meeting management is turned off: you cannot schedule meetings',
  createNotPermitted: 'Limited-access accounts cannot start or schedule meetings',
  roomsNotAllowed: 'Only administrators and video administrators can book rooms',
  joinTooEarly: 'The meeting can be joined from 10 minutes before its start',
  joinEnded: 'The meeting has ended',
  wrongPin: 'Wrong meeting PIN',
  notInLobby: 'Join the lobby to see who is in',
  unknownInvitee: 'An invitee is not a colleague of your organisation',
  feedUrl: 'A calendar feed is an http, https or webcal address',
  adHocShape: 'An ad-hoc meeting starts now, is private and does not recur',
  adHocInvitee: 'An ad-hoc meeting invites exactly one colleague other than yourself',
  adHocEdit: 'A meeting cannot be made ad-hoc after it was created',
  guestEmail: 'Give a valid e-mail address',
  guestName: 'Give your name (at most 80 characters)',
  guestMeeting: 'Give the meeting ID (digits) or the meeting link',
  guestOnly: 'A guest token opens only its own meeting',
} as const;

/** An instant on the wire: ISO 8601 with a zone, within years PostgreSQL and the calendar agree on. */
export const Instant = z.string().check(
  z.refine((s) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:(\d{2})(\.\d{1,6})?)?(Z|[+-](\d{2}):(\d{2}))$/.exec(s);
    if (!m) return false;
    // Date.parse takes 30 February (as 2 March) and 24:00; the calendar does not.
    const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[7] ?? '0'].map(Number) as [number, number, number, number, number, number];
    if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate() || hour > 23 || minute > 59 || second > 59) return false;
    if (m[10] !== undefined && (Number(m[10]) > 14 || Number(m[11]) > 59)) return false;
    const t = Date.parse(s);
    return Number.isFinite(t) && t >= Date.UTC(2000, 0, 1) && t < Date.UTC(2100, 0, 1);
  }, MEETING_ERRORS.badDate),
);

export const isTimeZone = (tz: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};
const TimeZone = z.string().check(z.maxLength(64), z.refine(isTimeZone, MEETING_ERRORS.badTimeZone));

const FOUR_DIGITS = /^\d{4}$/;
/** A PIN or password: empty (none) or exactly four digits. */
const Code = (message: string) => z.nullable(z.string().check(z.refine((s) => s === '' || FOUR_DIGITS.test(s), message)));

const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/i;
const IPV4 = /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** A bookmark: an http(s) URL, a host name with a dot, or an IP address (the modal keeps anything else in its input). */
export function isBookmark(text: string): boolean {
  if (text.length > 2000 || /\s/.test(text)) return false;
  if (IPV4.test(text)) return true;
  if (HOST.test(text)) return !/^[\d.]+$/.test(text);
  if (text.includes(':') && !text.includes('/') && /^[0-9a-f:]+$/i.test(text)) {
    try {
      return new URL(`http://[${text}]/`).hostname.length > 2;
    } catch {
      return false;
    }
  }
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** Seven flags, Monday first. */
export const DayInWeek = z.array(z.boolean()).check(z.length(7));

export const RecurrenceInput = z.object({
  occurs: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  day_in_week: z._default(DayInWeek, [false, false, false, false, false, false, false]),
  /** The last day an occurrence may start (inclusive); none: for ever. */
  until: z._default(z.nullable(Instant), null),
});
export type RecurrenceInput = z.infer<typeof RecurrenceInput>;

const EMAIL = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/;
const Invitee = z.union([
  z.object({ user_id: DbId, is_moderator: z._default(z.boolean(), false) }),
  z.object({ email: z.string().check(z.trim(), z.maxLength(254), z.regex(EMAIL, 'Invitee e-mail addresses must be valid')), is_moderator: z._default(z.literal(false), false) }),
]);

const nameField = z.string().check(z.trim(), z.minLength(1, MEETING_ERRORS.nameRequired), z.maxLength(MEETING_NAME_MAX));
const description = z._default(z.string().check(z.maxLength(MEETING_DESCRIPTION_MAX)), '');
const bookmarks = z._default(
  z.array(z.string().check(z.trim(), z.refine(isBookmark, MEETING_ERRORS.bookmark))).check(z.maxLength(MEETING_BOOKMARKS_MAX)),
  [],
);
const flag = z._default(z.boolean(), false);

/** The settings a meeting and a room share. */
const common = {
  meeting_name: nameField,
  meeting_description: description,
  bookmarks,
  pin: z._default(Code(MEETING_ERRORS.pin), null),
  password: z._default(Code(MEETING_ERRORS.password), null),
  waiting_room: flag,
  member_bypass: flag,
  only_mods: flag,
};

/**
 * `POST /v1/meetings` and `PUT /v1/meetings/{id}`. `instant`: starts now (the modal's Start tab);
 * otherwise `start` and either `end` or `duration_ms`. Durations are checked in the route, where
 * the end is known whichever way it came.
 */
export const MeetingInput = z.object({
  ...common,
  instant: flag,
  start: z.optional(Instant),
  end: z.optional(Instant),
  duration_ms: z.optional(z.int().check(z.gte(-MEETING_MAX_DURATION_MS * 10), z.lte(MEETING_MAX_DURATION_MS * 10))),
  /** The zone the weekdays and the daily time of a recurring meeting are in. */
  time_zone: z._default(TimeZone, 'UTC'),
  recurrence: z._default(z.nullable(RecurrenceInput), null),
  is_private: flag,
  /** Made from a chat's ad-hoc invite: instant, private, one colleague; nobody is sent an invitation (the chat told them). */
  ad_hoc: flag,
  invitees: z._default(z.array(Invitee).check(z.maxLength(MEETING_INVITEES_MAX)), []),
});
export type MeetingInput = z.input<typeof MeetingInput>;

/** `POST /v1/rooms` and `PUT /v1/rooms/{id}`: a standing room of the organisation. */
export const RoomInput = z.object({
  ...common,
  max_participants: z._default(z.nullable(z.int().check(z.gte(2), z.lte(1000))), null),
  /** Colleagues who moderate the room. */
  moderators: z._default(z.array(DbId).check(z.maxLength(MEETING_INVITEES_MAX)), []),
});
export type RoomInput = z.input<typeof RoomInput>;

export const MEETING_FILTERS = ['e', 'p', 'c'] as const;
export type MeetingFilter = (typeof MEETING_FILTERS)[number];

/** `GET /v1/meetings` query: a window of time, the filter, a title search, a page. */
export const MeetingListQuery = z.object({
  from: z.optional(Instant),
  to: z.optional(Instant),
  filter: z.optional(z.enum(MEETING_FILTERS)),
  search: z._default(z.string().check(z.maxLength(200)), ''),
  offset: z._default(z.pipe(z.coerce.number(), z.int().check(z.gte(0), z.lte(1_000_000))), 0),
  limit: z._default(z.pipe(z.coerce.number(), z.int().check(z.gte(1), z.lte(1000))), 50),
});

export const MeetingSource = z.enum(['uc', 'microsoft', 'google', 'ics']);
export type MeetingSource = z.infer<typeof MeetingSource>;

export const MeetingAttendee = z.object({
  user_id: z.nullable(z.int()),
  email: z.nullable(z.string()),
  name: z.string(),
  is_moderator: z.boolean(),
  /** A guest: invited by e-mail, not a user of the organisation. */
  is_guest: z.boolean(),
});
export type MeetingAttendee = z.infer<typeof MeetingAttendee>;

/** A meeting, a room, or one occurrence of either in the list; external ones have source ≠ uc. */
export const Meeting = z.object({
  id: z.int(),
  /** Unique in a list: source, id and occurrence start. */
  key: z.string(),
  meeting_type: z.enum(['meeting', 'room']),
  is_room: z.boolean(),
  source: MeetingSource,
  meeting_name: z.string(),
  meeting_description: z.string(),
  /** This occurrence (null for a room). */
  start: z.nullable(z.string()),
  end: z.nullable(z.string()),
  duration_ms: z.nullable(z.int()),
  /** A recurring meeting's first occurrence. */
  series_start: z.nullable(z.string()),
  time_zone: z.string(),
  is_recurring: z.boolean(),
  recurrence: z.nullable(z.object({ occurs: z.int(), day_in_week: z.array(z.boolean()), until: z.nullable(z.string()) })),
  bookmarks: z.array(z.string()),
  /** The ID one types to join (digits). */
  meeting_access_code: z.nullable(z.string()),
  has_pin: z.boolean(),
  /** Given to the booker, the invitees and (rooms) those who may book rooms; null for others. */
  pin: z.nullable(z.string()),
  has_password: z.boolean(),
  password: z.nullable(z.string()),
  /** Where a phone dials in (MEETING_DIAL_IN); empty for an external event. */
  phone_numbers: z.array(z.string()),
  /** The dial-in PIN (six digits), to those who may know the PIN; null for others. */
  phone_pin: z.nullable(z.string()),
  waiting_room: z.boolean(),
  member_bypass: z.boolean(),
  only_mods: z.boolean(),
  is_private: z.boolean(),
  ad_hoc: z.boolean(),
  max_participants: z.nullable(z.int()),
  attendees: z.array(MeetingAttendee),
  booked_by: z.string(),
  booked_by_id: z.nullable(z.int()),
  slug: z.nullable(z.string()),
  /** `{meeting_url}/uc/{alias}/{slug}`; for an external event, the link it carries if any. */
  url: z.nullable(z.string()),
  /** Edit and delete are open to the caller. */
  editable: z.boolean(),
  /** External events: the feed they came from. */
  feed_id: z.nullable(z.int()),
});
export type Meeting = z.infer<typeof Meeting>;

export const MeetingsPage = z.object({
  items: z.array(Meeting),
  total: z.int(),
  offset: z.int(),
  limit: z.int(),
  from: z.string(),
  to: z.string(),
});
export type MeetingsPage = z.infer<typeof MeetingsPage>;

export const RoomsResponse = z.object({ rooms: z.array(Meeting), refresh_interval_ms: z.int() });
export type RoomsResponse = z.infer<typeof RoomsResponse>;

/** `GET /v1/meetings/permissions`: what the modal and the rooms area may offer. */
export const MeetingPermissions = z.object({
  web_meeting_management: z.boolean(),
  can_create_meetings: z.boolean(),
  can_book_rooms: z.boolean(),
});
export type MeetingPermissions = z.infer<typeof MeetingPermissions>;

/** `POST /v1/meetings/join`: the join-by-ID popup. */
export const JoinRequest = z.object({
  access_code: z.string().check(z.trim(), z.regex(/^\d{6,12}$/, 'The meeting ID is digits')),
  pin: z._default(Code(MEETING_ERRORS.pin), null),
});
export const JoinResponse = z.object({
  meeting_id: z.int(),
  meeting_name: z.string(),
  url: z.string(),
  start: z.nullable(z.string()),
  end: z.nullable(z.string()),
});
export type JoinResponse = z.infer<typeof JoinResponse>;

/** `GET /v1/meetings/by-slug/{slug}`: the Meeting info the meeting page needs. */
export const MeetingInfo = z.object({
  id: z.int(),
  is_owner: z.boolean(),
  has_pin: z.boolean(),
  pin: z.nullable(z.string()),
  jid: z.string(),
  meeting_title: z.string(),
  owner_name: z.string(),
  type: z.enum(['meeting', 'room']),
  is_full: z.boolean(),
  is_owner_occupied: z.boolean(),
  max_occupants: z.nullable(z.int()),
  /** The occurrence under way or next (null for a room, or a meeting with none to come), and its zone. */
  start: z.nullable(z.string()),
  end: z.nullable(z.string()),
  time_zone: z.string(),
  /** The caller must give the PIN to enter (not the booker nor an invitee). */
  needs_pin: z.boolean(),
});
export type MeetingInfo = z.infer<typeof MeetingInfo>;

/**
 * `POST /v1/meetings/{id}/media`, for whoever holds a place in the meeting's lobby: the Janus
 * videoroom (created by this call when it is the first) with its PIN, and the TURN server with a
 * credential of the caller's own. The room's moderation secret and Janus's admin key stay on the server.
 */
export const MeetingMedia = z.object({
  janus_url: z.string(),
  room: z.int(),
  pin: z.string(),
  turn: TurnCredentialsResponse,
  /** The booker or a moderator: may mute, unmute and remove participants and end the meeting for all. */
  is_host: z.boolean(),
});
export type MeetingMedia = z.infer<typeof MeetingMedia>;

/** A participant's feed in the meeting's videoroom (Janus's publisher id). */
const Feed = z.int().check(z.gte(1), z.lte(Number.MAX_SAFE_INTEGER));
/** `POST /v1/meetings/{id}/media/moderate`: the host mutes or unmutes one stream of a participant for everyone. */
export const ModerateInput = z.object({ feed: Feed, mid: z.string().check(z.regex(/^[0-9a-z]{1,8}$/, 'Not a stream id')), mute: z.boolean() });
export type ModerateInput = z.infer<typeof ModerateInput>;
/** `POST /v1/meetings/{id}/media/remove`: the host removes a participant. */
export const RemoveInput = z.object({ feed: Feed });
export type RemoveInput = z.infer<typeof RemoveInput>;

/**
 * `GET /v1/meetings/{id}/media/phones`: the phones dialled in, each by the audio bridge's id for it,
 * with its number, whether the host muted it and whether it speaks now; `state` names the list as
 * it is, and `?wait=<state>` answers once the list is no longer so (a phone joined, left, was muted,
 * started or stopped speaking), or after PHONES_WAIT_MS with the same list.
 */
export const MeetingPhones = z.object({
  phones: z.array(z.object({ id: z.int(), number: z.string(), muted: z.boolean(), talking: z.boolean() })),
  state: z.optional(z.string()),
});
export type MeetingPhones = z.infer<typeof MeetingPhones>;
export const MeetingPhonesQuery = z.object({ wait: z.optional(z.string().check(z.minLength(1), z.maxLength(64))) });
/** How long `?wait=` holds the answer when nothing changes. */
export const PHONES_WAIT_MS = 25_000;
const PhoneId = z.int().check(z.gte(1), z.lte(Number.MAX_SAFE_INTEGER));
/** `POST /v1/meetings/{id}/media/phones/mute`: the host mutes or unmutes one phone (it has no button of its own to undo it). */
export const PhoneMuteInput = z.object({ phone: PhoneId, mute: z.boolean() });
export type PhoneMuteInput = z.infer<typeof PhoneMuteInput>;
/** `POST /v1/meetings/{id}/media/phones/remove`: the host hangs one phone up. */
export const PhoneRemoveInput = z.object({ phone: PhoneId });
export type PhoneRemoveInput = z.infer<typeof PhoneRemoveInput>;

/** Someone waiting to be let in: a user's id, a guest's id negated (as the lobby lists them), or a phone's (migration 060). */
const Occupant = z.int().check(z.gte(-2_147_483_647), z.lte(2_147_483_647), z.refine((n) => n !== 0, 'Not a participant'));
/** `GET /v1/meetings/{id}/media/waiting`: the waiting room, for the host; a phone dialled in is `is_phone`, its caller number as `name`. */
export const WaitingRoom = z.object({ waiting: z.array(z.object({ occupant: z.int(), name: z.string(), is_phone: z.optional(z.boolean()) })) });
export type WaitingRoom = z.infer<typeof WaitingRoom>;
/** `POST /v1/meetings/{id}/media/admit`: the host lets someone in, or not. */
export const AdmitInput = z.object({ occupant: Occupant, admit: z.boolean() });
export type AdmitInput = z.infer<typeof AdmitInput>;
/** How long a waiting window's last ask counts (it asks again every few seconds). */
export const WAITING_FRESH_MS = 20_000;

export const SlugParam = z.object({ slug: z.string().check(z.regex(/^[a-z0-9]{5,20}$/, 'Not a meeting slug')) });

export const CALENDAR_FEEDS_MAX = 10;
/** `POST /v1/calendar-feeds`: an iCalendar address (what Outlook and Google publish). */
export const CalendarFeedInput = z.object({
  url: z.string().check(
    z.trim(),
    z.maxLength(2000),
    z.refine((s) => {
      try {
        const u = new URL(s.replace(/^webcals?:/i, (m) => (m.toLowerCase() === 'webcals:' ? 'https:' : 'http:')));
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    }, MEETING_ERRORS.feedUrl),
  ),
  name: z._default(z.string().check(z.trim(), z.maxLength(MEETING_NAME_MAX)), ''),
});
export type CalendarFeedInput = z.input<typeof CalendarFeedInput>;

export const CalendarFeed = z.object({
  id: z.int(),
  url: z.string(),
  name: z.string(),
  source: MeetingSource,
  last_fetched_at: z.nullable(z.string()),
  last_error: z.nullable(z.string()),
  event_count: z.int(),
});
export type CalendarFeed = z.infer<typeof CalendarFeed>;
export const CalendarFeedsResponse = z.object({ feeds: z.array(CalendarFeed) });

/*
 * The meeting window's lobby (until the meeting page with media lands): who is in. A lobby window
 * holds its place with a heartbeat; a place not renewed within the TTL (a closed or crashed window)
 * lapses, as does every place when its occurrence ends.
 */
export const LOBBY_HEARTBEAT_MS = 15_000;
export const LOBBY_PRESENCE_TTL_MS = 45_000;
/** How often an open lobby reads who is in. */
export const LOBBY_REFRESH_MS = 4_000;
/** The meeting window's `state` parameter: the user's own presence when it is one of these. */
export const LOBBY_STATES = ['xa', 'dnd', 'away'] as const;
export const LobbyState = z.enum(LOBBY_STATES);
export type LobbyState = z.infer<typeof LobbyState>;

/** `POST /v1/meetings/{id}/presence`: this window is in the lobby (again: the heartbeat). */
export const LobbyJoin = z.object({
  /** The window's key: the `ssid` it was opened with, else its own random one. */
  client_id: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not a lobby client id')),
  pin: z._default(Code(MEETING_ERRORS.pin), null),
  state: z._default(z.nullable(LobbyState), null),
});
export type LobbyJoin = z.infer<typeof LobbyJoin>;
/** A guest (issue 22) carries `is_guest` and, as `user_id`, its guest id negated: never a user's id, so keys stay unique. */
export const LobbyOccupant = z.object({ user_id: z.int(), name: z.string(), state: z.nullable(LobbyState), is_self: z.boolean(), is_guest: z.optional(z.boolean()) });
export type LobbyOccupant = z.infer<typeof LobbyOccupant>;
/** Who is in the lobby now, sorted by name; the caller among them. */
export const Lobby = z.object({ meeting_id: z.int(), occupants: z.array(LobbyOccupant) });
export type Lobby = z.infer<typeof Lobby>;

export const GUEST_NAME_MAX = 80;
/**
 * `POST /v1/meetings/guest` (no account): a guest joins with the meeting's ID (the digits people
 * are given) or the slug of its link, an e-mail address, a name, and the PIN when the meeting has one.
 */
export const GuestJoinRequest = z.object({
  meeting: z.string().check(z.trim(), z.regex(/^(\d{6,12}|[a-z0-9]{5,20})$/, MEETING_ERRORS.guestMeeting)),
  email: z.string().check(z.trim(), z.maxLength(254, MEETING_ERRORS.guestEmail), z.regex(EMAIL, MEETING_ERRORS.guestEmail)),
  name: z.string().check(z.trim(), z.minLength(1, MEETING_ERRORS.guestName), z.maxLength(GUEST_NAME_MAX, MEETING_ERRORS.guestName)),
  pin: z._default(Code(MEETING_ERRORS.pin), null),
});
export type GuestJoinRequest = z.input<typeof GuestJoinRequest>;
/** The guest's token: accepted only by the calls of this meeting's page (its info, lobby and media). */
export const GuestJoinResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.int(),
  meeting_id: z.int(),
  slug: z.string(),
  /** The guest's id, negated where a user's id is expected (the lobby's occupants, the media's feeds). */
  guest_id: z.int(),
  name: z.string(),
});
export type GuestJoinResponse = z.infer<typeof GuestJoinResponse>;

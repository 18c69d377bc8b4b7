import type { Queryable } from '../db/types';

export interface MeetingRow {
  id: number;
  organization_id: number;
  booked_by_id: number;
  booker_username: string;
  booker_name: string;
  booker_email: string;
  meeting_type: 'meeting' | 'room';
  name: string;
  description: string;
  starts_at: Date | string | null;
  duration_ms: number | null;
  time_zone: string;
  occurs: number | null;
  day_in_week: number;
  recurrence_until: Date | string | null;
  bookmarks: string[];
  access_code: string;
  pin: string | null;
  /** The dial-in PIN (058_meeting_phone_pin.sql): six digits. */
  phone_pin: string;
  password: string | null;
  waiting_room: boolean;
  member_bypass: boolean;
  only_mods: boolean;
  is_private: boolean;
  ad_hoc: boolean;
  max_participants: number | null;
  sequence: number;
}

export interface InviteeRow {
  meeting_id: number;
  user_id: number | null;
  email: string | null;
  name: string;
  username: string | null;
  role_id: number | null;
  /** The guest's e-mail, or the colleague's. */
  address: string;
  is_moderator: boolean;
}

/** What a meeting row holds, as the routes write it. */
export interface MeetingFields {
  name: string;
  description: string;
  startsAt: Date | null;
  durationMs: number | null;
  timeZone: string;
  occurs: number | null;
  dayInWeek: number;
  recurrenceUntil: Date | null;
  bookmarks: string[];
  pin: string | null;
  password: string | null;
  waitingRoom: boolean;
  memberBypass: boolean;
  onlyMods: boolean;
  isPrivate: boolean;
  maxParticipants: number | null;
}

export interface NewInvitee {
  userId: number | null;
  email: string | null;
  isModerator: boolean;
}

const SELECT_MEETING = `
  SELECT m.id, m.organization_id, m.booked_by_id, b.username AS booker_username,
         trim(b.first_name || ' ' || b.last_name) AS booker_name, b.email AS booker_email,
         m.meeting_type, m.name, m.description, m.starts_at, m.duration_ms, m.time_zone, m.occurs, m.day_in_week,
         m.recurrence_until, m.bookmarks, m.access_code, m.pin, m.phone_pin, m.password, m.waiting_room, m.member_bypass,
         m.only_mods, m.is_private, m.ad_hoc, m.max_participants, m.sequence
    FROM meetings m JOIN users b ON b.id = m.booked_by_id`;

/** Who may see a meeting: its booker and invitees; a room, the whole organisation. */
const VISIBLE = `m.organization_id = $1 AND (m.meeting_type = 'room' OR m.booked_by_id = $2
  OR EXISTS (SELECT 1 FROM meeting_invitees i WHERE i.meeting_id = m.id AND i.user_id = $2))`;

export async function visibleMeeting(q: Queryable, orgId: number, userId: number, id: number, forUpdate = false): Promise<MeetingRow | null> {
  const { rows } = await q.query<MeetingRow>(`${SELECT_MEETING} WHERE ${VISIBLE} AND m.id = $3${forUpdate ? ' FOR UPDATE OF m' : ''}`, [orgId, userId, id]);
  return rows[0] ?? null;
}

/** The meetings (not rooms) of a user that may have an occurrence in [from, to): the rest is expanded in code. */
export async function meetingsBetween(q: Queryable, orgId: number, userId: number, from: Date, to: Date, booked: 'mine' | 'others' | 'all'): Promise<MeetingRow[]> {
  const who = booked === 'mine' ? 'AND m.booked_by_id = $2' : booked === 'others' ? 'AND m.booked_by_id <> $2' : '';
  const { rows } = await q.query<MeetingRow>(
    `${SELECT_MEETING} WHERE ${VISIBLE} AND m.meeting_type = 'meeting' ${who}
        AND m.starts_at < $4
        AND (m.occurs IS NOT NULL AND (m.recurrence_until IS NULL OR m.recurrence_until + interval '30 hours' >= $3)
             OR m.starts_at + m.duration_ms * interval '1 millisecond' > $3)
      ORDER BY m.starts_at, m.id`,
    [orgId, userId, from.toISOString(), to.toISOString()],
  );
  return rows;
}

export async function roomsOf(q: Queryable, orgId: number): Promise<MeetingRow[]> {
  const { rows } = await q.query<MeetingRow>(`${SELECT_MEETING} WHERE m.organization_id = $1 AND m.meeting_type = 'room' ORDER BY lower(m.name), m.id`, [orgId]);
  return rows;
}

/** Anyone of the organisation may join by ID (that is what the ID is for); the PIN guards the rest. */
export async function meetingByAccessCode(q: Queryable, orgId: number, code: string): Promise<MeetingRow | null> {
  const { rows } = await q.query<MeetingRow>(`${SELECT_MEETING} WHERE m.organization_id = $1 AND m.access_code = $2`, [orgId, code]);
  return rows[0] ?? null;
}

export async function meetingInOrg(q: Queryable, orgId: number, id: number): Promise<MeetingRow | null> {
  const { rows } = await q.query<MeetingRow>(`${SELECT_MEETING} WHERE m.organization_id = $1 AND m.id = $2`, [orgId, id]);
  return rows[0] ?? null;
}

/** Any organisation's meeting: for guests, whose token (or the ID they were given) names the meeting itself. */
export async function meetingById(q: Queryable, id: number): Promise<MeetingRow | null> {
  const { rows } = await q.query<MeetingRow>(`${SELECT_MEETING} WHERE m.id = $1`, [id]);
  return rows[0] ?? null;
}

/** Access codes are unique across organisations (042_meetings.sql), so a guest's code names one meeting. */
export async function meetingByCode(q: Queryable, code: string): Promise<MeetingRow | null> {
  const { rows } = await q.query<MeetingRow>(`${SELECT_MEETING} WHERE m.access_code = $1`, [code]);
  return rows[0] ?? null;
}

export async function inviteesOf(q: Queryable, meetingIds: readonly number[]): Promise<InviteeRow[]> {
  if (!meetingIds.length) return [];
  const { rows } = await q.query<InviteeRow>(
    `SELECT i.meeting_id, i.user_id, i.email, i.is_moderator, u.username, u.role_id, coalesce(i.email, u.email, '') AS address,
            coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), i.email, '') AS name
       FROM meeting_invitees i LEFT JOIN users u ON u.id = i.user_id
      WHERE i.meeting_id = ANY($1::int[]) ORDER BY i.meeting_id, i.id`,
    [meetingIds],
  );
  return rows;
}

const FIELD_PARAMS = (f: MeetingFields) => [
  f.name, f.description, f.startsAt?.toISOString() ?? null, f.durationMs, f.timeZone, f.occurs, f.dayInWeek,
  f.recurrenceUntil?.toISOString() ?? null, f.bookmarks, f.pin, f.password, f.waitingRoom, f.memberBypass, f.onlyMods,
  f.isPrivate, f.maxParticipants,
];

export async function insertMeeting(q: Queryable, orgId: number, bookerId: number, type: 'meeting' | 'room', accessCode: string, f: MeetingFields): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO meetings (name, description, starts_at, duration_ms, time_zone, occurs, day_in_week, recurrence_until, bookmarks,
                           pin, password, waiting_room, member_bypass, only_mods, is_private, max_participants,
                           organization_id, booked_by_id, meeting_type, access_code)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::text[], $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
     ON CONFLICT (access_code) DO NOTHING RETURNING id`,
    [...FIELD_PARAMS(f), orgId, bookerId, type, accessCode],
  );
  return rows[0]?.id ?? 0;
}

/** An ad-hoc meeting (made from a chat's invite): a flag of its own, set once at creation. */
export async function markAdHoc(q: Queryable, id: number): Promise<void> {
  await q.query('UPDATE meetings SET ad_hoc = true WHERE id = $1', [id]);
}

/** Rewrites a meeting and counts the change for the invitations (SEQUENCE). */
export async function updateMeeting(q: Queryable, id: number, f: MeetingFields): Promise<void> {
  await q.query(
    `UPDATE meetings SET name = $1, description = $2, starts_at = $3, duration_ms = $4, time_zone = $5, occurs = $6, day_in_week = $7,
            recurrence_until = $8, bookmarks = $9::text[], pin = $10, password = $11, waiting_room = $12, member_bypass = $13,
            only_mods = $14, is_private = $15, max_participants = $16, sequence = sequence + 1, updated_at = now()
      WHERE id = $17`,
    [...FIELD_PARAMS(f), id],
  );
}

export async function replaceInvitees(q: Queryable, meetingId: number, invitees: readonly NewInvitee[]): Promise<void> {
  await q.query('DELETE FROM meeting_invitees WHERE meeting_id = $1', [meetingId]);
  if (!invitees.length) return;
  await q.query(
    `INSERT INTO meeting_invitees (meeting_id, user_id, email, is_moderator)
     SELECT $1, v.user_id, v.email, v.moderator FROM unnest($2::int[], $3::text[], $4::boolean[]) AS v(user_id, email, moderator)`,
    [meetingId, invitees.map((i) => i.userId), invitees.map((i) => i.email), invitees.map((i) => i.isModerator)],
  );
}

export async function deleteMeeting(q: Queryable, id: number): Promise<void> {
  await q.query('DELETE FROM meetings WHERE id = $1', [id]);
}

/** Of these ids, the users of the organisation (anyone of it may be invited). */
export async function colleagueIds(q: Queryable, orgId: number, ids: readonly number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const { rows } = await q.query<{ id: number }>('SELECT id FROM users WHERE organization_id = $1 AND id = ANY($2::int[])', [orgId, ids]);
  return new Set(rows.map((r) => r.id));
}

/** Colleagues with these e-mail addresses (lower case → id): an address of a colleague invites the colleague. */
export async function colleaguesByEmail(q: Queryable, orgId: number, emails: readonly string[]): Promise<Map<string, number>> {
  if (!emails.length) return new Map();
  const { rows } = await q.query<{ id: number; email: string }>(
    'SELECT id, lower(email) AS email FROM users WHERE organization_id = $1 AND lower(email) = ANY($2::text[]) ORDER BY id',
    [orgId, emails.map((e) => e.toLowerCase())],
  );
  const out = new Map<string, number>();
  for (const r of rows) if (!out.has(r.email)) out.set(r.email, r.id);
  return out;
}

export async function isVideoAdmin(q: Queryable, userId: number): Promise<boolean> {
  const { rows } = await q.query<{ video_admin: boolean }>('SELECT video_admin FROM users WHERE id = $1', [userId]);
  return rows[0]?.video_admin ?? false;
}

export interface MailUser {
  id: number;
  username: string;
  name: string;
  email: string;
}

export async function usersByIds(q: Queryable, ids: readonly number[]): Promise<MailUser[]> {
  if (!ids.length) return [];
  const { rows } = await q.query<MailUser>(
    `SELECT id, username, trim(first_name || ' ' || last_name) AS name, email FROM users WHERE id = ANY($1::int[]) ORDER BY id`,
    [ids],
  );
  return rows;
}

// ---- external calendars -------------------------------------------------------------------------

export interface FeedRow {
  id: number;
  user_id: number;
  url: string;
  name: string;
  source: 'microsoft' | 'google' | 'ics';
  last_fetched_at: Date | string | null;
  last_error: string | null;
  event_count: number;
}

const SELECT_FEED = `SELECT f.id, f.user_id, f.url, f.name, f.source, f.last_fetched_at, f.last_error,
  (SELECT count(*)::int FROM external_events e WHERE e.feed_id = f.id) AS event_count FROM calendar_feeds f`;

export async function feedsOf(q: Queryable, userId: number): Promise<FeedRow[]> {
  const { rows } = await q.query<FeedRow>(`${SELECT_FEED} WHERE f.user_id = $1 ORDER BY f.id`, [userId]);
  return rows;
}

export async function ownFeed(q: Queryable, userId: number, id: number): Promise<FeedRow | null> {
  const { rows } = await q.query<FeedRow>(`${SELECT_FEED} WHERE f.user_id = $1 AND f.id = $2`, [userId, id]);
  return rows[0] ?? null;
}

export async function feedById(q: Queryable, id: number): Promise<FeedRow | null> {
  const { rows } = await q.query<FeedRow>(`${SELECT_FEED} WHERE f.id = $1`, [id]);
  return rows[0] ?? null;
}

/** Null when the user already has this address. */
export async function insertFeed(q: Queryable, userId: number, url: string, name: string, source: FeedRow['source']): Promise<number | null> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO calendar_feeds (user_id, url, name, source) VALUES ($1, $2, $3, $4) ON CONFLICT (user_id, url) DO NOTHING RETURNING id`,
    [userId, url, name, source],
  );
  return rows[0]?.id ?? null;
}

export async function countFeeds(q: Queryable, userId: number): Promise<number> {
  const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM calendar_feeds WHERE user_id = $1', [userId]);
  return rows[0]?.n ?? 0;
}

export async function deleteOwnFeed(q: Queryable, userId: number, id: number): Promise<boolean> {
  const { rows } = await q.query<{ id: number }>('DELETE FROM calendar_feeds WHERE user_id = $1 AND id = $2 RETURNING id', [userId, id]);
  return rows.length > 0;
}

/** Feeds not read since `before` (or never), oldest first. */
export async function dueFeeds(q: Queryable, before: Date, limit: number): Promise<number[]> {
  const { rows } = await q.query<{ id: number }>(
    'SELECT id FROM calendar_feeds WHERE last_fetched_at IS NULL OR last_fetched_at < $1 ORDER BY last_fetched_at NULLS FIRST, id LIMIT $2',
    [before.toISOString(), limit],
  );
  return rows.map((r) => r.id);
}

export interface ExternalEvent {
  uid: string;
  name: string;
  description: string;
  location: string | null;
  url: string | null;
  organizer: string | null;
  start: Date;
  end: Date;
  isRecurring: boolean;
}

/** A successful read replaces the feed's events; a failed one keeps them and records why. */
export async function storeFeedEvents(q: Queryable, feedId: number, events: readonly ExternalEvent[], name: string | null, at: Date): Promise<void> {
  await q.query('DELETE FROM external_events WHERE feed_id = $1', [feedId]);
  if (events.length) {
    await q.query(
      `INSERT INTO external_events (feed_id, uid, name, description, location, url, organizer, starts_at, ends_at, is_recurring)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::timestamptz[], $10::boolean[])`,
      [
        feedId, events.map((e) => e.uid), events.map((e) => e.name), events.map((e) => e.description), events.map((e) => e.location),
        events.map((e) => e.url), events.map((e) => e.organizer), events.map((e) => e.start.toISOString()), events.map((e) => e.end.toISOString()),
        events.map((e) => e.isRecurring),
      ],
    );
  }
  await q.query(
    `UPDATE calendar_feeds SET last_fetched_at = $3, last_error = NULL, name = CASE WHEN name = '' THEN coalesce($2, '') ELSE name END WHERE id = $1`,
    [feedId, name, at.toISOString()],
  );
}

export async function feedFailed(q: Queryable, feedId: number, error: string, at: Date): Promise<void> {
  await q.query('UPDATE calendar_feeds SET last_fetched_at = $3, last_error = $2 WHERE id = $1', [feedId, error.slice(0, 500), at.toISOString()]);
}

export interface ExternalEventRow {
  id: number;
  feed_id: number;
  source: 'microsoft' | 'google' | 'ics';
  name: string;
  description: string;
  location: string | null;
  url: string | null;
  organizer: string | null;
  starts_at: Date | string;
  ends_at: Date | string;
  is_recurring: boolean;
}

export async function externalEventsBetween(q: Queryable, userId: number, from: Date, to: Date): Promise<ExternalEventRow[]> {
  const { rows } = await q.query<ExternalEventRow>(
    `SELECT e.id, e.feed_id, f.source, e.name, e.description, e.location, e.url, e.organizer, e.starts_at, e.ends_at, e.is_recurring
       FROM external_events e JOIN calendar_feeds f ON f.id = e.feed_id
      WHERE f.user_id = $1 AND e.starts_at < $3 AND e.ends_at > $2 ORDER BY e.starts_at, e.id`,
    [userId, from.toISOString(), to.toISOString()],
  );
  return rows;
}

/** Whether the user is one of the meeting's (or room's) moderators. */
export async function isModerator(q: Queryable, meetingId: number, userId: number): Promise<boolean> {
  const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM meeting_invitees WHERE meeting_id = $1 AND user_id = $2 AND is_moderator', [meetingId, userId]);
  return (rows[0]?.n ?? 0) > 0;
}

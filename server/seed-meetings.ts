import type { Queryable } from './db/types';

/**
 * The demo organisation's meetings, rooms and one external calendar, around `now`: each core user
 * books a dozen meetings (past, today, coming, recurring) with colleagues invited, and everyone
 * sees one starting in five minutes. Times are on the quarter hour in the office's zone.
 */
const ZONE = 'America/New_York';
const CORE = ['olivia', 'alice', 'bob', 'carol'] as const;
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

interface DemoMeeting {
  name: string;
  /** From `now` rounded down to the quarter hour. */
  offset: number;
  minutes: number;
  /** occurs (1 daily, 2 weekly, 3 fortnightly) and weekday bits (Monday = 1). */
  recurrence?: { occurs: 1 | 2 | 3; days: number };
  description?: string;
  bookmarks?: string[];
  pin?: string;
  guest?: string;
}

const WEEKDAYS = 0b0011111;
const PER_USER: Record<(typeof CORE)[number], DemoMeeting[]> = {
  olivia: [
    { name: 'Leadership sync', offset: 2 * HOUR, minutes: 30 },
    { name: 'Quarterly planning', offset: 2 * DAY + 3 * HOUR, minutes: 120, description: 'Targets and hiring for next quarter.', bookmarks: ['https://wiki.acme.example/planning'] },
    { name: 'Board prep', offset: -1 * DAY, minutes: 60 },
    { name: 'All hands', offset: 6 * DAY, minutes: 45, recurrence: { occurs: 3, days: 0b0010000 } },
    { name: 'Budget review', offset: -4 * DAY + 2 * HOUR, minutes: 60 },
    { name: 'Vendor call: Globex', offset: 3 * DAY, minutes: 30, guest: 'sam@globex.example', pin: '2468' },
    { name: 'Office move', offset: 9 * DAY, minutes: 60 },
    { name: 'Hiring panel', offset: -8 * DAY, minutes: 90 },
    { name: 'Customer advisory board', offset: 14 * DAY, minutes: 120, guest: 'lee@initech.example' },
    { name: 'Finance check-in', offset: 1 * DAY + HOUR, minutes: 30 },
    { name: 'Security training', offset: 20 * DAY, minutes: 60, bookmarks: ['https://training.acme.example'] },
    { name: 'Coffee with Alice', offset: 5 * HOUR, minutes: 15 },
  ],
  alice: [
    { name: 'Design review', offset: 5 * MIN, minutes: 45, description: 'New onboarding screens.', bookmarks: ['https://figma.acme.example/onboarding'], pin: '1234' },
    { name: 'Team standup', offset: -30 * DAY, minutes: 15, recurrence: { occurs: 2, days: 0b0010101 } },
    { name: 'Sprint retro', offset: -2 * DAY, minutes: 60 },
    { name: 'Sprint planning', offset: 4 * DAY, minutes: 90 },
    { name: 'Customer demo: Initech', offset: 1 * DAY + 2 * HOUR, minutes: 60, guest: 'lee@initech.example' },
    { name: 'Roadmap', offset: 8 * DAY, minutes: 60 },
    { name: 'Bug bash', offset: -6 * DAY, minutes: 120 },
    { name: 'UX research readout', offset: 3 * HOUR, minutes: 30 },
    { name: 'Architecture forum', offset: 11 * DAY, minutes: 60 },
    { name: 'Release go/no-go', offset: 2 * DAY + 5 * HOUR, minutes: 30 },
    { name: 'Mentoring', offset: 15 * DAY, minutes: 45, recurrence: { occurs: 3, days: 0b0000100 } },
    { name: 'Lunch and learn', offset: 6 * DAY + HOUR, minutes: 60 },
  ],
  bob: [
    { name: 'Support triage', offset: -14 * DAY, minutes: 30, recurrence: { occurs: 1, days: WEEKDAYS } },
    { name: 'Escalation review', offset: 4 * HOUR, minutes: 30 },
    { name: 'Partner onboarding', offset: 2 * DAY, minutes: 60, guest: 'ana@umbrella.example' },
    { name: 'Knowledge base cleanup', offset: -3 * DAY, minutes: 60 },
    { name: 'Queue metrics', offset: 5 * DAY, minutes: 30 },
    { name: 'Incident post-mortem', offset: -1 * DAY + 3 * HOUR, minutes: 60 },
    { name: 'On-call handover', offset: 7 * DAY, minutes: 15, recurrence: { occurs: 2, days: 0b0010000 } },
    { name: 'Tooling demo', offset: 10 * DAY, minutes: 45 },
    { name: 'Training: new hires', offset: 12 * DAY, minutes: 90 },
    { name: 'Customer call: Umbrella', offset: 1 * DAY + 4 * HOUR, minutes: 30, guest: 'ana@umbrella.example' },
    { name: 'SLA review', offset: -9 * DAY, minutes: 60 },
    { name: 'Team lunch', offset: 3 * DAY + 2 * HOUR, minutes: 60 },
  ],
  carol: [
    { name: 'Sales pipeline', offset: -21 * DAY, minutes: 45, recurrence: { occurs: 2, days: 0b0000010 } },
    { name: 'Pricing workshop', offset: 6 * HOUR, minutes: 90 },
    { name: 'Deal review: Globex', offset: 1 * DAY + 3 * HOUR, minutes: 30, guest: 'sam@globex.example' },
    { name: 'Forecast', offset: -2 * DAY + HOUR, minutes: 60 },
    { name: 'Territory planning', offset: 5 * DAY + 2 * HOUR, minutes: 60 },
    { name: 'Win/loss analysis', offset: -5 * DAY, minutes: 45 },
    { name: 'Partner summit prep', offset: 13 * DAY, minutes: 120 },
    { name: 'Marketing sync', offset: 2 * DAY + HOUR, minutes: 30 },
    { name: 'Contract review', offset: 4 * DAY + 3 * HOUR, minutes: 30 },
    { name: '1:1 with Olivia', offset: 7 * DAY + HOUR, minutes: 30, recurrence: { occurs: 3, days: 0b0001000 } },
    { name: 'Trade show debrief', offset: -7 * DAY, minutes: 60 },
    { name: 'Enablement session', offset: 16 * DAY, minutes: 60 },
  ],
};

const ROOMS = [
  { name: 'Acme lobby', description: 'Drop in any time.', pin: null, moderators: ['olivia'] },
  { name: 'Support war room', description: 'For incidents.', pin: '4321', moderators: ['bob', 'alice'] },
] as const;

/** The demo calendar's events are stored as a read would store them; its address answers nothing, so a refresh keeps them and says it could not read. */
const FEED = { owner: 'alice', url: 'https://calendar.acme.invalid/alice/holidays.ics', name: 'Alice (personal)' };
const FEED_EVENTS = [
  { name: 'Dentist', offset: 1 * DAY + 7 * HOUR, minutes: 60 },
  { name: 'School play', offset: 3 * DAY + 9 * HOUR, minutes: 90 },
  { name: 'Flight to Chicago', offset: 10 * DAY, minutes: 150 },
];

/**
 * Safe to call on any database: it does nothing unless the demo users exist and no meeting does
 * (a demo seeded before meetings existed gets them once, see server/main.ts).
 */
export async function seedDemoMeetings(tx: Queryable, now: number): Promise<number> {
  const any = await tx.query('SELECT 1 FROM meetings LIMIT 1');
  if (any.rows.length) return 0;
  const { rows: users } = await tx.query<{ id: number; username: string; organization_id: number }>(
    `SELECT id, username, organization_id FROM users WHERE username = ANY($1::text[])`,
    [[...CORE]],
  );
  const idOf = new Map(users.map((u) => [u.username, u.id]));
  if (idOf.size !== CORE.length) return 0;
  const org = users[0]!.organization_id;
  await tx.query(`UPDATE users SET video_admin = true WHERE username = 'olivia'`);
  const base = Math.floor(now / (15 * MIN)) * 15 * MIN;
  let n = 0;
  let code = 0;
  const nextCode = () => String(314_159_000 + code++ * 7);
  for (const booker of CORE) {
    const others = CORE.filter((c) => c !== booker);
    for (const [i, m] of PER_USER[booker].entries()) {
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO meetings (organization_id, booked_by_id, meeting_type, name, description, starts_at, duration_ms, time_zone,
                               occurs, day_in_week, bookmarks, access_code, pin)
         VALUES ($1, $2, 'meeting', $3, $4, $5, $6, $7, $8, $9, $10::text[], $11, $12) RETURNING id`,
        [org, idOf.get(booker), m.name, m.description ?? '', new Date(base + m.offset).toISOString(), m.minutes * MIN, ZONE,
          m.recurrence?.occurs ?? null, m.recurrence?.days ?? 0, m.bookmarks ?? [], nextCode(), m.pin ?? null],
      );
      const id = rows[0]!.id;
      // The first meeting of each booker invites every other core user; the rest two of them, in turn.
      const invited = i === 0 || m.name === 'Design review' ? others : [others[i % 3]!, others[(i + 1) % 3]!];
      await tx.query(
        `INSERT INTO meeting_invitees (meeting_id, user_id, is_moderator) SELECT $1, u, false FROM unnest($2::int[]) AS u`,
        [id, invited.map((u) => idOf.get(u)!)],
      );
      if (m.guest) await tx.query(`INSERT INTO meeting_invitees (meeting_id, email) VALUES ($1, $2)`, [id, m.guest]);
      n++;
    }
  }
  for (const r of ROOMS) {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO meetings (organization_id, booked_by_id, meeting_type, name, description, access_code, pin, max_participants)
       VALUES ($1, $2, 'room', $3, $4, $5, $6, 50) RETURNING id`,
      [org, idOf.get('olivia'), r.name, r.description, nextCode(), r.pin],
    );
    await tx.query(
      `INSERT INTO meeting_invitees (meeting_id, user_id, is_moderator) SELECT $1, u, true FROM unnest($2::int[]) AS u`,
      [rows[0]!.id, r.moderators.map((u) => idOf.get(u)!)],
    );
  }
  const feed = await tx.query<{ id: number }>(
    `INSERT INTO calendar_feeds (user_id, url, name, source, last_fetched_at) VALUES ($1, $2, $3, 'ics', $4) RETURNING id`,
    [idOf.get(FEED.owner), FEED.url, FEED.name, new Date(now).toISOString()],
  );
  for (const [i, e] of FEED_EVENTS.entries()) {
    await tx.query(
      `INSERT INTO external_events (feed_id, uid, name, starts_at, ends_at) VALUES ($1, $2, $3, $4, $5)`,
      [feed.rows[0]!.id, `demo-${i}@calendar.acme.invalid`, e.name, new Date(base + e.offset).toISOString(), new Date(base + e.offset + e.minutes * MIN).toISOString()],
    );
  }
  return n;
}

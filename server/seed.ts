import { hashPassword } from './auth/passwords';
import { prng } from './prng';
import type { Db, Queryable } from './db/types';
import {
  ACME_CORE,
  ACME_STAFF,
  AREA_CODES,
  EXTERNAL_BUSINESSES,
  EXTERNAL_PEOPLE_FIRST,
  EXTERNAL_PEOPLE_LAST,
  NORTHWIND_ADMIN,
  type DemoPerson,
} from './seed-data';
import { seedDemoContacts } from './seed-contacts';
import { demoClips, seedDemoMedia } from './seed-media';
import { seedDemoE911 } from './seed-e911';
import { seedDemoFrame } from './seed-frame';
import { seedDemoMeetings } from './seed-meetings';
import { seedDemoRooms } from './seed-rooms';
import { seedDemoTexts } from './seed-texts';
import { seedDemoResellers } from './seed-resellers';
import { insertColumns } from './db/bulk';
import { giveDefaultVoicemailForward, insertUsers } from './users/create';

export const DEMO_PASSWORD = 'Demo-pass-1';
const SEED = 0x5eed_2026;
const DAY_MS = 86_400_000;
const HISTORY_DAYS = 120;
const SEED_LOCK_KEY = 7_312_002;

/** A per-name seed, so adding a user never changes another user's data. */
function seedFor(name: string): number {
  let h = 0x811c9dc5;
  for (const ch of name) h = Math.imul(h ^ ch.codePointAt(0)!, 0x01000193);
  return (h ^ SEED) >>> 0;
}

type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
const chance = (rng: Rng, p: number) => rng() < p;

export function asciiUsername(first: string, last: string): string {
  const ascii = (s: string) =>
    s
      .replace(/ı/g, 'i')
      .replace(/ß/g, 'ss')
      .replace(/ł/g, 'l')
      .replace(/ø/g, 'o')
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '');
  return `${ascii(first)}.${ascii(last)}`;
}

interface SeedUser {
  username: string;
  first: string;
  last: string;
  alias: string | null;
  role: number;
  level: 'reseller' | 'customer';
  extension: string;
  email: string;
  company: string;
  org: 'acme' | 'northwind';
}

function demoUsers(): SeedUser[] {
  const acme = [...ACME_CORE, ...ACME_STAFF].map((p: DemoPerson, i): SeedUser => {
    const username = p.username ?? asciiUsername(p.first, p.last);
    return {
      username,
      first: p.first,
      last: p.last,
      alias: p.alias ?? null,
      role: p.role ?? 3,
      level: 'customer',
      extension: String(1000 + i),
      email: `${username}@acme.example`,
      company: 'Acme Corp',
      org: 'acme',
    };
  });
  const rita: SeedUser = {
    username: NORTHWIND_ADMIN.username!,
    first: NORTHWIND_ADMIN.first,
    last: NORTHWIND_ADMIN.last,
    alias: null,
    role: NORTHWIND_ADMIN.role!,
    level: 'reseller',
    extension: '2000',
    email: 'rita@northwind.example',
    company: 'Northwind Partners',
    org: 'northwind',
  };
  return [...acme, rita];
}

interface Party {
  phone: string;
  cnam: string | null;
  /** What the network delivers as caller ID when this party calls in. */
  callerId: string | null;
}

/** 555-01XX numbers are reserved for fiction, so no real subscriber is in the demo. */
function fictionalNumber(rng: Rng): { phone: string; place: string } {
  const [npa, place] = pick(rng, AREA_CODES);
  return { phone: `+1${npa}55501${String(Math.floor(rng() * 100)).padStart(2, '0')}`, place };
}

const cnamStyle = (s: string) => s.toUpperCase().slice(0, 15);

/** The organisation's regular outside contacts; several colleagues deal with the same customers. */
function externalDirectory(rng: Rng, size: number): Party[] {
  const parties: Party[] = [];
  const used = new Set<string>();
  while (parties.length < size) {
    const { phone } = fictionalNumber(rng);
    if (used.has(phone)) continue;
    used.add(phone);
    if (chance(rng, 0.35)) {
      const name = pick(rng, EXTERNAL_BUSINESSES);
      parties.push({ phone, cnam: name, callerId: cnamStyle(name) });
    } else {
      const first = pick(rng, EXTERNAL_PEOPLE_FIRST);
      const last = pick(rng, EXTERNAL_PEOPLE_LAST);
      const known = chance(rng, 0.8);
      parties.push({ phone, cnam: known ? `${first} ${last}` : null, callerId: chance(rng, 0.85) ? cnamStyle(`${last} ${first}`) : null });
    }
  }
  return parties;
}

/** A one-off caller: only what the carrier knows (a place, "WIRELESS CALLER", or nothing). */
function strangerParty(rng: Rng): Party {
  const { phone, place } = fictionalNumber(rng);
  const r = rng();
  if (r < 0.4) return { phone, cnam: null, callerId: null };
  if (r < 0.7) return { phone, cnam: place, callerId: place };
  return { phone, cnam: null, callerId: 'WIRELESS CALLER' };
}

export interface HistoryRow {
  callTime: Date;
  direction: 'inbound' | 'outbound';
  disposition: 'ANSWERED' | 'UNANSWERED';
  source: string;
  dest: string;
  duration: number;
  isPrimary: boolean;
  callerId: string | null;
  cnam: string | null;
}

/** Calls cluster in US Eastern office hours on weekdays, with a trickle outside them. */
function callTimeBetween(rng: Rng, now: number, minDaysAgo: number, maxDaysAgo: number): Date {
  let t = now;
  for (let attempt = 0; attempt < 20; attempt++) {
    t = now - (minDaysAgo + rng() * (maxDaysAgo - minDaysAgo)) * DAY_MS;
    const eastern = new Date(t - 5 * 3_600_000);
    const hour = eastern.getUTCHours();
    const weekday = eastern.getUTCDay() % 6 !== 0;
    if ((weekday && hour >= 8 && hour < 19) || chance(rng, 0.1)) break;
  }
  return new Date(Math.floor(t / 1000) * 1000);
}

function talkSeconds(rng: Rng, internal: boolean): number {
  const mean = internal ? 150 : 260;
  return Math.min(2 * 3600, Math.round((internal ? 15 : 25) - Math.log(1 - rng()) * mean));
}

function historyFor(user: SeedUser, colleagues: SeedUser[], directory: Party[], now: number): HistoryRow[] {
  const rng = prng(seedFor(user.username));
  // Each person has their own regulars among the organisation's contacts, called again and again.
  const regulars = Array.from({ length: 24 }, () => pick(rng, directory));
  const buddies = colleagues.length ? Array.from({ length: 8 }, () => pick(rng, colleagues)) : [];
  const lastWeek = 48 + Math.floor(rng() * 25);
  const total = 470 + Math.floor(rng() * 61);
  const rows: HistoryRow[] = [];
  for (let i = 0; i < total; i++) {
    const callTime = i < lastWeek ? callTimeBetween(rng, now, 0, 7) : callTimeBetween(rng, now, 7, HISTORY_DAYS);
    let party: Party;
    let internal = false;
    const r = rng();
    if (buddies.length && r < 0.4) {
      const c = chance(rng, 0.7) ? pick(rng, buddies) : pick(rng, colleagues);
      const name = `${c.first} ${c.last}`;
      party = { phone: c.extension, cnam: name, callerId: name };
      internal = true;
    } else if (r < 0.85) {
      // Zipf-like: the first regulars come up far more often than the last.
      party = regulars[Math.floor(regulars.length * rng() * rng())]!;
    } else {
      party = strangerParty(rng);
    }
    const inbound = chance(rng, 0.55);
    const answered = inbound ? chance(rng, 0.78) : chance(rng, 0.88);
    rows.push({
      callTime,
      direction: inbound ? 'inbound' : 'outbound',
      disposition: answered ? 'ANSWERED' : 'UNANSWERED',
      source: inbound ? party.phone : user.extension,
      dest: inbound ? user.extension : party.phone,
      duration: answered ? talkSeconds(rng, internal) : 0,
      isPrimary: chance(rng, 0.92),
      callerId: inbound ? party.callerId : null,
      cnam: party.cnam,
    });
  }
  // Oldest first, so ids grow with time as they would in a live system.
  return rows.sort((a, b) => a.callTime.getTime() - b.callTime.getTime());
}

export interface SeedOptions {
  /** Call times are relative to this instant (default: now), so the demo always has a fresh past week. */
  now?: Date;
}

export interface SeedResult {
  seeded: boolean;
  users: number;
  historyRows: number;
}

/**
 * The demo organisations, users and call history. Does nothing when any user exists. Given the same
 * `now`, every run produces the same data.
 */
/** The demo user who has never signed in: the tutorial runs at her first sign-in. */
export const FIRST_TIME_USER = 'marta.kowalczyk';

export async function seedDemo(db: Db, options: SeedOptions = {}): Promise<SeedResult> {
  const existing = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  if ((existing.rows[0]?.n ?? 0) > 0) return { seeded: false, users: 0, historyRows: 0 };

  const now = (options.now ?? new Date()).getTime();
  const users = demoUsers();
  // Hashing runs on libuv's thread pool, in parallel with history generation and the inserts below.
  const hashes = Promise.all(users.map(() => hashPassword(DEMO_PASSWORD)));
  hashes.catch(() => {}); // awaited below; this only keeps an early rejection from being "unhandled"
  // espeak-ng speaks the demo's voicemail and recordings meanwhile; a missing espeak-ng fails the seed.
  const clips = demoClips();
  clips.catch(() => {}); // awaited in seedDemoMedia
  const directory = externalDirectory(prng(SEED), 150);
  const histories = new Map(
    users.map((u) => [u.username, historyFor(u, users.filter((c) => c.org === u.org && c !== u), directory, now)] as const),
  );

  return db.transaction(async (tx) => {
    // Two servers starting on an empty database together: the second waits, then finds the users.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK_KEY]);
    const again = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
    if ((again.rows[0]?.n ?? 0) > 0) return { seeded: false, users: 0, historyRows: 0 };

    const northwind = await tx.query<{ id: number }>(
      `INSERT INTO organizations (name, level) VALUES ('Northwind Partners', 'reseller') RETURNING id`,
    );
    const acme = await tx.query<{ id: number }>(
      `INSERT INTO organizations (name, level, reseller_id) VALUES ('Acme Corp', 'customer', $1) RETURNING id`,
      [northwind.rows[0]!.id],
    );
    const orgId = { acme: acme.rows[0]!.id, northwind: northwind.rows[0]!.id };

    // '!' is no valid hash (nothing verifies against it) and is replaced before this transaction
    // commits; it lets the history go in while the hashes are still being computed.
    const idOf = await insertUsers(
      tx,
      users.map((u) => ({
        organizationId: orgId[u.org], username: u.username, passwordHash: '!', first: u.first, last: u.last, email: u.email,
        extension: u.extension, roleId: u.role, level: u.level, company: u.company, alias: u.alias, enabled: true,
      })),
    );

    const historyRows: unknown[][] = [];
    for (const u of users) {
      const userId = idOf.get(u.username)!;
      for (const h of histories.get(u.username)!) {
        historyRows.push([userId, h.callTime.toISOString(), h.direction, h.disposition, h.source, h.dest, h.duration, h.isPrimary, h.callerId, h.cnam]);
      }
    }
    await insertColumns(
      tx,
      'call_history',
      [
        ['user_id', 'int'], ['call_time', 'timestamptz'], ['direction', 'text'], ['disposition', 'text'], ['source_phone', 'text'],
        ['dest_phone', 'text'], ['duration', 'int'], ['is_primary', 'boolean'], ['caller_id', 'text'], ['cnam', 'text'],
      ],
      historyRows,
    );

    const passwordHashes = await hashes;
    await tx.query(
      `UPDATE users SET password_hash = v.hash FROM unnest($1::text[], $2::text[]) AS v(username, hash) WHERE users.username = v.username`,
      [users.map((u) => u.username), passwordHashes],
    );
    const unset = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE password_hash = '!'`);
    if (unset.rows[0]?.n) throw new Error('seed: some demo users got no password hash');
    await seedDemoContacts(tx);
    await seedDemoRooms(tx);
    await seedDemoTexts(tx);
    await seedDemoE911(tx);
    await seedDemoMeetings(tx, now);
    await seedDemoFrame(tx);
    await clips;
    const core = new Set([...ACME_CORE.map((p) => p.username!), NORTHWIND_ADMIN.username!]);
    const mediaUsers = users.filter((u) => core.has(u.username)).map((u) => ({ id: idOf.get(u.username)!, extension: u.extension, username: u.username }));
    const callers = users.filter((u) => u.org === 'acme').slice(0, 12).map((u) => ({ number: u.extension, name: `${u.first} ${u.last}` }));
    await seedDemoMedia(tx, mediaUsers, callers, now);
    // Carol's mailbox runs on the first voicemail generation (the voicemail2 feature off), so both can be tried.
    await tx.query(`UPDATE users SET voicemail_generation = 1 WHERE username = 'carol'`);
    // The resellers' companies, the second reseller (who has not been through the wizard), rita's finished wizard.
    await seedDemoResellers(tx, { northwind: orgId.northwind, acme: orgId.acme });
    // Like a desk phone system: calls a user cannot take go to their voicemail (everyone seeded so far).
    await giveDefaultVoicemailForward(tx);
    // One extension group, so that a rule can ring a group (GET /v1/broad/destinations lists it).
    await tx.query(
      `WITH g AS (INSERT INTO extension_groups (organization_id, name) SELECT organization_id, 'Sales team' FROM users WHERE username = 'olivia' RETURNING id, organization_id)
       INSERT INTO extension_group_members (group_id, user_id)
       SELECT g.id, u.id FROM g JOIN users u ON u.organization_id = g.organization_id WHERE u.username = ANY($1::text[])`,
      [['alice', 'bob', 'carol']],
    );
    // Speed dials: the organisation's shared ones (the owner's) and a few of alice's and bob's own.
    await tx.query(
      `INSERT INTO speed_dials (organization_id, user_id, visibility, position, shortcut, dial_string, label)
       SELECT u.organization_id, u.id, d.visibility, d.position, d.shortcut, d.dial_string, d.label
         FROM (VALUES ('olivia', 'shared', 0, 10, '4155550100', 'Conference line'),
                      ('olivia', 'shared', 1, 11, '1003', 'IT helpdesk (Carol)'),
                      ('alice', 'personal', 0, 1, '1002', 'Bob Martinez'),
                      ('alice', 'personal', 1, 2, '1001*', 'My voicemail'),
                      ('bob', 'personal', 0, 12, '1001', 'Alice Nguyen'))
              AS d (username, visibility, position, shortcut, dial_string, label)
         JOIN users u ON u.username = d.username`,
    );
    // Everyone seeded has taken the tour of the frame but Marta, who signs in for the first time
    // (the tutorial starts by itself for her, and for every user the wizard imports).
    await tx.query(
      `INSERT INTO user_preferences (user_id, key, value) SELECT id, 'uc-tutorial-completed', 'true'::jsonb FROM users WHERE username <> $1`,
      [FIRST_TIME_USER],
    );
    return { seeded: true, users: users.length, historyRows: historyRows.length };
  });
}

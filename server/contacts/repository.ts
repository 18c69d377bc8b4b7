import {
  contactName,
  digitsOnly,
  type AddressWire,
  type ContactGroup,
  type ContactIndexRow,
  type ContactInput,
  type ContactPageWire,
  type ContactWire,
  type EmailWire,
  type PhoneNumberWire,
} from '../../src/wire/contacts';
import { formatPhone } from '../../src/wire/phone';
import { ROLE } from '../../src/wire/profile';
import type { Queryable } from '../db/types';


/** The caller: contacts are always read within their own organisation and their own personal book. */
export interface Viewer {
  userId: number;
  organizationId: number;
}

export const ROLE_NAMES: Record<number, string> = { 1: 'Account owner', 2: 'Administrator', 3: 'Standard user', 4: 'Limited access' };
const LIMITED_ACCESS = ROLE.LIMITED_ACCESS;

const withFormatted = (phones: PhoneNumberWire[]): PhoneNumberWire[] =>
  phones.map((p) => ({ ...p, formatted_phone_number: p.number ? formatPhone(p.number) : (p.extension ?? null) }));

/** Fields every contact carries that this server does not track (presence comes from XMPP, not from here). */
const UNTRACKED = { status: null, state: null, is_dummy_contact: false, messaging_did: null, messaging_did_label: null } as const;

/** Display name, sort key and search keys of a personal contact, written with the row. */
export function derivedColumns(c: ContactInput): { display_name: string; sort_name: string; search_text: string; search_digits: string } {
  const display = contactName(c, formatPhone, '');
  const text = [c.first_name, c.last_name, c.company, c.title, ...c.emails.map((e) => e.email)]
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)
    .join('\n');
  const digits = c.phone_numbers.map((p) => digitsOnly(`${p.number ?? ''}`) || digitsOnly(p.extension ?? '')).filter(Boolean).join('\n');
  // Nameless contacts sort last ('~' is above every letter in the C collation and most others).
  return { display_name: display, sort_name: display ? display.toLowerCase() : '~', search_text: text, search_digits: digits };
}

interface ContactRow {
  kind: 'p' | 'u';
  num_id: number;
  source: string;
  first_name: string;
  last_name: string;
  company: string;
  title: string;
  notes: string;
  time_zone: string | null;
  favorite: boolean;
  birthday_day: number | null;
  birthday_month: number | null;
  birthday_year: number | null;
  phone_numbers: unknown;
  emails: unknown;
  addresses: unknown;
  instant_messengers: unknown;
  display_name: string;
  avatar_id: number | null;
  role_id: number | null;
  extension: string | null;
  email: string | null;
  alias: string | null;
  in_meeting: boolean;
}

const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

export function avatarHref(id: number | null): string | null {
  return id === null ? null : `/v1/avatars/${id}`;
}

/** A user's personal numbers, e-mail list and address as the users half of a listing carries them (see USER_SELECT). */
interface UserPhoneJson {
  id: number;
  number: string | null;
  extension: string | null;
  type: PhoneNumberWire['type'];
  custom_type: string | null;
  is_primary: boolean;
}
interface UserEmailJson {
  id: number;
  email: string;
  custom_type: string;
}
type UserAddressJson = Omit<AddressWire, 'type' | 'source'> & { address_id: number };

/** The company contact's numbers: the extension (primary unless a personal number is), then the user's own numbers. */
function userPhones(extension: string | null, personal: readonly UserPhoneJson[]): PhoneNumberWire[] {
  const personalPrimary = personal.some((p) => p.is_primary);
  const ext: PhoneNumberWire[] = extension
    ? [{ number: extension, extension, type: 'work', custom_type: null, source: 'extension', source_id: null, is_default: !personalPrimary, is_primary: !personalPrimary, caller_id: false, formatted_phone_number: extension }]
    : [];
  return [
    ...ext,
    ...withFormatted(personal.map((p) => ({ number: p.number, extension: p.extension, type: p.type, custom_type: p.custom_type, source: 'personal' as const, source_id: p.id, is_default: p.is_primary, is_primary: p.is_primary, caller_id: false }))),
  ];
}

function toWire(r: ContactRow, viewer: Viewer): ContactWire {
  if (r.kind === 'u') {
    const phones = userPhones(r.extension, json<UserPhoneJson[]>(r.phone_numbers));
    // The profile's primary e-mail first (the default), then its e-mail list.
    const emails: EmailWire[] = [
      ...(r.email ? [{ id: null, email: r.email, type: 'work', custom_type: null, is_default: true, source: 'User' as const }] : []),
      ...json<UserEmailJson[]>(r.emails).map((e) => ({ id: e.id, email: e.email, type: 'custom', custom_type: e.custom_type, is_default: false, source: 'User' as const })),
    ];
    const addresses: AddressWire[] = json<UserAddressJson[]>(r.addresses).map((a) => ({ ...a, type: 'work', source: 'User' }));
    return {
      ...UNTRACKED,
      id: `u${r.num_id}`,
      user_id: r.num_id,
      source_id: String(r.num_id),
      role_id: r.role_id,
      role_name: r.role_id ? (ROLE_NAMES[r.role_id] ?? null) : null,
      source: 'User',
      // Users always have names in practice; the fallback chain covers one without.
      name: r.display_name || contactName({ first_name: r.first_name, last_name: r.last_name, company: r.company, emails, phone_numbers: phones }, formatPhone, ''),
      first_name: r.first_name,
      last_name: r.last_name,
      company: r.company,
      title: r.title,
      notes: '',
      time_zone: null,
      avatar_id: r.avatar_id,
      avatar_href: avatarHref(r.avatar_id),
      video_id: String(r.num_id),
      favorite: r.favorite,
      readonly: true,
      hidden: false,
      is_current_user: r.num_id === viewer.userId,
      in_meeting: r.in_meeting,
      emails,
      addresses,
      instant_messengers: [],
      birthday: null,
      phone_numbers: phones,
    };
  }
  return {
    ...UNTRACKED,
    id: `p${r.num_id}`,
    user_id: null,
    source_id: String(r.num_id),
    role_id: null,
    role_name: null,
    source: r.source as ContactWire['source'],
    name: r.display_name,
    first_name: r.first_name,
    last_name: r.last_name,
    company: r.company,
    title: r.title,
    notes: r.notes,
    time_zone: r.time_zone,
    avatar_id: r.avatar_id,
    avatar_href: avatarHref(r.avatar_id),
    video_id: null,
    favorite: r.favorite,
    readonly: r.source !== 'personal',
    hidden: false,
    is_current_user: false,
    in_meeting: false,
    emails: json(r.emails),
    addresses: json(r.addresses),
    instant_messengers: json(r.instant_messengers),
    birthday: r.birthday_day && r.birthday_month && r.birthday_year ? { day: r.birthday_day, month: r.birthday_month, year: r.birthday_year } : null,
    phone_numbers: withFormatted(json(r.phone_numbers)),
  };
}

/** A colleague in a meeting now: holding a live place in a lobby (server/meetings/presence-repository.ts). */
const IN_MEETING = `EXISTS (SELECT 1 FROM meeting_presence mp WHERE mp.user_id = u.id AND mp.expires_at > now())`;

/*
 * Both halves of every list have the same columns so they can be UNION ALL-ed and sorted together.
 * $1 = viewer id, $2 = organisation id, $3 = lower-case term (or ''), $4 = digits of the term (or '').
 */
const USER_SELECT = `
  SELECT 'u'::text AS kind, u.id AS num_id, 'User'::text AS source, u.first_name, u.last_name, u.company, ''::text AS title,
         ''::text AS notes, NULL::text AS time_zone, (f.user_id IS NOT NULL) AS favorite,
         NULL::smallint AS birthday_day, NULL::smallint AS birthday_month, NULL::smallint AS birthday_year,
         coalesce((SELECT jsonb_agg(jsonb_build_object('id', p.id, 'number', p.number, 'extension', p.extension, 'type', p.type,
                                    'custom_type', p.custom_type, 'is_primary', p.is_primary) ORDER BY p.position, p.id)
                     FROM user_phone_numbers p WHERE p.user_id = u.id), '[]'::jsonb) AS phone_numbers,
         coalesce((SELECT jsonb_agg(jsonb_build_object('id', e.id, 'email', e.email, 'custom_type', e.custom_type) ORDER BY e.position, e.id)
                     FROM user_email_addresses e WHERE e.user_id = u.id), '[]'::jsonb) AS emails,
         -- The profile address, once anything but its default country is filled in.
         coalesce((SELECT jsonb_agg(jsonb_build_object('address_id', ad.id, 'street_1', ad.street_1, 'street_2', ad.street_2,
                                    'apt_number', ad.apt_number, 'city', ad.city, 'state', ad.state, 'zip_code', ad.zip_code,
                                    'zip_plus_four', ad.zip_plus_four, 'country', ad.country, 'county', ad.county))
                     FROM user_addresses ad WHERE ad.user_id = u.id
                      AND (ad.street_1 || ad.street_2 || ad.apt_number || ad.city || ad.state || ad.zip_code || ad.zip_plus_four || ad.county) <> ''),
                  '[]'::jsonb) AS addresses,
         '[]'::jsonb AS instant_messengers,
         trim(u.first_name || ' ' || u.last_name) AS display_name, lower(trim(u.first_name || ' ' || u.last_name)) AS sort_name,
         a.id AS avatar_id, u.role_id::int AS role_id, u.extension, u.email, u.alias, ${IN_MEETING} AS in_meeting
    FROM users u
    LEFT JOIN contact_user_favorites f ON f.owner_id = $1 AND f.user_id = u.id
    LEFT JOIN avatars a ON a.user_id = u.id
   WHERE u.organization_id = $2 AND u.role_id <> ${LIMITED_ACCESS}`;
const USER_SEARCH = `($3 = '' OR strpos(lower(u.first_name || ' ' || u.last_name || ' ' || u.email || ' ' || coalesce(u.alias, '')), $3) > 0
    OR ($4 <> '' AND (strpos(coalesce(u.extension, ''), $4) > 0
      OR EXISTS (SELECT 1 FROM user_phone_numbers p WHERE p.user_id = u.id AND strpos(p.search_digits, $4) > 0))))`;
/** A user with the extension or any number of their own. */
const USER_HAS_PHONE = `(u.extension IS NOT NULL OR EXISTS (SELECT 1 FROM user_phone_numbers p WHERE p.user_id = u.id))`;

const CONTACT_SELECT = `
  SELECT 'p'::text AS kind, c.id AS num_id, c.source, c.first_name, c.last_name, c.company, c.title,
         c.notes, c.time_zone, c.favorite, c.birthday_day, c.birthday_month, c.birthday_year,
         c.phone_numbers, c.emails, c.addresses, c.instant_messengers,
         c.display_name, c.sort_name,
         a.id AS avatar_id, NULL::int AS role_id, NULL::text AS extension, NULL::text AS email, NULL::text AS alias, false AS in_meeting
    FROM contacts c
    LEFT JOIN avatars a ON a.contact_id = c.id
   WHERE c.owner_id = $1`;
// LIKE '%…%' (escaped) so the trigram index serves terms of three characters or more.
const CONTACT_SEARCH = `($3 = '' OR c.search_text LIKE $5 OR ($4 <> '' AND c.search_digits LIKE $6))`;

/** The dial strings of the speed dials the viewer ($1, in organisation $2) can dial: their own and the shared ones. */
const DIALLABLE = `SELECT d.dial_string FROM speed_dials d WHERE d.organization_id = $2 AND (d.user_id = $1 OR d.visibility = 'shared')`;

export interface IntegrationFlags {
  google: boolean;
  microsoft: boolean;
}

function groupParts(group: ContactGroup, integrations: IntegrationFlags): { users: string | null; contacts: string | null } {
  switch (group) {
    case 'user':
    case 'company':
      return { users: 'true', contacts: null };
    case 'personal':
      return { users: null, contacts: `c.source = 'personal'` };
    case 'google':
      return { users: null, contacts: integrations.google ? `c.source = 'google'` : null };
    case 'favorites':
      return { users: 'f.user_id IS NOT NULL', contacts: 'c.favorite' };
    case 'phones':
      return { users: USER_HAS_PHONE, contacts: `c.search_digits <> ''` };
    case 'all': {
      const sources = ["'personal'", ...(integrations.google ? ["'google'"] : []), ...(integrations.microsoft ? ["'microsoft'"] : [])];
      return { users: 'true', contacts: `c.source IN (${sources.join(', ')})` };
    }
    // Colleagues and contacts a speed dial the viewer can dial calls (its number is theirs, exactly).
    case 'speeddial':
      return {
        users: `(u.extension IN (${DIALLABLE}) OR EXISTS (SELECT 1 FROM user_phone_numbers p WHERE p.user_id = u.id AND p.search_digits IN (${DIALLABLE})))`,
        contacts: `EXISTS (${DIALLABLE} AND position(E'\\n' || d.dial_string || E'\\n' IN E'\\n' || c.search_digits || E'\\n') > 0)`,
      };
    // Colleagues in a meeting's lobby now; personal contacts are never seen in one.
    case 'meeting':
      return { users: IN_MEETING, contacts: null };
  }
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (ch) => `\\${ch}`);

export interface ListOptions {
  group: ContactGroup;
  search?: string | undefined;
  offset: number;
  limit: number;
  integrations: IntegrationFlags;
}

function listSql(opts: ListOptions): { sql: string; params: (v: Viewer) => unknown[] } | null {
  const parts = groupParts(opts.group, opts.integrations);
  const halves: string[] = [];
  if (parts.users) halves.push(`${USER_SELECT} AND ${parts.users} AND ${USER_SEARCH}`);
  if (parts.contacts) halves.push(`${CONTACT_SELECT} AND ${parts.contacts} AND ${CONTACT_SEARCH}`);
  if (!halves.length) return null;
  const term = (opts.search ?? '').trim().toLowerCase();
  const digits = /\d/.test(term) && /^[\d\s()+.-]+$/.test(term) ? digitsOnly(term) : '';
  return {
    // The CTE types every parameter: a half left out would leave some of them unused (and untyped).
    sql: `WITH _params AS (SELECT $1::int, $2::int, $3::text, $4::text, $5::text, $6::text)\n${halves.join('\n UNION ALL \n')}`,
    params: (v) => [v.userId, v.organizationId, term, digits, `%${likeEscape(term)}%`, `%${likeEscape(digits)}%`],
  };
}

export async function listContacts(db: Queryable, viewer: Viewer, opts: ListOptions): Promise<ContactPageWire> {
  const q = listSql(opts);
  if (!q) return { items: [], total: 0, offset: opts.offset, limit: opts.limit };
  const params = q.params(viewer);
  const [page, count] = await Promise.all([
    db.query<ContactRow>(`SELECT * FROM (${q.sql}) x ORDER BY sort_name, kind, num_id LIMIT $7 OFFSET $8`, [...params, opts.limit, opts.offset]),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${q.sql}) x`, params),
  ]);
  return { items: page.rows.map((r) => toWire(r, viewer)), total: count.rows[0]?.n ?? 0, offset: opts.offset, limit: opts.limit };
}

/** Every contact of the viewer as compact tuples (palette, caller names). */
export async function contactIndex(db: Queryable, viewer: Viewer, integrations: IntegrationFlags): Promise<ContactIndexRow[]> {
  const sources = ["'personal'", ...(integrations.google ? ["'google'"] : []), ...(integrations.microsoft ? ["'microsoft'"] : [])];
  const { rows } = await db.query<{ id: string; name: string; numbers: string | null; email: string | null; company: string; favorite: boolean; source: string }>(
    // A user's numbers: the extension, then their own numbers (without spaces: the row separates numbers by spaces).
    `SELECT 'u' || u.id AS id, trim(u.first_name || ' ' || u.last_name) AS name,
            nullif(concat_ws(' ', u.extension, (SELECT string_agg(regexp_replace(coalesce(nullif(p.number, ''), p.extension), '\\s', '', 'g'), ' ' ORDER BY p.position, p.id)
                                                  FROM user_phone_numbers p WHERE p.user_id = u.id)), '') AS numbers,
            u.email, u.company,
            (f.user_id IS NOT NULL) AS favorite, 'User' AS source, lower(trim(u.first_name || ' ' || u.last_name)) AS sort_name
       FROM users u LEFT JOIN contact_user_favorites f ON f.owner_id = $1 AND f.user_id = u.id
      WHERE u.organization_id = $2 AND u.role_id <> ${LIMITED_ACCESS}
     UNION ALL
     SELECT 'p' || c.id, c.display_name,
            (SELECT string_agg(coalesce(nullif(p->>'number', ''), p->>'extension'), ' ') FROM jsonb_array_elements(c.phone_numbers) p),
            c.emails->0->>'email', c.company, c.favorite, c.source, c.sort_name
       FROM contacts c WHERE c.owner_id = $1 AND c.source IN (${sources.join(', ')})
     ORDER BY sort_name, id`,
    [viewer.userId, viewer.organizationId],
  );
  return rows.map((r) => [r.id, r.name, r.numbers ?? '', r.email ?? '', r.company, r.favorite ? 1 : 0, r.source as ContactIndexRow[6]]);
}

export type ContactRef = { kind: 'u'; id: number } | { kind: 'p'; id: number };

export function parseContactId(raw: string): ContactRef | null {
  const m = /^([up])([1-9]\d{0,9})$/.exec(raw);
  if (!m) return null;
  const id = Number(m[2]);
  if (id > 2 ** 31 - 1) return null;
  return { kind: m[1] as 'u' | 'p', id };
}

export async function getContact(db: Queryable, viewer: Viewer, ref: ContactRef): Promise<ContactWire | null> {
  const typed = 'WITH _params AS (SELECT $1::int, $2::int, $3::int)';
  const sql = ref.kind === 'u' ? `${typed} ${USER_SELECT} AND u.id = $3` : `${typed} ${CONTACT_SELECT} AND c.id = $3`;
  const { rows } = await db.query<ContactRow>(sql, [viewer.userId, viewer.organizationId, ref.id]);
  return rows[0] ? toWire(rows[0], viewer) : null;
}

/** Gives new e-mails, addresses and messengers ids (ids ≤ 0 or null are new), unique within the contact. */
function assignIds(input: ContactInput): ContactInput {
  let next = 1 + Math.max(0, ...input.emails.map((e) => e.id ?? 0), ...input.addresses.map((a) => a.address_id ?? 0), ...input.instant_messengers.map((m) => m.id ?? 0), ...input.phone_numbers.map((p) => p.source_id ?? 0));
  const fresh = (id: number | null) => (id !== null && id > 0 ? id : next++);
  return {
    ...input,
    emails: input.emails.map((e) => ({ ...e, id: fresh(e.id), source: 'personal' })),
    addresses: input.addresses.map((a) => ({ ...a, address_id: fresh(a.address_id), source: 'personal' })),
    instant_messengers: input.instant_messengers.map((m) => ({ ...m, id: fresh(m.id) })),
    // The display form is derived on every read, never stored.
    phone_numbers: input.phone_numbers.map(({ formatted_phone_number: _shown, ...p }) => ({ ...p, source_id: fresh(p.source_id), source: 'personal' })),
  };
}

function rowValues(input: ContactInput): unknown[] {
  const d = derivedColumns(input);
  return [
    input.first_name.trim(), input.last_name.trim(), input.company.trim(), input.title.trim(), input.notes, input.time_zone,
    input.birthday?.day ?? null, input.birthday?.month ?? null, input.birthday?.year ?? null,
    JSON.stringify(input.phone_numbers), JSON.stringify(input.emails), JSON.stringify(input.addresses), JSON.stringify(input.instant_messengers),
    d.display_name, d.sort_name, d.search_text, d.search_digits,
  ];
}

const COLUMNS = `first_name, last_name, company, title, notes, time_zone, birthday_day, birthday_month, birthday_year,
  phone_numbers, emails, addresses, instant_messengers, display_name, sort_name, search_text, search_digits`;

export async function createContact(db: Queryable, viewer: Viewer, raw: ContactInput): Promise<number> {
  const input = assignIds(raw);
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO contacts (owner_id, favorite, ${COLUMNS})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13::jsonb, $14::jsonb, $15::jsonb, $16, $17, $18, $19) RETURNING id`,
    [viewer.userId, input.favorite ?? false, ...rowValues(input)],
  );
  return rows[0]!.id;
}

/** Only the owner's personal contacts change; anything else reads as "not yours" (false). */
export async function updateContact(db: Queryable, viewer: Viewer, id: number, raw: ContactInput): Promise<boolean> {
  const input = assignIds(raw);
  const { rows } = await db.query<{ id: number }>(
    `UPDATE contacts SET (${COLUMNS}) = ($3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13::jsonb, $14::jsonb, $15::jsonb, $16, $17, $18, $19),
            favorite = coalesce($20, favorite), updated_at = now()
      WHERE id = $1 AND owner_id = $2 AND source = 'personal' RETURNING id`,
    [id, viewer.userId, ...rowValues(input), input.favorite ?? null],
  );
  return rows.length > 0;
}

export async function deleteContact(db: Queryable, viewer: Viewer, id: number): Promise<boolean> {
  const { rows } = await db.query<{ id: number }>(`DELETE FROM contacts WHERE id = $1 AND owner_id = $2 AND source = 'personal' RETURNING id`, [id, viewer.userId]);
  return rows.length > 0;
}

export async function setFavorite(db: Queryable, viewer: Viewer, ref: ContactRef, favorite: boolean): Promise<boolean> {
  if (ref.kind === 'p') {
    const { rows } = await db.query(`UPDATE contacts SET favorite = $3 WHERE id = $1 AND owner_id = $2 RETURNING id`, [ref.id, viewer.userId, favorite]);
    return rows.length > 0;
  }
  const { rows } = await db.query(`SELECT 1 FROM users WHERE id = $1 AND organization_id = $2 AND role_id <> ${LIMITED_ACCESS}`, [ref.id, viewer.organizationId]);
  if (!rows.length) return false;
  await db.query(
    favorite
      ? `INSERT INTO contact_user_favorites (owner_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`
      : `DELETE FROM contact_user_favorites WHERE owner_id = $1 AND user_id = $2`,
    [viewer.userId, ref.id],
  );
  return true;
}

/**
 * Personal contacts for the demo (about 300 per user) and a generator for benchmarks:
 *
 *   npx tsx server/seed-contacts.ts --user alice --count 50000   # DATABASE_URL / UC_RUNTIME_DIR as for the server
 *
 * With the embedded database, stop the server first (one process at a time opens its folder).
 */
import { fileURLToPath } from 'node:url';
import type { ContactInput, PhoneNumberWire } from '../src/wire/contacts';
import { derivedColumns } from './contacts/repository';
import type { Queryable } from './db/types';
import { AREA_CODES, EXTERNAL_BUSINESSES, EXTERNAL_PEOPLE_FIRST, EXTERNAL_PEOPLE_LAST } from './seed-data';
import { prng } from './prng';

type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
const TITLES = ['Account manager', 'Owner', 'Office manager', 'Sales', 'Support', 'Purchasing', 'CFO', 'Dispatcher', ''];
const STREETS = ['Main St', 'Oak Ave', 'Pine Rd', 'Maple Dr', 'Cedar Ln', 'Elm St', 'Lake View Blvd', 'Harbor Way'];
const CITIES: Array<[string, string, string]> = [['New York', 'NY', '10001'], ['San Francisco', 'CA', '94103'], ['Chicago', 'IL', '60601'], ['Boston', 'MA', '02108'], ['Seattle', 'WA', '98101'], ['Austin', 'TX', '73301']];

/** 555-01XX numbers are reserved for fiction; the generator widens to 555-XXXX for large books. */
function number(rng: Rng, wide: boolean): string {
  const [npa] = pick(rng, AREA_CODES);
  const line = wide ? `${String(Math.floor(rng() * 10000)).padStart(4, '0')}` : `01${String(Math.floor(rng() * 100)).padStart(2, '0')}`;
  return `+1${npa}555${line}`;
}

export function fakeContact(rng: Rng, i: number, wide = false): ContactInput {
  const business = rng() < 0.2;
  const first = business ? '' : pick(rng, EXTERNAL_PEOPLE_FIRST);
  const last = business ? '' : pick(rng, EXTERNAL_PEOPLE_LAST);
  const company = business || rng() < 0.6 ? pick(rng, EXTERNAL_BUSINESSES) : '';
  const phones: PhoneNumberWire[] = [];
  const nPhones = rng() < 0.1 ? 0 : rng() < 0.7 ? 1 : 2;
  for (let p = 0; p < nPhones; p++) {
    phones.push({ number: number(rng, wide), extension: null, type: p === 0 ? (business ? 'work' : 'mobile') : 'work', custom_type: null, source: 'personal', source_id: p + 1, is_default: p === 0, is_primary: p === 0, caller_id: false });
  }
  const domain = (company || 'example').toLowerCase().replace(/[^a-z]/g, '') + '.example';
  const emails = rng() < 0.7 || nPhones === 0
    ? [{ id: 10, email: `${(first || 'info').toLowerCase()}${last ? `.${last.toLowerCase()}` : ''}${wide ? i : ''}@${domain}`, type: 'work', custom_type: null, is_default: true, source: 'personal' as const }]
    : [];
  const [city, state, zip] = pick(rng, CITIES);
  const addresses = rng() < 0.3
    ? [{ address_id: 20, type: 'work', street_1: `${1 + Math.floor(rng() * 900)} ${pick(rng, STREETS)}`, street_2: '', apt_number: '', city, state, zip_code: zip, zip_plus_four: '', country: 'USA', county: '', source: 'personal' as const }]
    : [];
  const birthday = !business && rng() < 0.25 ? { day: 1 + Math.floor(rng() * 28), month: 1 + Math.floor(rng() * 12), year: 1950 + Math.floor(rng() * 50) } : null;
  return {
    first_name: first,
    last_name: last,
    company,
    title: business ? '' : pick(rng, TITLES),
    notes: '',
    time_zone: null,
    favorite: rng() < 0.05,
    birthday,
    phone_numbers: phones,
    emails,
    addresses,
    instant_messengers: [],
  };
}

const COLUMNS: Array<[string, string]> = [
  ['owner_id', 'int'], ['first_name', 'text'], ['last_name', 'text'], ['company', 'text'], ['title', 'text'], ['favorite', 'boolean'],
  ['birthday_day', 'smallint'], ['birthday_month', 'smallint'], ['birthday_year', 'smallint'],
  ['phone_numbers', 'jsonb'], ['emails', 'jsonb'], ['addresses', 'jsonb'],
  ['display_name', 'text'], ['sort_name', 'text'], ['search_text', 'text'], ['search_digits', 'text'],
];

/** Bulk insert through unnest() (one statement per 5,000 rows; see seed.ts). */
export async function insertContacts(db: Queryable, ownerId: number, contacts: ContactInput[], chunk = 5000): Promise<void> {
  for (let start = 0; start < contacts.length; start += chunk) {
    const rows = contacts.slice(start, start + chunk).map((c) => {
      const d = derivedColumns(c);
      return [ownerId, c.first_name, c.last_name, c.company, c.title, c.favorite ?? false, c.birthday?.day ?? null, c.birthday?.month ?? null, c.birthday?.year ?? null,
        JSON.stringify(c.phone_numbers), JSON.stringify(c.emails), JSON.stringify(c.addresses), d.display_name, d.sort_name, d.search_text, d.search_digits];
    });
    const arrays = COLUMNS.map((_, i) => rows.map((r) => r[i]));
    const unnest = COLUMNS.map(([, type], i) => `$${i + 1}::${type === 'jsonb' ? 'text' : type}[]`).join(', ');
    const select = COLUMNS.map(([name, type]) => (type === 'jsonb' ? `${name}::jsonb` : name)).join(', ');
    await db.query(
      `INSERT INTO contacts (${COLUMNS.map(([n]) => n).join(', ')}) SELECT ${select} FROM unnest(${unnest}) AS t(${COLUMNS.map(([n]) => n).join(', ')})`,
      arrays,
    );
  }
}

export const DEMO_CONTACTS_PER_USER = 300;

/** About 300 personal contacts for every demo user (deterministic per user id). */
export async function seedDemoContacts(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM users ORDER BY id');
  let total = 0;
  for (const { id } of rows) {
    const rng = prng(0xc0_47ac + id);
    const n = DEMO_CONTACTS_PER_USER - 20 + Math.floor(rng() * 41);
    await insertContacts(db, id, Array.from({ length: n }, (_, i) => fakeContact(rng, i)));
    total += n;
  }
  return total;
}

/** Adds `count` generated personal contacts to one user (benchmarks). */
export async function generateContacts(db: Queryable, userId: number, count: number, seed = 50_000): Promise<void> {
  const rng = prng(seed + userId);
  await insertContacts(db, userId, Array.from({ length: count }, (_, i) => fakeContact(rng, i, true)));
}

async function main(): Promise<void> {
  const arg = (name: string, fallback: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1]! : fallback;
  };
  const { openDb } = await import('./db/open');
  const { migrate } = await import('./db/migrate');
  const db = await openDb({ databaseUrl: process.env.DATABASE_URL, runtimeDir: process.env.UC_RUNTIME_DIR ?? 'runtime' });
  try {
    await migrate(db);
    // A fresh runtime folder gets the demo first (a seeded one is left as it is).
    const { seedDemo } = await import('./seed');
    await seedDemo(db);
    const username = arg('user', 'alice');
    const count = Number(arg('count', '50000'));
    const { rows } = await db.query<{ id: number }>('SELECT id FROM users WHERE lower(username) = lower($1)', [username]);
    if (!rows[0]) throw new Error(`no user ${username}`);
    const t0 = Date.now();
    await generateContacts(db, rows[0].id, count);
    console.log(`added ${count} contacts to ${username} in ${Date.now() - t0} ms`);
  } finally {
    await db.close();
  }
}

// Not a top-level await: seed.ts imports this module, and main() imports seed.ts.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}

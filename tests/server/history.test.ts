import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody, HistoryPageWire, SORT_DIRECTION_ERROR, type HistoryRecordWire } from '../../src/wire';
import { hashPassword } from '../../server/auth/passwords';
import { backends, bearer, SEED_NOW, startTestServer, type TestServer } from './helpers';

/** Hand-made records around day boundaries, for exact filter assertions. */
const FIXTURE = [
  { key: 'r1', call_time: '2026-03-10T03:30:00Z', direction: 'inbound', disposition: 'ANSWERED', source_phone: '+14155550142', dest_phone: '1099', duration: 125, is_primary: true, caller_id: 'QUUX ZED', cnam: 'Zed Quux' },
  { key: 'r2', call_time: '2026-03-10T23:59:59Z', direction: 'outbound', disposition: 'ANSWERED', source_phone: '1099', dest_phone: '+12125550199', duration: 60, is_primary: true, caller_id: null, cnam: null },
  { key: 'r3', call_time: '2026-03-11T00:00:00Z', direction: 'inbound', disposition: 'UNANSWERED', source_phone: '1001', dest_phone: '1099', duration: 0, is_primary: true, caller_id: 'Alice Nguyen', cnam: 'Alice Nguyen' },
  { key: 'r4', call_time: '2026-03-09T23:59:59Z', direction: 'inbound', disposition: 'ANSWERED', source_phone: '+13125550100', dest_phone: '1099', duration: 30, is_primary: true, caller_id: 'PERCENT CO', cnam: 'Percent 100% Co' },
  { key: 'r5', call_time: '2026-03-12T10:00:00Z', direction: 'outbound', disposition: 'UNANSWERED', source_phone: '1099', dest_phone: '+16175550123', duration: 0, is_primary: false, caller_id: null, cnam: 'Brightline Insurance' },
] as const;

describe.each(backends)('call history ($name)', (backend) => {
  let t: TestServer;
  let tess: { id: number; token: string };
  let alice: { id: number; token: string };
  const keyOf = new Map<number, string>();

  beforeAll(async () => {
    t = await startTestServer(backend);
    const org = await t.db.query<{ organization_id: number }>(`SELECT organization_id FROM users WHERE username = 'alice'`);
    const created = await t.db.query<{ id: number }>(
      `INSERT INTO users (organization_id, username, password_hash, first_name, last_name, email, extension, role_id, level, company)
       VALUES ($1, 'tess', $2, 'Tess', 'Fixture', 'tess@acme.example', '1099', 3, 'customer', 'Acme Corp') RETURNING id`,
      [org.rows[0]!.organization_id, await hashPassword('Demo-pass-1')],
    );
    const tessId = created.rows[0]!.id;
    for (const r of FIXTURE) {
      const { rows } = await t.db.query<{ id: number }>(
        `INSERT INTO call_history (user_id, call_time, direction, disposition, source_phone, dest_phone, duration, is_primary, caller_id, cnam)
         VALUES ($1, $2::timestamptz, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
        [tessId, r.call_time, r.direction, r.disposition, r.source_phone, r.dest_phone, r.duration, r.is_primary, r.caller_id, r.cnam],
      );
      keyOf.set(rows[0]!.id, r.key);
    }
    tess = { id: tessId, token: await t.login('tess') };
    alice = { id: await t.userId('alice'), token: await t.login('alice') };
  });
  afterAll(() => t?.close());

  type Query = Record<string, string | number | undefined>;
  const asStrings = (query: Query) =>
    Object.fromEntries(Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
  const v2 = (query: Query, who = tess) =>
    t.app.inject({ url: `/v2/users/${who.id}/call-history`, query: asStrings(query), headers: bearer(who.token) });
  const v1 = (query: Query, who = tess) =>
    t.app.inject({ url: `/v1/users/${who.id}/call-history/primary`, query: asStrings(query), headers: bearer(who.token) });
  const page = (res: { statusCode: number; body: string; json(): unknown }) => {
    expect(res.statusCode, res.body).toBe(200);
    return HistoryPageWire.parse(res.json());
  };
  const keys = (res: Parameters<typeof page>[0]) => page(res).items.map((i) => keyOf.get(i.id));
  const sortedKeys = (res: Parameters<typeof page>[0]) => keys(res).sort();

  describe('v2 filters on fixed records', () => {
    it('returns all of the user’s records newest first by default', async () => {
      const p = page(await v2({}));
      expect(p.total).toBe(5);
      expect(p.items.map((i) => keyOf.get(i.id))).toEqual(['r5', 'r3', 'r2', 'r1', 'r4']);
      expect(p.items[0]).toMatchObject({ call_time: '2026-03-12T10:00:00.000Z', direction: 'outbound', is_primary: false });
    });

    it('sort asc reverses; any letter case; anything else is 400 with the exact text', async () => {
      expect(keys(await v2({ sort: 'asc' }))).toEqual(['r4', 'r1', 'r2', 'r3', 'r5']);
      expect(keys(await v2({ sort: 'DESC' }))).toEqual(['r5', 'r3', 'r2', 'r1', 'r4']);
      for (const sort of ['up', 'ascending', '', 'asc;drop']) {
        const res = await v2({ sort });
        expect(res.statusCode).toBe(400);
        expect(ApiErrorBody.parse(res.json()).message).toBe(SORT_DIRECTION_ERROR);
        expect(res.json().message).toBe('Sort direction not supported');
      }
    });

    it('pages with offset and limit; total counts every match', async () => {
      const seen: string[] = [];
      for (const offset of [0, 2, 4]) {
        const p = page(await v2({ offset, limit: 2 }));
        expect(p).toMatchObject({ total: 5, offset, limit: 2 });
        seen.push(...p.items.map((i) => keyOf.get(i.id)!));
      }
      expect(seen).toEqual(['r5', 'r3', 'r2', 'r1', 'r4']);
      expect(page(await v2({ offset: 50 }))).toMatchObject({ items: [], total: 5 });
      for (const bad of [{ limit: 0 }, { limit: 501 }, { offset: -1 }, { limit: 'x' }]) {
        const res = await v2(bad);
        expect(res.statusCode).toBe(400);
        expect(ApiErrorBody.parse(res.json()).details?.length).toBeGreaterThan(0);
      }
    });

    it('dates are inclusive days in UTC by default', async () => {
      expect(sortedKeys(await v2({ start_date: '2026-03-10', end_date: '2026-03-10' }))).toEqual(['r1', 'r2']);
      expect(sortedKeys(await v2({ start_date: '2026-03-10', end_date: '2026-03-11' }))).toEqual(['r1', 'r2', 'r3']);
      expect(sortedKeys(await v2({ start_date: '2026-03-11' }))).toEqual(['r3', 'r5']);
      expect(sortedKeys(await v2({ end_date: '2026-03-09' }))).toEqual(['r4']);
    });

    it("dates follow the user's offset (tz minutes east of UTC)", async () => {
      // New York in March (UTC-4 after the switch, UTC-5 before; -300 here): the 10th is 05:00Z to 05:00Z.
      expect(sortedKeys(await v2({ start_date: '2026-03-10', end_date: '2026-03-10', tz: -300 }))).toEqual(['r2', 'r3']);
      // Central Europe (+60): the 10th is 9th 23:00Z to 10th 23:00Z.
      expect(sortedKeys(await v2({ start_date: '2026-03-10', end_date: '2026-03-10', tz: 60 }))).toEqual(['r1', 'r4']);
    });

    it('rejects bad dates and reversed ranges', async () => {
      for (const q of [{ start_date: '2026-13-01' }, { end_date: '10/03/2026' }, { start_date: '2026-03-11', end_date: '2026-03-10' }, { tz: 1000 }]) {
        const res = await v2(q);
        expect(res.statusCode).toBe(400);
        ApiErrorBody.parse(res.json());
      }
    });

    it('call_type: inbound = answered inbound, missed = unanswered inbound, outbound = any outbound', async () => {
      expect(sortedKeys(await v2({ call_type: 'inbound' }))).toEqual(['r1', 'r4']);
      expect(sortedKeys(await v2({ call_type: 'missed' }))).toEqual(['r3']);
      expect(sortedKeys(await v2({ call_type: 'outbound' }))).toEqual(['r2', 'r5']);
      expect(sortedKeys(await v2({ call_type: 'inbound,missed' }))).toEqual(['r1', 'r3', 'r4']);
      expect(sortedKeys(await v2({ call_type: 'outbound, MISSED' }))).toEqual(['r2', 'r3', 'r5']);
      expect(page(await v2({ call_type: 'inbound,outbound,missed' })).total).toBe(5);
      // Nothing chosen means everything, as in the filter bar.
      expect(page(await v2({ call_type: '' })).total).toBe(5);
      const bad = await v2({ call_type: 'inbound,voicemail' });
      expect(bad.statusCode).toBe(400);
      expect(ApiErrorBody.parse(bad.json()).details?.[0]?.path).toBe('call_type');
    });

    it('accepts a repeated call_type parameter', async () => {
      const res = await t.app.inject({ url: `/v2/users/${tess.id}/call-history?call_type=inbound&call_type=missed`, headers: bearer(tess.token) });
      expect(sortedKeys(res)).toEqual(['r1', 'r3', 'r4']);
    });

    it('term matches cnam and caller id case-insensitively', async () => {
      expect(keys(await v2({ term: 'quux' }))).toEqual(['r1']);
      expect(keys(await v2({ term: 'ZED q' }))).toEqual(['r1']); // cnam "Zed Quux"
      expect(keys(await v2({ term: 'quux zed' }))).toEqual(['r1']); // caller id "QUUX ZED"
      expect(keys(await v2({ term: 'alice' }))).toEqual(['r3']);
      expect(keys(await v2({ term: 'brightline' }))).toEqual(['r5']);
      expect(keys(await v2({ term: 'nobody at all' }))).toEqual([]);
    });

    it('term matches phone numbers by digits, whatever the formatting', async () => {
      expect(keys(await v2({ term: '(415) 555-0142' }))).toEqual(['r1']);
      expect(keys(await v2({ term: '+1 415 555 0142' }))).toEqual(['r1']);
      expect(keys(await v2({ term: '5550199' }))).toEqual(['r2']);
      expect(keys(await v2({ term: '1001' }))).toEqual(['r3']);
      expect(sortedKeys(await v2({ term: '555-01' }))).toEqual(['r1', 'r2', 'r4', 'r5']);
    });

    it('LIKE wildcards in the term are literal', async () => {
      expect(keys(await v2({ term: '%' }))).toEqual(['r4']);
      expect(keys(await v2({ term: '_' }))).toEqual([]);
      expect(keys(await v2({ term: '\\' }))).toEqual([]);
    });

    it('filters combine', async () => {
      expect(keys(await v2({ term: '555', call_type: 'inbound', start_date: '2026-03-10', end_date: '2026-03-12' }))).toEqual(['r1']);
    });
  });

  describe('v1 primary history', () => {
    it('returns only primary records, sort_by call_time:asc|desc', async () => {
      const p = page(await v1({}));
      expect(p.total).toBe(4);
      expect(p.items.map((i) => keyOf.get(i.id))).toEqual(['r3', 'r2', 'r1', 'r4']);
      expect(p.items.every((i) => i.is_primary)).toBe(true);
      expect(keys(await v1({ sort_by: 'call_time:asc' }))).toEqual(['r4', 'r1', 'r2', 'r3']);
      expect(keys(await v1({ sort_by: 'call_time:desc', offset: 1, limit: 2 }))).toEqual(['r2', 'r1']);
    });

    it('search_terms works like term', async () => {
      expect(keys(await v1({ search_terms: 'quux' }))).toEqual(['r1']);
      expect(keys(await v1({ search_terms: '212-555-0199' }))).toEqual(['r2']);
      expect(keys(await v1({ search_terms: 'brightline' }))).toEqual([]); // r5 is not primary
    });

    it('a bad sort direction is 400 with the exact text; an unknown field is 400 too', async () => {
      for (const sort_by of ['call_time:up', 'call_time:', 'call_time:asc:desc']) {
        const res = await v1({ sort_by });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ error: 'invalid_sort', message: 'Sort direction not supported' });
      }
      const field = await v1({ sort_by: 'duration:asc' });
      expect(field.statusCode).toBe(400);
      expect(ApiErrorBody.parse(field.json()).message).toBe('Sort field not supported');
    });
  });

  describe('access', () => {
    it("another user's history is 403 in both generations, even for the account owner", async () => {
      const olivia = await t.login('olivia');
      for (const url of [`/v2/users/${tess.id}/call-history`, `/v1/users/${tess.id}/call-history/primary`]) {
        for (const token of [alice.token, olivia, await t.login('rita')]) {
          const res = await t.app.inject({ url, headers: bearer(token) });
          expect(res.statusCode).toBe(403);
          ApiErrorBody.parse(res.json());
        }
      }
    });

    it('401 without a token', async () => {
      expect((await t.app.inject({ url: `/v2/users/${tess.id}/call-history` })).statusCode).toBe(401);
      expect((await t.app.inject({ url: `/v1/users/${tess.id}/call-history/primary` })).statusCode).toBe(401);
    });
  });

  describe('on the seeded demo data', () => {
    async function everything(who: { id: number; token: string }): Promise<HistoryRecordWire[]> {
      const all: HistoryRecordWire[] = [];
      for (let offset = 0; ; offset += 500) {
        const p = page(await v2({ offset, limit: 500 }, who));
        all.push(...p.items);
        if (all.length >= p.total) return all;
      }
    }

    it('the default past week holds 40–80 calls', async () => {
      const end = SEED_NOW.toISOString().slice(0, 10);
      const start = new Date(SEED_NOW.getTime() - 6 * 86_400_000).toISOString().slice(0, 10);
      const p = page(await v2({ start_date: start, end_date: end }, alice));
      expect(p.total).toBeGreaterThanOrEqual(40);
      expect(p.total).toBeLessThanOrEqual(80);
    });

    it('pages tile the whole history without gaps or repeats, in order', async () => {
      const all = await everything(alice);
      expect(all.length).toBeGreaterThan(400);
      expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
      for (let i = 1; i < all.length; i++) expect(all[i - 1]!.call_time >= all[i]!.call_time).toBe(true);
      const paged: number[] = [];
      for (let offset = 0; offset < all.length; offset += 50) paged.push(...page(await v2({ offset, limit: 50 }, alice)).items.map((r) => r.id));
      expect(paged).toEqual(all.map((r) => r.id));
    });

    it('call types partition the history and match the records', async () => {
      const all = await everything(alice);
      const counts = { inbound: 0, outbound: 0, missed: 0 };
      for (const type of ['inbound', 'outbound', 'missed'] as const) {
        const p = page(await v2({ call_type: type, limit: 500 }, alice));
        counts[type] = p.total;
        const expected = all.filter((r) =>
          type === 'outbound' ? r.direction === 'outbound' : r.direction === 'inbound' && r.disposition === (type === 'missed' ? 'UNANSWERED' : 'ANSWERED'),
        );
        expect(p.total).toBe(expected.length);
      }
      expect(counts.inbound + counts.outbound + counts.missed).toBe(all.length);
      expect(counts.missed).toBeGreaterThan(0);
      const missed = page(await v2({ call_type: 'missed', limit: 500 }, alice)).items;
      expect(missed.every((r) => r.duration === 0)).toBe(true);
    });

    it('v1 lists exactly the primary records', async () => {
      const all = await everything(alice);
      const primary = page(await v1({ limit: 1 }, alice));
      expect(primary.total).toBe(all.filter((r) => r.is_primary).length);
      expect(primary.total).toBeLessThan(all.length);
    });

    it('search by a colleague name and by an external number finds what a scan finds', async () => {
      const all = await everything(alice);
      const colleague = all.find((r) => /^\d{4}$/.test(r.source_phone) && /^\d{4}$/.test(r.dest_phone) && r.cnam)!;
      const name = colleague.cnam!.split(' ')[1]!.toLowerCase();
      const byName = all.filter((r) => `${r.cnam ?? ''}\n${r.caller_id ?? ''}`.toLowerCase().includes(name));
      expect(page(await v2({ term: name.toUpperCase(), limit: 500 }, alice)).total).toBe(byName.length);

      const external = all.find((r) => r.source_phone.startsWith('+1'))!;
      const digits = external.source_phone.slice(2);
      const formatted = `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
      const byNumber = all.filter((r) => r.source_phone.includes(digits) || r.dest_phone.includes(digits));
      const res = page(await v2({ term: formatted, limit: 500 }, alice));
      expect(res.total).toBe(byNumber.length);
      expect(res.items.map((r) => r.id).sort()).toEqual(byNumber.map((r) => r.id).sort());
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallRecordingsPage, FailoverResponse } from '../../src/wire/callRecordings';
import { readWav } from '../../server/media/wav';
import { parseRange } from '../../server/media/send';
import { backends, bearer, SEED_NOW, startTestServer, type TestServer } from './helpers';

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe.each(backends)('call recordings API ($name)', (backend) => {
  let t: TestServer;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    t = await startTestServer(backend);
    alice = await t.login('alice');
    bob = await t.login('bob');
  });
  afterAll(() => t?.close());

  const list = async (token: string, query: Record<string, string | number> = {}) => {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    const res = await t.app.inject({ url: `/v1/call-recordings?${qs}`, headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    return CallRecordingsPage.parse(res.json());
  };

  it('lists the own recordings newest first, paged', async () => {
    const all = await list(alice, { limit: 500 });
    expect(all.total).toBe(18);
    const times = all.items.map((i) => Date.parse(i.timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(all.items[0]!.media_url).toBe(`/v1/orekacallrecording/recordings/${all.items[0]!.recording_id}/media`);
    const page = await list(alice, { offset: 5, limit: 5 });
    expect(page.items.map((i) => i.recording_id)).toEqual(all.items.slice(5, 10).map((i) => i.recording_id));
    expect(page.total).toBe(18);
    const past = await list(alice, { offset: 100, limit: 5 });
    expect(past).toMatchObject({ items: [], total: 18 });
    const bobs = await list(bob, { limit: 500 });
    expect(bobs.items.some((b) => all.items.some((a) => a.recording_id === b.recording_id))).toBe(false);
  });

  it('filters by inclusive days and by a name or any digits of the number', async () => {
    const all = (await list(alice, { limit: 500 })).items;
    const day = isoDay(Date.parse(all[4]!.timestamp));
    const oneDay = await list(alice, { start_date: day, end_date: day });
    expect(oneDay.items.length).toBeGreaterThan(0);
    expect(oneDay.items.every((i) => i.timestamp.slice(0, 10) === day)).toBe(true);
    expect(oneDay.total).toBe(all.filter((i) => i.timestamp.slice(0, 10) === day).length);
    const since = isoDay(SEED_NOW.getTime() - 90 * DAY);
    expect((await list(alice, { start_date: since, limit: 500 })).total).toBe(all.filter((i) => i.timestamp.slice(0, 10) >= since).length);

    const named = all.find((i) => i.cnam)!;
    const byName = await list(alice, { search_term: named.cnam!.split(' ')[0]!.toLowerCase(), limit: 500 });
    expect(byName.items.every((i) => i.cnam?.toLowerCase().includes(named.cnam!.split(' ')[0]!.toLowerCase()))).toBe(true);
    const digits = named.remoteParty.replace(/\D/g, '').slice(-4);
    const byDigits = await list(alice, { search_term: `${digits.slice(0, 2)}-${digits.slice(2)}`, limit: 500 });
    expect(byDigits.items.map((i) => i.recording_id)).toContain(named.recording_id);
  });

  it('refuses malformed queries with a clear 400', async () => {
    const q = (s: string) => t.app.inject({ url: `/v1/call-recordings?${s}`, headers: bearer(alice) });
    const bad = await q('start_date=2026-13-01');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: 'Invalid call recordings query', details: [{ path: 'start_date' }] });
    const reversed = await q('start_date=2026-03-10&end_date=2026-03-01');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().details[0].message).toBe('start_date must not be after end_date');
    expect((await q('limit=0')).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/v1/call-recordings' })).statusCode).toBe(401);
  });

  it('serves the audio to its owner only, as WAV with ranges', async () => {
    const [first] = (await list(alice)).items;
    const url = first!.media_url;
    const res = await t.app.inject({ url, headers: bearer(alice) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    const wav = readWav(res.rawPayload);
    expect(Math.abs(wav.durationMs / 1000 - first!.duration)).toBeLessThanOrEqual(1);
    const part = await t.app.inject({ url, headers: { ...bearer(alice), range: 'bytes=44-' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.length).toBe(res.rawPayload.length - 44);
    expect((await t.app.inject({ url, headers: bearer(bob) })).statusCode).toBe(404);
  });

  it('failover makes recordings unavailable and says so', async () => {
    const f = await t.app.inject({ url: '/v1/organizations/failover', headers: bearer(alice) });
    expect(FailoverResponse.parse(f.json())).toEqual({ fail_over: false });
    const [first] = (await list(alice)).items;
    await t.db.query(`UPDATE organizations SET fail_over = true WHERE id = (SELECT organization_id FROM users WHERE username = 'alice')`);
    try {
      expect((await t.app.inject({ url: '/v1/organizations/failover', headers: bearer(alice) })).json()).toEqual({ fail_over: true });
      const media = await t.app.inject({ url: first!.media_url, headers: bearer(alice) });
      expect(media.statusCode).toBe(503);
      expect(media.json().error).toBe('failover');
    } finally {
      await t.db.query('UPDATE organizations SET fail_over = false');
    }
  });

  it('an account owner or administrator switches failover for their organisation; nobody else can', async () => {
    const put = (token: string, payload: unknown) => t.app.inject({ method: 'PUT', url: '/v1/organizations/failover', headers: bearer(token), payload: payload as object });
    const olivia = await t.login('olivia');
    const [first] = (await list(alice)).items;
    const standard = await put(alice, { fail_over: true });
    expect(standard.statusCode).toBe(403);
    expect(standard.json().message).toBe('Only an account owner or administrator can change failover');
    const bad = await put(olivia, { fail_over: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/failover update/);
    expect((await t.app.inject({ method: 'PUT', url: '/v1/organizations/failover', payload: { fail_over: true } })).statusCode).toBe(401);
    try {
      expect((await put(olivia, { fail_over: true })).json()).toEqual({ fail_over: true });
      expect((await t.app.inject({ url: '/v1/organizations/failover', headers: bearer(alice) })).json()).toEqual({ fail_over: true });
      expect((await t.app.inject({ url: first!.media_url, headers: bearer(alice) })).statusCode).toBe(503);
      // Another organisation is not affected.
      const { rows } = await t.db.query<{ username: string }>(`SELECT username FROM users WHERE organization_id <> (SELECT organization_id FROM users WHERE username = 'alice') LIMIT 1`);
      if (rows[0]) {
        const other = await t.login(rows[0].username);
        expect((await t.app.inject({ url: '/v1/organizations/failover', headers: bearer(other) })).json()).toEqual({ fail_over: false });
      }
      expect((await put(olivia, { fail_over: false })).json()).toEqual({ fail_over: false });
      expect((await t.app.inject({ url: first!.media_url, headers: bearer(alice) })).statusCode).toBe(200);
    } finally {
      await t.db.query('UPDATE organizations SET fail_over = false');
    }
  });

  it('a user whose organisation hides own recordings gets 403', async () => {
    await t.db.query(`INSERT INTO call_recording_policies (organization_id, status, can_view_own) SELECT organization_id, 'on', false FROM users WHERE username = 'bob'`);
    try {
      const res = await t.app.inject({ url: '/v1/call-recordings', headers: bearer(bob) });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/view your call recordings/);
    } finally {
      await t.db.query('DELETE FROM call_recording_policies');
    }
  });
});

describe('byte ranges', () => {
  it('parses the single-range forms and refuses what lies outside the file', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-5', 100)).toEqual({ start: 95, end: 99 });
    expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
    expect(parseRange('bytes=9-3', 100)).toBeNull();
  });
});

import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { ApiErrorBody } from '../../src/wire/common';
import { CalendarFeed, CalendarFeedsResponse, MeetingsPage } from '../../src/wire/meetings';
import { backends, bearer, SEED_NOW, startTestServer, type TestServer } from './helpers';

/** Port of this file's calendar server (the task's range): one per backend, as backends may run side by side. */
const FEED_PORT = 43020;
const HOUR = 3_600_000;
const stamp = (t: number) => new Date(t).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/** An Outlook-like published calendar: one event tomorrow, a weekly one, whatever `title` says now. */
function calendar(title: string): string {
  const now = SEED_NOW.getTime();
  return [
    'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//Feed//EN', 'X-WR-CALNAME:Team calendar',
    'BEGIN:VEVENT', 'UID:once@test', `DTSTAMP:${stamp(now)}`, `DTSTART:${stamp(now + 24 * HOUR)}`, `DTEND:${stamp(now + 25 * HOUR)}`, `SUMMARY:${title}`, 'URL:https://teams.example/l/meetup-join/1', 'END:VEVENT',
    'BEGIN:VEVENT', 'UID:weekly@test', `DTSTAMP:${stamp(now)}`, `DTSTART:${stamp(now + 2 * HOUR)}`, `DTEND:${stamp(now + 3 * HOUR)}`, 'RRULE:FREQ=WEEKLY;COUNT=3', 'SUMMARY:Vendor weekly', 'END:VEVENT',
    'END:VCALENDAR', '',
  ].join('\r\n');
}

describe.each(backends)('external calendar feeds ($name)', (backend) => {
  let t: TestServer;
  let server: Server;
  let base = '';
  let title = 'Board meeting';
  let failing = false;
  let alice = '';
  let bob = '';
  const hits: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/cal.ics' && failing) return res.writeHead(503).end();
      if (req.url === '/cal.ics') return res.writeHead(200, { 'content-type': 'text/calendar' }).end(calendar(title));
      if (req.url === '/second.ics') return res.writeHead(200, { 'content-type': 'text/calendar' }).end(calendar('Second'));
      if (req.url === '/page.html') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Sign in</body></html>');
      if (req.url === '/huge.ics') {
        res.writeHead(200, { 'content-type': 'text/calendar' });
        res.write('BEGIN:VCALENDAR\r\n');
        return res.end('X-PAD:' + 'x'.repeat(300_000) + '\r\nEND:VCALENDAR\r\n');
      }
      if (req.url === '/slow.ics') return; // never answers
      if (req.url === '/redirect.ics') return res.writeHead(302, { location: '/cal.ics' }).end();
      if (req.url === '/missing.ics') return res.writeHead(404).end();
      res.writeHead(500).end();
    });
    const port = FEED_PORT + (backend.name === 'pglite' ? 0 : 1);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${port}`;
    // The test's calendar server is on loopback: this server allows private addresses, with small limits.
    t = await startTestServer(backend, { app: { meetings: { now: () => SEED_NOW.getTime(), chat: null, feeds: { allowPrivateHosts: true, maxBytes: 100_000, timeoutMs: 1500, refreshIntervalMs: 0 } } } });
    alice = await t.login('alice');
    bob = await t.login('bob');
  });
  afterAll(async () => {
    await t?.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const call = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const external = async (token: string) => MeetingsPage.parse((await call(token, 'GET', '/v1/meetings?filter=e')).json()).items;

  it('a subscribed feed is read at once; its events appear as read-only external meetings of that user only', async () => {
    const res = await call(bob, 'POST', '/v1/calendar-feeds', { url: `${base}/cal.ics` });
    expect(res.statusCode, res.body).toBe(201);
    const feed = CalendarFeed.parse(res.json());
    expect(feed).toMatchObject({ name: 'Team calendar', source: 'ics', last_error: null, event_count: 4 });
    const items = await external(bob);
    expect(items.map((i) => i.meeting_name)).toEqual(['Vendor weekly', 'Board meeting', 'Vendor weekly', 'Vendor weekly']);
    expect(items.every((i) => i.source === 'ics' && !i.editable && i.feed_id === feed.id)).toBe(true);
    expect(items.find((i) => i.meeting_name === 'Board meeting')!.url).toBe('https://teams.example/l/meetup-join/1');
    // The unfiltered list has them too; the personal and community filters do not.
    const all = MeetingsPage.parse((await call(bob, 'GET', '/v1/meetings?search=board%20meeting')).json()).items;
    expect(all.map((i) => i.source)).toEqual(['ics']);
    expect(MeetingsPage.parse((await call(bob, 'GET', '/v1/meetings?filter=p&search=board%20meeting')).json()).items).toEqual([]);
    // Nobody else sees them or the feed.
    expect((await external(alice)).map((i) => i.meeting_name)).not.toContain('Board meeting');
    expect(CalendarFeedsResponse.parse((await call(alice, 'GET', '/v1/calendar-feeds')).json()).feeds.map((f) => f.id)).not.toContain(feed.id);
    expect((await call(alice, 'POST', `/v1/calendar-feeds/${feed.id}/refresh`)).statusCode).toBe(404);
    expect((await call(alice, 'DELETE', `/v1/calendar-feeds/${feed.id}`)).statusCode).toBe(404);
    // The same address twice is refused.
    expect((await call(bob, 'POST', '/v1/calendar-feeds', { url: `${base}/cal.ics` })).statusCode).toBe(409);
  });

  it('a refresh reads the feed again; a failed one keeps the events and says why', async () => {
    const feed = CalendarFeedsResponse.parse((await call(bob, 'GET', '/v1/calendar-feeds')).json()).feeds.find((f) => f.url.endsWith('/cal.ics'))!;
    title = 'Board meeting (moved)';
    const res = await call(bob, 'POST', `/v1/calendar-feeds/${feed.id}/refresh`);
    expect(CalendarFeed.parse(res.json()).last_error).toBeNull();
    expect((await external(bob)).map((i) => i.meeting_name)).toContain('Board meeting (moved)');
    failing = true;
    const failed = CalendarFeed.parse((await call(bob, 'POST', `/v1/calendar-feeds/${feed.id}/refresh`)).json());
    failing = false;
    expect(failed.last_error).toBe('The calendar server answered 503');
    expect(failed.event_count).toBe(4);
    expect((await external(bob)).map((i) => i.meeting_name)).toContain('Board meeting (moved)');
    // The periodic refresh: a server whose interval is short reads the feed by itself.
    title = 'Board meeting (periodic)';
    const ticking = await buildApp({ db: t.db, runtimeDir: t.runtimeDir, meetings: { chat: null, now: () => SEED_NOW.getTime() + 86_400_000, feeds: { allowPrivateHosts: true, refreshIntervalMs: 200 } } });
    try {
      await expect.poll(async () => (await external(bob)).map((i) => i.meeting_name), { timeout: 10_000 }).toContain('Board meeting (periodic)');
    } finally {
      await ticking.close();
    }
  });

  it('refuses addresses that are not calendars, too large, too slow, or not http', async () => {
    const cases: Array<[string, number, RegExp]> = [
      [`${base}/page.html`, 422, /iCalendar/],
      [`${base}/huge.ics`, 422, /too large/],
      [`${base}/slow.ics`, 422, /in time/],
      [`${base}/missing.ics`, 422, /404/],
      ['file:///etc/passwd', 400, /http/],
      ['gopher://example.com/', 400, /http/],
      ['not a url', 400, /http/],
    ];
    for (const [url, status, message] of cases) {
      const res = await call(bob, 'POST', '/v1/calendar-feeds', { url });
      expect({ url, status: res.statusCode }).toEqual({ url, status });
      expect(ApiErrorBody.parse(res.json()).message).toMatch(message);
    }
    // Redirects are followed.
    expect((await call(bob, 'POST', '/v1/calendar-feeds', { url: `${base}/redirect.ics` })).statusCode).toBe(201);
    for (const payload of [{ url: 'http://x.example/' + 'a'.repeat(2001) }, { url: 42 }, {}, { url: `${base}/cal.ics`, name: 'n'.repeat(201) }]) {
      expect((await call(bob, 'POST', '/v1/calendar-feeds', payload)).statusCode).toBe(400);
    }
  });

  it('without the test setting, loopback and private addresses are refused before any request', async () => {
    const strict = await buildApp({ db: t.db, runtimeDir: t.runtimeDir, meetings: { chat: null, feeds: { refreshIntervalMs: 0 } } });
    try {
      const before = hits.length;
      for (const url of [`${base}/second.ics`, `http://localhost:${new URL(base).port}/second.ics`, 'http://[::1]/x.ics', 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/cal.ics', 'http://0x7f000001/cal.ics']) {
        const res = await strict.inject({ method: 'POST', url: '/v1/calendar-feeds', headers: bearer(bob), payload: { url } });
        expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
        expect(ApiErrorBody.parse(res.json()).message).toMatch(/public internet addresses/);
      }
      expect(hits.length).toBe(before);
    } finally {
      await strict.close();
    }
  });

  it('deleting a feed removes its events', async () => {
    const feeds = CalendarFeedsResponse.parse((await call(bob, 'GET', '/v1/calendar-feeds')).json()).feeds;
    for (const f of feeds) expect((await call(bob, 'DELETE', `/v1/calendar-feeds/${f.id}`)).statusCode).toBe(204);
    expect(await external(bob)).toEqual([]);
  });
});

import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { seedDemoMeetings } from '../../server/seed-meetings';
import { ApiErrorBody } from '../../src/wire/common';
import { JoinResponse, Meeting, MEETING_ERRORS, MeetingInfo, MeetingPermissions, MeetingsPage, RoomsResponse } from '../../src/wire/meetings';
import { backends, bearer, SEED_NOW, startTestServer, type TestServer } from './helpers';
import { MEETING_DIAL_IN } from '../../src/wire/services';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const iso = (t: number) => new Date(t).toISOString();
/** Port of this file's SMTP server (the task's range). */
const SMTP_PORT = 43010;

describe.each(backends)('meetings API ($name)', (backend) => {
  let t: TestServer;
  let clock = SEED_NOW.getTime();
  const chats: Array<{ from: string; to: string; body: string }> = [];
  const mails: ParsedMail[] = [];
  let smtp: SMTPServer;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const USERS = ['olivia', 'alice', 'bob', 'carol', 'dave', 'mateo.garcia', 'rita'] as const;
  type Who = (typeof USERS)[number];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, done) {
        simpleParser(stream).then((mail) => (mails.push(mail), done()), (err: Error) => done(err));
      },
    });
    await new Promise<void>((resolve) => smtp.listen(backend.name === 'pglite' ? SMTP_PORT : SMTP_PORT + 1, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    t = await startTestServer(backend, {
      app: {
        settings: { smtpUrl: `smtp://127.0.0.1:${port}`, meetingUrl: 'https://meet.acme.example' },
        meetings: { now: () => clock, chat: async (from, to, body) => void chats.push({ from, to, body }), feeds: { refreshIntervalMs: 0 } },
      },
    });
    for (const u of USERS) {
      tokens[u] = await t.login(u);
      ids[u] = await t.userId(u);
    }
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  const call = (who: Who, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(tokens[who]!), ...(payload !== undefined ? { payload: payload as object } : {}) });
  const body = (over: Record<string, unknown> = {}) => ({
    meeting_name: 'Planning',
    start: iso(clock + 2 * HOUR),
    end: iso(clock + 3 * HOUR),
    time_zone: 'America/New_York',
    ...over,
  });
  const create = async (who: Who, over: Record<string, unknown> = {}) => {
    const res = await call(who, 'POST', '/v1/meetings', body(over));
    expect(res.statusCode, res.body).toBe(201);
    return Meeting.parse(res.json());
  };
  const list = async (who: Who, query = '') => {
    const res = await call(who, 'GET', `/v1/meetings${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return MeetingsPage.parse(res.json());
  };
  const errorOf = (res: { statusCode: number; json(): unknown }) => {
    const parsed = ApiErrorBody.safeParse(res.json());
    return { status: res.statusCode, message: parsed.success ? parsed.data.message : JSON.stringify(res.json()).slice(0, 120) };
  };

  it('the demo has a dozen meetings per core user around today, one starting in 5 minutes, two rooms and an external calendar', async () => {
    const mine = await list('alice', `?filter=p&from=${iso(clock - 10 * DAY)}&to=${iso(clock + 30 * DAY)}`);
    expect(new Set(mine.items.map((m) => m.id)).size).toBe(12);
    const soon = (await list('bob')).items.find((m) => m.meeting_name === 'Design review')!;
    expect(Date.parse(soon.start!) - clock).toBe(5 * MIN);
    expect(soon.editable).toBe(false);
    expect(mine.items.some((m) => m.is_recurring)).toBe(true);
    const rooms = RoomsResponse.parse((await call('carol', 'GET', '/v1/rooms')).json());
    expect(rooms.rooms.map((r) => r.meeting_name)).toEqual(['Acme lobby', 'Support war room']);
    expect(rooms.refresh_interval_ms).toBe(300_000);
    const external = await list('alice', '?filter=e');
    expect(external.items.map((m) => m.meeting_name)).toEqual(['Dentist', 'School play', 'Flight to Chicago']);
    expect(external.items.every((m) => m.source === 'ics' && !m.editable)).toBe(true);
    expect((await list('bob', '?filter=e')).items).toEqual([]);
    // Run again (as on a database seeded before meetings existed): nothing is added twice.
    expect(await t.db.transaction((tx) => seedDemoMeetings(tx, clock))).toBe(0);
  });

  it('creates a meeting: slug, URL, ID; invitees see it in their list, nobody else reaches it', async () => {
    const m = await create('alice', { meeting_name: 'Roadmap Review', invitees: [{ user_id: ids.bob }, { email: 'guest@partner.example' }] });
    expect(m.slug).toMatch(/^[a-z0-9]{5,}$/);
    expect(m.url).toBe(`https://meet.acme.example/uc/alice/${m.slug}`);
    expect(m.meeting_access_code).toMatch(/^\d{9}$/);
    // Dial-in: the number and a PIN of its own, which the booker and invitees see and others do not.
    expect(m.phone_numbers).toEqual([MEETING_DIAL_IN]);
    expect(m.phone_pin).toMatch(/^\d{6}$/);
    expect(m).toMatchObject({ editable: true, source: 'uc', is_room: false, booked_by_id: ids.alice, duration_ms: HOUR, time_zone: 'America/New_York' });
    expect(m.attendees.map((a) => [a.user_id, a.email, a.is_guest])).toEqual([[ids.bob, null, false], [null, 'guest@partner.example', true]]);

    expect((await list('bob', '?filter=c')).items.map((i) => i.id)).toContain(m.id);
    expect((await list('bob', '?filter=p')).items.map((i) => i.id)).not.toContain(m.id);
    expect((await list('alice', '?filter=p')).items.map((i) => i.id)).toContain(m.id);
    expect((await list('carol')).items.map((i) => i.id)).not.toContain(m.id);
    const bobView = Meeting.parse((await call('bob', 'GET', `/v1/meetings/${m.id}`)).json());
    expect(bobView.editable).toBe(false);
    for (const who of ['carol', 'rita'] as const) {
      expect((await call(who, 'GET', `/v1/meetings/${m.id}`)).statusCode).toBe(404);
      expect((await call(who, 'PUT', `/v1/meetings/${m.id}`, body())).statusCode).toBe(404);
      expect((await call(who, 'DELETE', `/v1/meetings/${m.id}`)).statusCode).toBe(404);
      expect((await call(who, 'GET', `/v1/meetings/${m.id}/ics`)).statusCode).toBe(404);
    }
    // An invitee sees it but may not change it: only the booker edits.
    expect(errorOf(await call('bob', 'PUT', `/v1/meetings/${m.id}`, body()))).toEqual({ status: 403, message: MEETING_ERRORS.notEditable });
    expect(errorOf(await call('bob', 'DELETE', `/v1/meetings/${m.id}`))).toEqual({ status: 403, message: MEETING_ERRORS.notEditable });
    // Search is on titles, case-insensitive.
    expect((await list('bob', '?search=roadmap%20REVIEW')).items.map((i) => i.id)).toEqual([m.id]);
  });

  it('refuses what the modal refuses, with the rule in the message', async () => {
    const s = clock + 2 * HOUR;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ end: iso(s) }, MEETING_ERRORS.durationZero],
      [{ end: iso(s - MIN) }, MEETING_ERRORS.durationZero],
      [{ end: iso(s + 30_000) }, MEETING_ERRORS.endTooSoon],
      [{ end: iso(s + 108_000_000 + MIN) }, MEETING_ERRORS.tooLong],
      [{ end: undefined, duration_ms: 0 }, MEETING_ERRORS.durationZero],
      [{ duration_ms: HOUR }, MEETING_ERRORS.endOrDuration],
      [{ recurrence: { occurs: 2, day_in_week: [false, false, false, false, false, false, false] } }, MEETING_ERRORS.weekdayRequired],
      [{ recurrence: { occurs: 3 } }, MEETING_ERRORS.weekdayRequired],
      [{ pin: '123' }, MEETING_ERRORS.pin],
      [{ pin: '12345' }, MEETING_ERRORS.pin],
      [{ password: 'abcd' }, MEETING_ERRORS.password],
      [{ bookmarks: ['https://ok.example', 'not a url'] }, MEETING_ERRORS.bookmark],
      [{ bookmarks: ['javascript:alert(1)'] }, MEETING_ERRORS.bookmark],
      [{ meeting_name: '   ' }, MEETING_ERRORS.nameRequired],
      [{ start: '2026-02-30T10:00:00Z' }, MEETING_ERRORS.badDate],
      [{ start: '2026-03-20T24:00:00Z' }, MEETING_ERRORS.badDate],
      [{ start: '+275760-09-13T00:00:00Z' }, MEETING_ERRORS.badDate],
      [{ start: '1970-01-01T00:00:00Z' }, MEETING_ERRORS.badDate],
      [{ start: 'tomorrow' }, MEETING_ERRORS.badDate],
      [{ time_zone: 'Mars/Olympus_Mons' }, MEETING_ERRORS.badTimeZone],
      [{ invitees: [{ user_id: ids.rita }] }, MEETING_ERRORS.unknownInvitee],
    ];
    for (const [over, message] of cases) {
      const payload = body(over);
      if ('end' in over && over.end === undefined) delete (payload as Record<string, unknown>).end;
      const res = await call('alice', 'POST', '/v1/meetings', payload);
      expect({ over, ...errorOf(res) }).toEqual({ over, status: 400, message });
    }
    for (const payload of [
      body({ invitees: [{ user_id: 2147483648 }] }),
      body({ invitees: [{ email: 'not-an-address' }] }),
      body({ duration_ms: 1e20, end: undefined }),
      body({ meeting_name: 'x'.repeat(201) }),
      body({ bookmarks: Array.from({ length: 21 }, (_, i) => `h${i}.example`) }),
      { meeting_name: 'No start' },
      [],
    ]) {
      const res = await call('alice', 'POST', '/v1/meetings', payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(ApiErrorBody.parse(res.json()).message).toMatch(/\w/);
    }
    // PIN and password: exactly four digits (zero-padded), or empty for none.
    const ok = await create('alice', { pin: '0042', password: '' });
    expect([ok.pin, ok.has_pin, ok.password, ok.has_password]).toEqual(['0042', true, null, false]);
  });

  it('a start already past moves to the next quarter hour; instant meetings start now', async () => {
    clock = SEED_NOW.getTime() + 7 * MIN;
    try {
      const late = await create('alice', { start: iso(clock - 30 * MIN), end: iso(clock + 30 * MIN) });
      expect(late.start).toBe(iso(SEED_NOW.getTime() + 15 * MIN));
      expect(late.duration_ms).toBe(HOUR);
      const now = await create('alice', { instant: true, start: undefined, end: undefined });
      expect(now.start).toBe(iso(clock));
      expect(now.duration_ms).toBe(HOUR);
    } finally {
      clock = SEED_NOW.getTime();
    }
  });

  it('ad-hoc meetings (a chat invite\'s "Meet now"): instant, private, one colleague other than oneself, nobody sent an invitation; refused otherwise with the rule', async () => {
    const adHoc = { instant: true, start: undefined, end: undefined, is_private: true, ad_hoc: true, meeting_name: 'Alice & Bob' };
    const chatsBefore = chats.length;
    const m = await create('alice', { ...adHoc, invitees: [{ user_id: ids.bob }] });
    expect(m).toMatchObject({ ad_hoc: true, is_private: true, start: iso(clock) });
    expect(m.url).toBe(`https://meet.acme.example/uc/alice/${m.slug}`);
    // The chat's invite told Bob: no meeting invitation on top of it.
    expect(chats.length).toBe(chatsBefore);
    expect(Meeting.parse((await call('bob', 'GET', `/v1/meetings/${m.id}`)).json()).ad_hoc).toBe(true);
    const refused = async (over: Record<string, unknown>) => errorOf(await call('alice', 'POST', '/v1/meetings', body({ ...adHoc, invitees: [{ user_id: ids.bob }], ...over })));
    expect(await refused({ instant: false, start: iso(clock + HOUR), end: iso(clock + 2 * HOUR) })).toEqual({ status: 400, message: MEETING_ERRORS.adHocShape });
    expect(await refused({ is_private: false })).toEqual({ status: 400, message: MEETING_ERRORS.adHocShape });
    expect(await refused({ recurrence: { occurs: 1 } })).toEqual({ status: 400, message: MEETING_ERRORS.adHocShape });
    expect(await refused({ invitees: [] })).toEqual({ status: 400, message: MEETING_ERRORS.adHocInvitee });
    expect(await refused({ invitees: [{ user_id: ids.alice }] })).toEqual({ status: 400, message: MEETING_ERRORS.adHocInvitee });
    expect(await refused({ invitees: [{ email: 'guest@partner.example' }] })).toEqual({ status: 400, message: MEETING_ERRORS.adHocInvitee });
    expect(await refused({ invitees: [{ user_id: ids.bob }, { user_id: ids.carol }] })).toEqual({ status: 400, message: MEETING_ERRORS.adHocInvitee });
    // A scheduled meeting does not become ad-hoc by an edit.
    const plain = await create('alice');
    expect(plain.ad_hoc).toBe(false);
    expect(errorOf(await call('alice', 'PUT', `/v1/meetings/${plain.id}`, body({ ad_hoc: true })))).toEqual({ status: 400, message: MEETING_ERRORS.adHocEdit });
  });

  it('expands recurring meetings into occurrences in the list, in the meeting’s zone', async () => {
    // Friday 20 March 2026, 11:00 in New York; weekly on Monday and Wednesday at that time.
    const m = await create('carol', {
      meeting_name: 'Weekly sync',
      start: '2026-03-23T15:00:00Z',
      end: '2026-03-23T15:30:00Z',
      recurrence: { occurs: 2, day_in_week: [true, false, true, false, false, false, false] },
    });
    const page = await list('carol', `?filter=p&search=weekly%20sync&from=2026-03-20T00:00:00Z&to=2026-04-06T00:00:00Z`);
    expect(page.items.map((i) => i.start)).toEqual([
      '2026-03-23T15:00:00.000Z', '2026-03-25T15:00:00.000Z', '2026-03-30T15:00:00.000Z', '2026-04-01T15:00:00.000Z',
    ]);
    expect(new Set(page.items.map((i) => i.id))).toEqual(new Set([m.id]));
    expect(new Set(page.items.map((i) => i.key)).size).toBe(4);
    expect(page.items[0]).toMatchObject({ is_recurring: true, series_start: '2026-03-23T15:00:00.000Z', recurrence: { occurs: 2, until: null } });
    // Paging ("show more") over the same occurrences.
    const second = await list('carol', `?filter=p&search=weekly%20sync&from=2026-03-20T00:00:00Z&to=2026-04-06T00:00:00Z&offset=2&limit=2`);
    expect(second.total).toBe(4);
    expect(second.items.map((i) => i.start)).toEqual(page.items.slice(2).map((i) => i.start));
  });

  it('refuses odd list windows and queries', async () => {
    for (const q of [
      `?from=${iso(clock)}&to=${iso(clock - DAY)}`,
      `?from=${iso(clock)}&to=${iso(clock + 401 * DAY)}`,
      '?filter=x',
      '?limit=5000',
      '?offset=-1',
      '?from=2026-02-31T00:00:00Z',
      `?search=${'a'.repeat(201)}`,
    ]) {
      expect((await call('alice', 'GET', `/v1/meetings${q}`)).statusCode, q).toBe(400);
    }
  });

  it('edits and deletes: the booker only, with SEQUENCE-numbered updates and cancellations to guests and chat notices to colleagues', async () => {
    chats.length = 0;
    mails.length = 0;
    // Dave (limited access) has no chat: he is invited but not told in chat.
    const m = await create('alice', { meeting_name: 'Partner kickoff', invitees: [{ user_id: ids.bob }, { user_id: ids.dave }, { email: 'keep@partner.example' }, { email: 'drop@partner.example' }] });
    await expect.poll(() => mails.length).toBe(2);
    const invite = mails.find((x) => x.to && JSON.stringify(x.to).includes('keep@partner.example'))!;
    expect(invite.subject).toContain('Partner kickoff');
    const ics = invite.attachments.find((a) => a.filename === 'invite.ics')!;
    expect(ics.contentType).toBe('text/calendar');
    const text = ics.content.toString('utf8').replace(/\r\n[ \t]/g, '');
    expect(text).toContain('METHOD:REQUEST');
    expect(text).toContain('SEQUENCE:0');
    expect(text).toContain(`UID:meeting-${m.id}@`);
    expect(text).toContain(m.url!);
    await expect.poll(() => chats.length).toBe(1);
    expect(chats).toHaveLength(1);
    expect(chats[0]).toMatchObject({ from: 'alice', to: 'bob' });
    expect(chats[0]!.body).toContain('invited you to the meeting "Partner kickoff"');

    mails.length = 0;
    chats.length = 0;
    const res = await call('alice', 'PUT', `/v1/meetings/${m.id}`, body({ meeting_name: 'Partner kickoff (moved)', start: iso(clock + 4 * HOUR), end: iso(clock + 5 * HOUR), invitees: [{ user_id: ids.bob }, { user_id: ids.carol }, { user_id: ids.dave }, { email: 'keep@partner.example' }] }));
    expect(res.statusCode, res.body).toBe(200);
    expect(Meeting.parse(res.json()).start).toBe(iso(clock + 4 * HOUR));
    await expect.poll(() => mails.length).toBe(2);
    const update = mails.find((x) => JSON.stringify(x.to).includes('keep@'))!.attachments[0]!.content.toString('utf8');
    expect(update).toContain('METHOD:REQUEST');
    expect(update).toContain('SEQUENCE:1');
    const dropped = mails.find((x) => JSON.stringify(x.to).includes('drop@'))!.attachments[0]!.content.toString('utf8');
    expect(dropped).toContain('METHOD:CANCEL');
    await expect.poll(() => chats.length).toBe(2);
    expect(chats.find((c) => c.to === 'bob')!.body).toContain('changed the meeting');
    expect(chats.find((c) => c.to === 'carol')!.body).toContain('invited you to');

    mails.length = 0;
    chats.length = 0;
    expect((await call('alice', 'DELETE', `/v1/meetings/${m.id}`)).statusCode).toBe(204);
    await expect.poll(() => mails.length).toBe(1);
    const cancel = mails[0]!.attachments[0]!.content.toString('utf8');
    expect(cancel).toContain('METHOD:CANCEL');
    expect(cancel).toContain('SEQUENCE:2');
    await expect.poll(() => chats.length).toBe(2);
    expect(chats.every((c) => c.body.includes('cancelled'))).toBe(true);
    expect((await call('alice', 'GET', `/v1/meetings/${m.id}`)).statusCode).toBe(404);
    expect((await call('bob', 'GET', `/v1/meetings/${m.id}`)).statusCode).toBe(404);
  });

  it('adds to calendar: the meeting as a PUBLISH .ics download', async () => {
    const m = await create('alice', { meeting_name: 'Calendar me' });
    const res = await call('bob', 'GET', `/v1/meetings/${m.id}/ics`);
    expect((await call('alice', 'GET', `/v1/meetings/${m.id}/ics`)).statusCode).toBe(200);
    expect(res.statusCode).toBe(404); // bob is not invited
    const own = await call('alice', 'GET', `/v1/meetings/${m.id}/ics`);
    expect(own.headers['content-type']).toMatch(/^text\/calendar/);
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect(own.headers['content-disposition']).toMatch(/attachment; filename="meeting-[a-z0-9]+\.ics"/);
    expect(own.body).toContain('METHOD:PUBLISH');
    expect(own.body).toContain('SUMMARY:Calendar me');
  });

  it('joins by ID from 10 minutes before the start until the end, with the PIN unless invited', async () => {
    const m = await create('alice', { meeting_name: 'Join me', pin: '7788', invitees: [{ user_id: ids.bob }] });
    const join = (who: Who, extra: Record<string, unknown> = {}) => call(who, 'POST', '/v1/meetings/join', { access_code: m.meeting_access_code, ...extra });
    expect(errorOf(await join('bob'))).toEqual({ status: 403, message: MEETING_ERRORS.joinTooEarly });
    const start = Date.parse(m.start!);
    clock = start - 10 * MIN;
    try {
      const ok = JoinResponse.parse((await join('bob')).json());
      expect(ok).toMatchObject({ meeting_id: m.id, url: m.url, start: m.start, end: m.end });
      // Not invited: the PIN is needed, and a wrong (or masked) one is refused.
      expect(errorOf(await join('carol'))).toEqual({ status: 403, message: MEETING_ERRORS.wrongPin });
      expect(errorOf(await join('carol', { pin: '1111' }))).toEqual({ status: 403, message: MEETING_ERRORS.wrongPin });
      expect((await join('carol', { pin: '****' })).statusCode).toBe(400);
      expect((await join('carol', { pin: '7788' })).statusCode).toBe(200);
      // Another organisation does not find the ID at all.
      expect((await join('rita', { pin: '7788' })).statusCode).toBe(404);
      clock = Date.parse(m.end!);
      expect(errorOf(await join('bob'))).toEqual({ status: 410, message: MEETING_ERRORS.joinEnded });
    } finally {
      clock = SEED_NOW.getTime();
    }
    expect((await call('bob', 'POST', '/v1/meetings/join', { access_code: '000000001' })).statusCode).toBe(404);
    expect((await call('bob', 'POST', '/v1/meetings/join', { access_code: 'abc' })).statusCode).toBe(400);
    // A room is open any time.
    const room = RoomsResponse.parse((await call('alice', 'GET', '/v1/rooms')).json()).rooms.find((r) => r.meeting_name === 'Acme lobby')!;
    expect((await call('carol', 'POST', '/v1/meetings/join', { access_code: room.meeting_access_code })).statusCode).toBe(200);
  });

  it('gives the meeting page its Meeting info by slug, the PIN to the owner only', async () => {
    const m = await create('alice', { meeting_name: 'Info', pin: '1357', invitees: [{ user_id: ids.bob }] });
    const owner = MeetingInfo.parse((await call('alice', 'GET', `/v1/meetings/by-slug/${m.slug}`)).json());
    expect(owner).toMatchObject({ id: m.id, is_owner: true, has_pin: true, pin: '1357', meeting_title: 'Info', owner_name: 'Alice Nguyen', type: 'meeting' });
    expect(owner.jid).toMatch(new RegExp(`^v\\.${m.slug}@`));
    expect(MeetingInfo.parse((await call('bob', 'GET', `/v1/meetings/by-slug/${m.slug}`)).json())).toMatchObject({ is_owner: false, pin: null, has_pin: true });
    expect((await call('rita', 'GET', `/v1/meetings/by-slug/${m.slug}`)).statusCode).toBe(404);
    expect((await call('alice', 'GET', '/v1/meetings/by-slug/ABCDE')).statusCode).toBe(400);
    expect((await call('alice', 'GET', `/v1/meetings/by-slug/${'z'.repeat(21)}`)).statusCode).toBe(400);
  });

  it('rooms: the organisation sees them; administrators and video administrators book, change and remove them', async () => {
    const perms = async (who: Who) => MeetingPermissions.parse((await call(who, 'GET', '/v1/meetings/permissions')).json());
    expect(await perms('alice')).toEqual({ web_meeting_management: true, can_create_meetings: true, can_book_rooms: false });
    expect((await perms('olivia')).can_book_rooms).toBe(true); // video administrator
    expect((await perms('mateo.garcia')).can_book_rooms).toBe(true); // administrator (role 2)
    const room = { meeting_name: 'Town hall', pin: '2020', moderators: [ids.carol] };
    for (const who of ['alice', 'dave', 'carol'] as const) {
      expect(errorOf(await call(who, 'POST', '/v1/rooms', room))).toEqual({ status: 403, message: MEETING_ERRORS.roomsNotAllowed });
    }
    const made = Meeting.parse((await call('mateo.garcia', 'POST', '/v1/rooms', room)).json());
    expect(made).toMatchObject({ is_room: true, meeting_type: 'room', start: null, end: null, pin: '2020', editable: true });
    expect(made.url).toMatch(/\/uc\/mateo\.garcia\/[a-z0-9]{5,}$/);
    // Colleagues see it; its PIN only those who book rooms and its moderators.
    const asBob = RoomsResponse.parse((await call('bob', 'GET', '/v1/rooms')).json()).rooms.find((r) => r.id === made.id)!;
    expect(asBob).toMatchObject({ pin: null, has_pin: true, editable: false });
    expect(Meeting.parse((await call('carol', 'GET', `/v1/rooms/${made.id}`)).json()).pin).toBe('2020');
    expect(RoomsResponse.parse((await call('rita', 'GET', '/v1/rooms')).json()).rooms.map((r) => r.id)).not.toContain(made.id);
    expect((await call('rita', 'GET', `/v1/rooms/${made.id}`)).statusCode).toBe(404);
    expect((await call('rita', 'PUT', `/v1/rooms/${made.id}`, room)).statusCode).toBe(404);
    expect((await call('rita', 'DELETE', `/v1/rooms/${made.id}`)).statusCode).toBe(404);
    // Rooms and meetings answer on their own paths only.
    expect((await call('mateo.garcia', 'GET', `/v1/meetings/${made.id}`)).statusCode).toBe(404);
    const meeting = await create('alice');
    expect((await call('olivia', 'GET', `/v1/rooms/${meeting.id}`)).statusCode).toBe(404);
    expect((await call('olivia', 'DELETE', `/v1/rooms/${meeting.id}`)).statusCode).toBe(404);
    // Changing and removing.
    expect((await call('bob', 'PUT', `/v1/rooms/${made.id}`, { ...room, meeting_name: 'Mine now' })).statusCode).toBe(403);
    const renamed = Meeting.parse((await call('olivia', 'PUT', `/v1/rooms/${made.id}`, { ...room, meeting_name: 'Town hall 2', pin: '' })).json());
    expect(renamed).toMatchObject({ meeting_name: 'Town hall 2', has_pin: false });
    expect(errorOf(await call('olivia', 'POST', '/v1/rooms', { ...room, pin: '12' }))).toEqual({ status: 400, message: MEETING_ERRORS.pin });
    expect((await call('olivia', 'DELETE', `/v1/rooms/${made.id}`)).statusCode).toBe(204);
    expect((await call('bob', 'GET', `/v1/rooms/${made.id}`)).statusCode).toBe(404);
  });

  it('with web meeting management off, nobody schedules or edits; administrators still book rooms', async () => {
    const existing = await create('alice', { meeting_name: 'Before the switch' });
    const off = await buildApp({ db: t.db, runtimeDir: t.runtimeDir, settings: { webMeetingManagement: false }, meetings: { now: () => clock, chat: null, feeds: { refreshIntervalMs: 0 } } });
    try {
      const send = (who: Who, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
        off.inject({ method, url, headers: bearer(tokens[who]!), ...(payload ? { payload } : {}) });
      expect(errorOf(await send('alice', 'POST', '/v1/meetings', body()))).toEqual({ status: 403, message: MEETING_ERRORS.createNotAllowed });
      expect(errorOf(await send('alice', 'PUT', `/v1/meetings/${existing.id}`, body()))).toEqual({ status: 403, message: MEETING_ERRORS.createNotAllowed });
      expect((await send('alice', 'DELETE', `/v1/meetings/${existing.id}`)).statusCode).toBe(403);
      expect(Meeting.parse((await send('alice', 'GET', `/v1/meetings/${existing.id}`)).json()).editable).toBe(false);
      expect(MeetingPermissions.parse((await send('olivia', 'GET', '/v1/meetings/permissions')).json())).toEqual({ web_meeting_management: false, can_create_meetings: false, can_book_rooms: false });
      expect((await send('olivia', 'POST', '/v1/rooms', { meeting_name: 'Video admin room' })).statusCode).toBe(403);
      expect((await send('mateo.garcia', 'POST', '/v1/rooms', { meeting_name: 'Admin room' })).statusCode).toBe(201);
      expect((await send('alice', 'GET', '/v1/ucc-config')).json().features.webMeetingManagement).toBe(false);
    } finally {
      await off.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody } from '../../src/wire';
import { DEFAULT_FIND_ME, DestinationsCatalogue, FindMe, InboundRoutes, NO_ROUTE } from '../../src/wire/inbound';
import { routeCall, routingDecision } from '../../server/sip/routing';
import { backends, bearer, startTestServer, type TestServer } from './helpers';

describe.each(backends)('inbound rules, find-me and destinations ($name)', (backend) => {
  let t: TestServer;
  let alice: string;
  let dave: string;
  const id: Record<string, string> = {};
  let group: string;
  beforeAll(async () => {
    t = await startTestServer(backend);
    [alice, dave] = await Promise.all([t.login('alice'), t.login('dave')]);
    for (const u of ['alice', 'bob', 'carol', 'rita']) id[u] = String(await t.userId(u));
  });
  afterAll(() => t?.close());

  const call = async (method: 'GET' | 'PUT', url: string, token: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: res.statusCode, body: res.json() };
  };
  const rules = (over: Partial<InboundRoutes>): InboundRoutes => ({ routeAlways: NO_ROUTE, routeBusy: NO_ROUTE, routeNoAnswer: NO_ROUTE, routeOffline: NO_ROUTE, ...over });
  const refused = async (url: string, payload: unknown) => {
    const res = await call('PUT', url, alice, payload);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    return ApiErrorBody.parse(res.body);
  };

  it('destinations list every type: what routes here with its choices, the rest unavailable with why', async () => {
    const res = await call('GET', '/v1/broad/destinations?consumer', alice);
    expect(res.status).toBe(200);
    const { items, types } = DestinationsCatalogue.parse(res.body);
    expect(items[0]).toMatchObject({ destination_type: 'box', destination_parameter: '1001' });
    const byType = new Map(types.map((x) => [x.type, x]));
    expect(types).toHaveLength(24);
    for (const ok of ['box', 'ext', 'phone', 'outside', 'findme', 'busy', 'group', 'repeat_greeting']) expect(byType.get(ok as never)).toMatchObject({ available: true, reason: null });
    for (const no of ['aa', 'queue', 'conferenceHub', 'conference', 'disaHub', 'disa', 'fax', 'slaline', 'cid_route', 'cm', 'hairpin', 'virtual_attendant', 'trunk', 'directory', 'custom', 'ah']) {
      expect(byType.get(no as never)).toMatchObject({ available: false, reason: expect.stringMatching(/\w/), options: null });
    }
    // Boxes: her own first, then colleagues'; extensions: colleagues only; the seeded group.
    expect(byType.get('box')!.options![0]).toEqual({ value: id.alice, name: 'Alice Nguyen', number: '1001' });
    expect(byType.get('box')!.options!.some((o) => o.value === id.bob)).toBe(true);
    expect(byType.get('ext')!.options!.some((o) => o.value === id.alice)).toBe(false);
    expect(byType.get('ext')!.options!.some((o) => o.value === id.rita)).toBe(false);
    const sales = byType.get('group')!.options!.find((o) => o.name === 'Sales team');
    expect(sales).toBeDefined();
    group = sales!.value;
  });

  it('nothing set: four empty rules and the default find-me; calls behave as before', async () => {
    expect((await call('GET', '/v1/broad/inbound', alice)).body).toEqual(rules({}));
    expect((await call('GET', '/v1/broad/find-me', alice)).body).toEqual(DEFAULT_FIND_ME);
    expect(await routingDecision(t.db, '1001')).toBe('ring');
    // The seeded default forward: her voicemail (no voicemail phone here, so nothing happens).
    expect(await routingDecision(t.db, '1001', 'busy')).toBe('none');
  });

  it('saved rules are resolved against her organisation and decide each event', async () => {
    const saved = await call('PUT', '/v1/broad/inbound', alice, rules({
      routeBusy: { drop: 'ext', value: id.bob!, phoneTime: 30 },
      routeNoAnswer: { drop: 'outside', value: '+1 (555) 123-4567', phoneTime: null },
      routeOffline: { drop: 'group', value: group, phoneTime: null },
    }));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    // Only the fields a drop uses are kept; a number is what is dialled.
    expect(InboundRoutes.parse(saved.body)).toEqual(rules({
      routeBusy: { drop: 'ext', value: id.bob!, phoneTime: null },
      routeNoAnswer: { drop: 'outside', value: '+15551234567', phoneTime: null },
      routeOffline: { drop: 'group', value: group, phoneTime: null },
    }));
    expect((await call('GET', '/v1/broad/inbound', alice)).body).toEqual(saved.body);
    expect(await routingDecision(t.db, '1001')).toBe('ring');
    expect(await routingDecision(t.db, '1001', 'busy')).toBe('forward:1002');
    expect(await routingDecision(t.db, '1001', 'noanswer')).toBe('forward:+15551234567');
    expect(await routingDecision(t.db, '1001', 'offline')).toBe('hunt:simultaneous:-:1002/25,1003/25');
    // A proxy that does not tell failures apart keeps the default forward's answer.
    expect(await routingDecision(t.db, '1001', 'unanswered')).toBe('ring');

    expect((await call('PUT', '/v1/broad/inbound', alice, rules({ routeAlways: { drop: 'phone', value: '5551234567', phoneTime: 20 }, routeBusy: { drop: 'busy', value: 'x', phoneTime: null } }))).status).toBe(200);
    expect(await routingDecision(t.db, '1001')).toBe('hunt:sequential:-:5551234567/20');
    expect(await routingDecision(t.db, '1001', 'busy')).toBe('busy');
    // Do-not-disturb still comes first.
    await call('PUT', '/v1/broad/donotdisturb', alice, { do_not_disturb: true });
    expect(await routingDecision(t.db, '1001')).toBe('dnd');
    await call('PUT', '/v1/broad/donotdisturb', alice, { do_not_disturb: false });
    await call('PUT', '/v1/broad/inbound', alice, rules({}));
    expect(await routingDecision(t.db, '1001')).toBe('ring');
  });

  it('refuses each rule the specification names, with its error', async () => {
    const cases: Array<[Partial<InboundRoutes>, string, string]> = [
      [{ routeBusy: { drop: 'box', value: null, phoneTime: null } }, 'routeBusy.value', 'ERROR_BOX'],
      [{ routeBusy: { drop: 'ext', value: '', phoneTime: null } }, 'routeBusy.value', 'ERROR_EXT'],
      [{ routeAlways: { drop: 'trunk', value: '1', phoneTime: null } }, 'routeAlways.value', 'ERROR_TRUNK'],
      [{ routeNoAnswer: { drop: 'outside', value: 'call me', phoneTime: null } }, 'routeNoAnswer.value', 'ERROR_OUTSIDE'],
      [{ routeNoAnswer: { drop: 'phone', value: '5551234567', phoneTime: null } }, 'routeNoAnswer.phoneTime', 'ERROR_PHONE_TIME'],
      [{ routeNoAnswer: { drop: 'phone', value: '5551234567', phoneTime: 7 } }, 'routeNoAnswer.phoneTime', 'ERROR_PHONE_TIME'],
      [{ routeOffline: { drop: 'group', value: null, phoneTime: null } }, 'routeOffline.value', 'ERROR_GROUP'],
      [{ routeOffline: { drop: 'queue', value: '1', phoneTime: null } }, 'routeOffline.drop', 'ERROR_NOT_AVAILABLE'],
      // Values that name nothing of hers: another organisation's user, herself as a colleague, a huge id, a missing group.
      [{ routeBusy: { drop: 'ext', value: id.rita!, phoneTime: null } }, 'routeBusy.value', 'ERROR_EXT'],
      [{ routeBusy: { drop: 'box', value: id.rita!, phoneTime: null } }, 'routeBusy.value', 'ERROR_BOX'],
      [{ routeBusy: { drop: 'ext', value: id.alice!, phoneTime: null } }, 'routeBusy.value', 'ERROR_EXT'],
      [{ routeBusy: { drop: 'ext', value: '99999999999999999999', phoneTime: null } }, 'routeBusy.value', 'ERROR_EXT'],
      [{ routeBusy: { drop: 'group', value: '2147483647', phoneTime: null } }, 'routeBusy.value', 'ERROR_GROUP'],
    ];
    for (const [over, path, message] of cases) {
      const body = await refused('/v1/broad/inbound', rules(over));
      expect(body.details?.[0], JSON.stringify(over)).toEqual({ path, message });
      expect(body.message).not.toBe('');
    }
    // Malformed bodies are 400s too, never 500s.
    for (const bad of [{}, rules({ routeBusy: { drop: 'ext', value: 'a\u0000b', phoneTime: null } }), rules({ routeBusy: { drop: 'nope' as never, value: null, phoneTime: null } }), rules({ routeBusy: { drop: 'phone', value: '5551234567', phoneTime: '20' as never } }), rules({ routeBusy: { drop: 'phone', value: '5551234567', phoneTime: 1e308 * 10 } })]) {
      expect((await call('PUT', '/v1/broad/inbound', alice, bad)).status).toBe(400);
    }
    expect((await call('GET', '/v1/broad/inbound', alice)).body).toEqual(rules({}));
  });

  it('rules stored by an older server or by hand that name nothing (junk ids, other organisations) leave the call ringing, never a failure', async () => {
    const junk = rules({
      routeAlways: { drop: 'ext', value: '99999999999999', phoneTime: null },
      routeBusy: { drop: 'box', value: 'abc', phoneTime: null },
      routeNoAnswer: { drop: 'group', value: '-1', phoneTime: null },
      routeOffline: { drop: 'ext', value: id.rita!, phoneTime: null },
    });
    await t.db.query(`UPDATE user_call_routing SET inbound_routes = $2::jsonb, forward_default = NULL WHERE user_id = $1`, [Number(id.alice), JSON.stringify(junk)]);
    expect(await routingDecision(t.db, '1001')).toBe('ring');
    for (const on of ['busy', 'noanswer', 'offline'] as const) expect(await routingDecision(t.db, '1001', on)).toBe('none');
    await call('PUT', '/v1/broad/inbound', alice, rules({}));
  });

  const findMe = (over: Partial<FindMe> = {}): FindMe => ({
    ...DEFAULT_FIND_ME,
    ring_strategy: 'simultaneous',
    locations: [
      { type: 'browser', value: 'This browser', number: '9999', isActive: true, ringTime: 10 },
      { type: 'mobile', value: '<b>Mobile</b>', number: '(555) 000-1111', isActive: true, ringTime: 20 },
      { type: 'desk', value: 'Desk', number: null, isActive: false, ringTime: 30 },
    ],
    recordName: true,
    ...over,
  });

  it('find-me: saved, then rung by a find-me rule; next steps resolved like rules', async () => {
    const saved = await call('PUT', '/v1/broad/find-me', alice, findMe({ simultaneous_next_step: { drop: 'box', value: id.alice!, phoneTime: null } }));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(FindMe.parse(saved.body).locations.map((l) => l.number)).toEqual([null, '5550001111', null]);
    expect((await call('GET', '/v1/broad/find-me', alice)).body).toEqual(saved.body);
    await call('PUT', '/v1/broad/inbound', alice, rules({ routeAlways: { drop: 'findme', value: null, phoneTime: null } }));
    // recordName is saved, but with no voicemail phone to play it and no name recorded the hunt rings
    // without it (tests/services/find-me.test.ts hears it played).
    expect(await routingDecision(t.db, '1001')).toBe('hunt:simultaneous:next:1001;device=browser/10,5550001111/20');
    // No voicemail phone in this server: the box next step leads nowhere.
    expect(await routingDecision(t.db, '1001', 'huntfailed')).toBe('none');
    await call('PUT', '/v1/broad/inbound', alice, rules({}));
  });

  it('find-me refusals: the window (ERROR_FIND_ME), odd times, ring times, numbers, loops', async () => {
    const cases: Array<[Partial<FindMe>, string, string]> = [
      [{ startTime: '17:00:00', endTime: '09:00:00' }, 'startTime', 'ERROR_FIND_ME'],
      [{ startTime: '09:00:00', endTime: '09:00:00' }, 'startTime', 'ERROR_FIND_ME'],
      [{ startTime: '9:00', endTime: '17:00:00' }, 'startTime', 'ERROR_TIME'],
      [{ startTime: '09:00:00', endTime: '24:00:00' }, 'endTime', 'ERROR_TIME'],
      [{ startTime: '09:00:00', endTime: null }, 'endTime', 'ERROR_TIME'],
      [{ locations: [{ type: 'number', value: null, number: null, isActive: true, ringTime: 10 }] }, 'locations.0.number', 'ERROR_FIND_ME_LOCATION'],
      [{ locations: [{ type: 'browser', value: null, number: null, isActive: true, ringTime: 0 }] }, 'locations.0.ringTime', 'ERROR_PHONE_TIME'],
      [{ locations: Array.from({ length: 11 }, () => ({ type: 'browser' as const, value: null, number: null, isActive: true, ringTime: 10 })) }, 'locations', 'ERROR_FIND_ME_LOCATION'],
      [{ afterHoursNextStep: { drop: 'findme', value: null, phoneTime: null } }, 'afterHoursNextStep.drop', 'ERROR_FIND_ME_LOOP'],
      [{ simultaneous_next_step: { drop: 'ext', value: id.rita!, phoneTime: null } }, 'simultaneous_next_step.value', 'ERROR_EXT'],
    ];
    for (const [over, path, message] of cases) {
      const body = await refused('/v1/broad/find-me', findMe(over));
      expect(body.details, JSON.stringify(over)).toContainEqual({ path, message });
    }
    expect((await refused('/v1/broad/find-me', findMe({ startTime: '17:00:00', endTime: '09:00:00' }))).message).toBe('The find-me start time must be before the end time');
    expect((await call('PUT', '/v1/broad/find-me', alice, { ...findMe(), ring_strategy: 'random' })).status).toBe(400);
    expect((await call('PUT', '/v1/broad/find-me', alice, findMe({ startTime: '09:00:00', endTime: '17:00:00' }))).status).toBe(200);
  });

  it("find-me's window is read in the zone saved with it (the browser's), else in UTC", async () => {
    const tokyo = findMe({ startTime: '09:00:00', endTime: '17:00:00', timeZone: 'Asia/Tokyo', afterHoursNextStep: { drop: 'busy', value: null, phoneTime: null } });
    expect((await call('PUT', '/v1/broad/find-me', alice, { ...tokyo, timeZone: 'Nowhere/Atlantis' })).status).toBe(400);
    expect((await call('PUT', '/v1/broad/find-me', alice, tokyo)).status).toBe(200);
    expect(FindMe.parse((await call('GET', '/v1/broad/find-me', alice)).body).timeZone).toBe('Asia/Tokyo');
    await call('PUT', '/v1/broad/inbound', alice, rules({ routeAlways: { drop: 'findme', value: null, phoneTime: null } }));
    try {
      // 02:00 UTC is 11:00 in Tokyo: within the window; 10:00 UTC is 19:00 there: after hours.
      expect((await routeCall(t.db, '1001', 'incoming', null, new Date('2026-11-27T02:00:00Z')))?.action).toBe('hunt');
      expect((await routeCall(t.db, '1001', 'incoming', null, new Date('2026-11-27T10:00:00Z')))?.action).toBe('busy');
      // Without a zone (saved before zones were kept) the same window is UTC's.
      expect((await call('PUT', '/v1/broad/find-me', alice, { ...tokyo, timeZone: null })).status).toBe(200);
      expect((await routeCall(t.db, '1001', 'incoming', null, new Date('2026-11-27T02:00:00Z')))?.action).toBe('busy');
      expect((await routeCall(t.db, '1001', 'incoming', null, new Date('2026-11-27T10:00:00Z')))?.action).toBe('hunt');
    } finally {
      await call('PUT', '/v1/broad/inbound', alice, rules({}));
      await call('PUT', '/v1/broad/find-me', alice, DEFAULT_FIND_ME);
    }
  });

  it('a limited-access user can neither see nor change them ("authorized" in the refusal)', async () => {
    for (const url of ['/v1/broad/inbound', '/v1/broad/find-me']) {
      const view = await call('GET', url, dave);
      expect(view.status).toBe(403);
      expect(ApiErrorBody.parse(view.body).message).toMatch(/authorized/);
    }
    const put = await call('PUT', '/v1/broad/inbound', dave, rules({}));
    expect(put.status).toBe(403);
    expect(ApiErrorBody.parse(put.body).message).toBe('You are not authorized to make updates');
    expect((await call('PUT', '/v1/broad/find-me', dave, findMe())).status).toBe(403);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody, DestinationsResponse, ForwardSetting } from '../../src/wire';
import { routingDecision } from '../../server/sip/routing';
import { backends, bearer, startTestServer, type TestServer } from './helpers';

describe.each(backends)('do-not-disturb and forwarding ($name)', (backend) => {
  let t: TestServer;
  let alice: string;
  let dave: string;
  let bobId: number;
  beforeAll(async () => {
    t = await startTestServer(backend);
    [alice, dave] = await Promise.all([t.login('alice'), t.login('dave')]);
    bobId = await t.userId('bob');
  });
  afterAll(() => t?.close());

  const call = async (method: 'GET' | 'PUT', url: string, token: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: res.statusCode, body: res.json() };
  };

  it('DND is off until set, then Kamailio is told to answer busy', async () => {
    expect((await call('GET', '/v1/broad/donotdisturb', alice)).body).toEqual({ do_not_disturb: false });
    expect(await routingDecision(t.db, '1001')).toBe('ring');
    expect((await call('PUT', '/v1/broad/donotdisturb', alice, { do_not_disturb: true })).body).toEqual({ do_not_disturb: true });
    expect((await call('GET', '/v1/broad/donotdisturb', alice)).body).toEqual({ do_not_disturb: true });
    expect(await routingDecision(t.db, '1001')).toBe('dnd');
    await call('PUT', '/v1/broad/donotdisturb', alice, { do_not_disturb: false });
    expect(await routingDecision(t.db, '1001')).toBe('ring');
  });

  it('forward always to a colleague: the destination is checked and resolved to their extension', async () => {
    const dest = (await call('GET', '/v1/broad/destinations', alice)).body;
    const bob = DestinationsResponse.parse(dest).items.find((d) => d.destination_id === String(bobId));
    expect(bob).toMatchObject({ destination_type: 'ext', destination_parameter: '1002' });
    // The client may send a stale name or number: the server's own record of bob wins.
    const saved = await call('PUT', '/v1/broad/forwards/always', alice, { enabled: true, destination: { ...bob, destination_name: 'x', destination_parameter: '99999' } });
    expect(saved.status).toBe(200);
    expect(ForwardSetting.parse(saved.body).destination).toMatchObject({ destination_parameter: '1002', destination_name: bob!.destination_name });
    expect(await routingDecision(t.db, '1001')).toBe('forward:1002');
    // The user id alone is enough to name a colleague.
    expect((await call('PUT', '/v1/broad/forwards/always', alice, { enabled: true, destination: { ...bob, destination_parameter: null } })).status).toBe(200);
    expect(await routingDecision(t.db, '1001')).toBe('forward:1002');
    // Off keeps the destination for next time, and calls ring again.
    await call('PUT', '/v1/broad/forwards/always', alice, { enabled: false, destination: saved.body.destination });
    expect((await call('GET', '/v1/broad/forwards/always', alice)).body).toMatchObject({ enabled: false, destination: { destination_parameter: '1002' } });
    expect(await routingDecision(t.db, '1001')).toBe('ring');
  });

  it('forward always to an outside number', async () => {
    const res = await call('PUT', '/v1/broad/forwards/always', alice, {
      enabled: true,
      destination: { destination_type: 'phone', destination_id: null, destination_name: 'Mobile', destination_parameter: '(555) 123-4567' },
    });
    expect(res.status).toBe(200);
    expect(await routingDecision(t.db, '1001')).toBe('forward:5551234567');
    await call('PUT', '/v1/broad/forwards/always', alice, { enabled: false, destination: null });
  });

  it('refuses what cannot be routed, with the rule that was broken', async () => {
    const bad = [
      [{ enabled: true, destination: null }, 'destination', 'destination_required'],
      [{ enabled: true, destination: { destination_type: 'queue', destination_id: '1', destination_name: null, destination_parameter: '7' } }, 'destination.destination_parameter', 'destination_not_available'],
      [{ enabled: true, destination: { destination_type: 'ext', destination_id: null, destination_name: null, destination_parameter: '1002' } }, 'destination.destination_id', 'destination_id_required'],
      [{ enabled: true, destination: { destination_type: 'phone', destination_id: null, destination_name: null, destination_parameter: 'call me' } }, 'destination.destination_parameter', 'destination_number_invalid'],
    ] as const;
    for (const [payload, path, code] of bad) {
      const res = await call('PUT', '/v1/broad/forwards/always', alice, payload);
      expect(res.status).toBe(400);
      expect(ApiErrorBody.parse(res.body).details).toEqual([{ path, message: code }]);
    }
    // Another organisation's user is not a destination.
    const rita = await t.userId('rita');
    const res = await call('PUT', '/v1/broad/forwards/always', alice, { enabled: true, destination: { destination_type: 'ext', destination_id: String(rita), destination_name: null, destination_parameter: '2000' } });
    expect(res.status).toBe(400);
    expect(await routingDecision(t.db, '1001')).toBe('ring');
  });

  it('a disabled forward is checked and resolved as an enabled one is', async () => {
    const rita = await t.userId('rita');
    const other = await call('PUT', '/v1/broad/forwards/default', alice, { enabled: false, destination: { destination_type: 'ext', destination_id: String(rita), destination_name: null, destination_parameter: '2000' } });
    expect(other.status).toBe(400);
    const junk = await call('PUT', '/v1/broad/forwards/default', alice, { enabled: false, destination: { destination_type: 'phone', destination_id: null, destination_name: null, destination_parameter: 'call me' } });
    expect(ApiErrorBody.parse(junk.body).details).toEqual([{ path: 'destination.destination_parameter', message: 'destination_number_invalid' }]);
    const markup = '<img src=x onerror=alert(1)>';
    const saved = await call('PUT', '/v1/broad/forwards/default', alice, { enabled: false, destination: { destination_type: 'ext', destination_id: String(bobId), destination_name: markup, destination_parameter: '1' } });
    expect(saved.status).toBe(200);
    expect(ForwardSetting.parse((await call('GET', '/v1/broad/forwards/default', alice)).body)).toEqual({
      enabled: false,
      destination: { destination_type: 'ext', destination_id: String(bobId), destination_name: 'Bob Martinez', destination_parameter: '1002' },
    });
    const number = await call('PUT', '/v1/broad/forwards/default', alice, { enabled: false, destination: { destination_type: 'phone', destination_id: '5', destination_name: markup, destination_parameter: '555 123 4567' } });
    expect(ForwardSetting.parse(number.body).destination).toEqual({ destination_type: 'phone', destination_id: null, destination_name: null, destination_parameter: '5551234567' });
    await call('PUT', '/v1/broad/forwards/default', alice, { enabled: false, destination: null });
  });

  it('a limited-access user may look but not change: a 403 saying "You are not authorized to make updates"', async () => {
    expect((await call('GET', '/v1/broad/donotdisturb', dave)).status).toBe(200);
    for (const [url, body] of [['/v1/broad/donotdisturb', { do_not_disturb: true }], ['/v1/broad/forwards/always', { enabled: false, destination: null }]] as const) {
      const res = await call('PUT', url, dave, body);
      expect(res.status).toBe(403);
      expect(ApiErrorBody.parse(res.body).message).toBe('You are not authorized to make updates');
    }
  });

  it('the internal routing endpoint answers only Kamailio (its secret, on loopback)', async () => {
    const res = await t.app.inject({ url: '/internal/sip/route?callee=1001' });
    expect(res.statusCode).toBe(403);
    const wrong = await t.app.inject({ url: '/internal/sip/route?callee=1001', headers: { 'x-uc-internal': 'guess' } });
    expect(wrong.statusCode).toBe(403);
  });
});

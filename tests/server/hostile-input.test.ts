import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes, type RouteEntry } from '../../server/app';
import { webhookSignature } from '../../server/texts/routes';
import { ApiErrorBody } from '../../src/wire';
import { backends, bearer, PNG, startTestServer, type TestServer } from './helpers';

/*
 * Input the database cannot store must be a 400 with a message on every route, never a 500.
 * PGlite takes some of it (NUL, huge ints, odd years) that PostgreSQL refuses, so the assertion is
 * on the validation itself (400 and its message), which holds on both backends. The routes come
 * from the app, so a new route is covered without being listed here.
 */
const NUL = 'a\u0000b';
const BIG = '2147483648';
const WEBHOOK = '/v1/p1/messaging-webhook/:org';
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const paramNames = (url: string) => [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
const fill = (url: string, values: Record<string, string>) => url.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(values[name] ?? '1'));

describe.each(backends)('hostile input ($name)', (backend) => {
  let t: TestServer;
  let alice: string;
  let aliceId: number;
  let routes: readonly RouteEntry[];
  beforeAll(async () => {
    t = await startTestServer(backend);
    alice = await t.login('alice');
    aliceId = await t.userId('alice');
    routes = registeredRoutes(t.app).filter((r) => !r.url.includes('*'));
  });
  afterAll(() => t?.close());

  const send = (method: string, url: string, body?: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...bearer(alice), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { payload: body } : {}),
    });
  const label = (r: RouteEntry, what: string) => `${r.method} ${r.url} ${what}`;
  const expect400 = (res: LightMyRequestResponse, what: string) => {
    expect({ what, status: res.statusCode }).toEqual({ what, status: 400 });
    expect(ApiErrorBody.parse(res.json()).message, what).toMatch(/\w/);
  };
  const expectNo500 = (res: LightMyRequestResponse, what: string) => {
    expect({ what, status: res.statusCode < 500 }).toEqual({ what, status: true });
  };

  it('enumerates the app routes', () => {
    expect(routes.length).toBeGreaterThan(60);
    expect(routes).toContainEqual({ method: 'POST', url: '/login' });
  });

  it("NUL in any path parameter is a 400; a surrogate's CESU bytes never a 500", async () => {
    for (const r of routes) {
      for (const name of paramNames(r.url)) {
        for (const bad of [NUL, '\ud800x']) {
          // A lone surrogate cannot be percent-encoded as UTF-8; %ED%A0%80 is its CESU form.
          const url = bad === NUL ? fill(r.url, { [name]: bad }) : fill(r.url, {}).replace(/\/1(\/|$)/, '/%ED%A0%80x$1');
          const res = await send(r.method, url, WITH_BODY.has(r.method) ? '{}' : undefined);
          if (bad === NUL) expect400(res, label(r, `:${name}=NUL`));
          else expectNo500(res, label(r, `:${name}=surrogate`));
        }
      }
    }
  });

  // A lone surrogate has no UTF-8 form, so it cannot arrive percent-encoded in a URL: only JSON can carry one.
  it('NUL in a query value or name is a 400', async () => {
    for (const r of routes) {
      const url = fill(r.url, { id: String(aliceId) });
      expect400(await send(r.method, `${url}?q=${encodeURIComponent(NUL)}`, WITH_BODY.has(r.method) ? '{}' : undefined), label(r, '?q=NUL'));
      expect400(await send(r.method, `${url}?${encodeURIComponent(NUL)}=1`, WITH_BODY.has(r.method) ? '{}' : undefined), label(r, '?NUL=1'));
    }
  });

  it('NUL or a lone surrogate anywhere in a JSON body is a 400', async () => {
    // The carrier webhook reads its raw body to check the signature first (below).
    for (const r of routes.filter((x) => WITH_BODY.has(x.method) && x.url !== WEBHOOK)) {
      const url = fill(r.url, { id: String(aliceId) });
      for (const body of [
        '{"username":"a\\u0000b","password":"x"}',
        '{"value":"\\ud800x"}',
        '{"nested":[{"deep":"\\u0000"}]}',
        '{"a\\u0000":1}',
        '"\\udfff"',
      ]) {
        expect400(await send(r.method, url, body), label(r, body));
      }
    }
  });

  it('NUL in a correctly signed carrier webhook body is a 400', async () => {
    const account = await t.app.inject({ url: '/v1/texts/carrier', headers: bearer(await t.login('olivia')) });
    expect(account.statusCode).toBe(200);
    const { webhook_url: url, secret } = account.json() as { webhook_url: string; secret: string };
    const body = JSON.stringify({ id: 'x1', from: '+15550100000', to: ['+15550100001'], text: NUL, media: [] });
    const res = await t.app.inject({
      method: 'POST',
      url,
      payload: body,
      headers: { 'content-type': 'application/json', 'x-uc-signature': webhookSignature(secret, body) },
    });
    expect400(res, 'webhook');
  });

  it('ids out of range or not numbers in the path never reach the database', async () => {
    for (const r of routes) {
      for (const name of paramNames(r.url)) {
        for (const bad of [BIG, '99999999999', 'abc', '-1', '1e3', '0x10']) {
          const res = await send(r.method, fill(r.url, { [name]: bad }), WITH_BODY.has(r.method) ? '{}' : undefined);
          expectNo500(res, label(r, `:${name}=${bad}`));
        }
      }
    }
    for (const path of ['', '/transcription', '/download', '/new', '/old']) {
      const method = path === '/new' || path === '/old' ? 'POST' : 'GET';
      expect400(await send(method, `/v2/voicemail/${BIG}${path}`), `${method} /v2/voicemail/${BIG}${path}`);
    }
    expect400(await send('DELETE', `/v2/voicemail/${BIG}`), `DELETE /v2/voicemail/${BIG}`);
  });

  it('ids out of range or not numbers in a body are a 400', async () => {
    const cases: Array<[string, string, unknown]> = [
      ['DELETE', '/v1/voice-messages', { messages: [2147483648] }],
      ['PUT', '/v1/broad/forwards/always', { enabled: true, destination: { destination_type: 'ext', destination_id: 'abc', destination_name: null, destination_parameter: null } }],
      ['PUT', '/v1/broad/forwards/always', { enabled: true, destination: { destination_type: 'ext', destination_id: BIG, destination_name: null, destination_parameter: null } }],
      ['POST', '/v1/chat/rooms', { subject: 'x', member_ids: [2147483648] }],
      ['PUT', `/v1/users/${aliceId}/email-addresses`, { items: [{ id: 2147483648, email: 'a@example.com', custom_type: null }] }],
      ['PUT', `/v1/users/${aliceId}/phone-numbers`, { items: [{ source: 'personal', source_id: 2147483648, extension: null, number: '+15550100', is_primary: false }] }],
    ];
    for (const [method, url, body] of cases) expect400(await send(method, url, JSON.stringify(body)), `${method} ${url} ${JSON.stringify(body)}`);
  });

  it('every route with a body survives hostile shapes', async () => {
    const bodies = ['[]', '"x"', '1e309', '123456789012345678901234567890', 'null', '{"messages":[1e20],"member_ids":[-2147483649],"id":2147483648,"value":{"__proto__":1}}'];
    for (const r of routes.filter((x) => WITH_BODY.has(x.method))) {
      const url = fill(r.url, { id: String(aliceId) });
      for (const body of bodies) expectNo500(await send(r.method, url, body), label(r, body));
    }
  });

  it('a read_at PostgreSQL cannot store is a 400', async () => {
    for (const readAt of ['-010000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '0000-01-01T00:00:00Z']) {
      const res = await send('PUT', '/v1/texts/conversations/x/read', JSON.stringify({ read_at: readAt }));
      expect400(res, readAt);
    }
  });

  it('a truncated multipart body on the uploads is a 400', async () => {
    const boundary = '----uctruncated';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
    const payload = Buffer.concat([Buffer.from(head), PNG.subarray(0, 20)]);
    const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    const contact = await send('POST', '/v1/contacts', JSON.stringify({ first_name: 'Trunc', last_name: 'Ated', company: '', title: '', notes: '', time_zone: null, birthday: null, phone_numbers: [], emails: [], addresses: [], instant_messengers: [] }));
    expect(contact.statusCode).toBe(201);
    for (const url of [`/v1/users/${aliceId}/avatar`, `/v1/contacts/${contact.json().id}/avatar`]) {
      const res = await t.app.inject({ method: 'POST', url, payload, headers: { ...bearer(alice), ...headers } });
      expect400(res, url);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../server/app';
import { backends, bearer, startTestServer, type TestServer } from './helpers';

describe.each(backends)('response headers ($name)', (backend) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(backend);
  });
  afterAll(() => t?.close());

  it('no JSON answer may be stored by a browser or a proxy: personal data (voicemail lists, profiles…)', async () => {
    const alice = await t.login('alice');
    const aliceId = String(await t.userId('alice'));
    const checked: string[] = [];
    for (const r of registeredRoutes(t.app).filter((x) => x.method === 'GET' && !x.url.includes('*'))) {
      const url = r.url.replace(/:id\b/, aliceId).replace(/:(\w+)/g, 'x');
      const res = await t.app.inject({ url, headers: bearer(alice) });
      if (!String(res.headers['content-type']).startsWith('application/json')) continue;
      checked.push(`${url} ${res.statusCode}`);
      expect(res.headers['cache-control'], `${url} (${res.statusCode})`).toBe('no-store');
    }
    expect(checked).toEqual(expect.arrayContaining([`/v1/voice-messages 200`, `/v2/user/${aliceId}/voicemails 200`, `/v1/users/${aliceId} 200`]));
  });
});

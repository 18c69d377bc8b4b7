import { describe, expect, it, vi } from 'vitest';
import { ApiClient, ApiError } from '../../src/kernel';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('API client token handling', () => {
  it('names the session its token was issued under (the sid claim, base64url), else null', () => {
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const api = new ApiClient();
    expect(api.sessionId).toBeNull();
    api.setToken(`${b64({ alg: 'HS256' })}.${b64({ sub: 'user:7', sid: '123', name: '\u00ff\u00fe?' })}.sig`);
    expect(api.sessionId).toBe('123');
    api.setToken(`${b64({ alg: 'HS256' })}.${b64({ sub: 'user:7' })}.sig`);
    expect(api.sessionId).toBeNull();
    api.setToken('not a token');
    expect(api.sessionId).toBeNull();
  });

  it('on a 401 renews once and retries once with the new token', async () => {
    const calls: Array<[string, string | undefined]> = [];
    const fetchFn = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      const u = String(url);
      const auth = (init?.headers as Record<string, string> | undefined)?.Authorization;
      calls.push([u, auth]);
      if (u === '/v1/access-token') return json(200, { access_token: 'fresh', token_type: 'Bearer', expires_in: 900, user_id: 7 });
      return auth === 'Bearer fresh' ? json(200, { ok: true }) : json(401, { error: 'unauthorized', message: 'expired' });
    });
    const api = new ApiClient({ fetch: fetchFn as typeof fetch });
    api.setToken('stale');
    await expect(api.get('/v1/thing')).resolves.toEqual({ ok: true });
    expect(calls).toEqual([
      ['/v1/thing', 'Bearer stale'],
      ['/v1/access-token', undefined],
      ['/v1/thing', 'Bearer fresh'],
    ]);
  });

  it('does not loop: a second 401 after renewal surfaces as an error', async () => {
    const fetchFn = vi.fn(async (url: RequestInfo | URL) =>
      String(url) === '/v1/access-token' ? json(200, { access_token: 'x', token_type: 'Bearer', expires_in: 900, user_id: 7 }) : json(401, { error: 'unauthorized', message: 'no' }),
    );
    const api = new ApiClient({ fetch: fetchFn as typeof fetch });
    await expect(api.get('/v1/thing')).rejects.toMatchObject({ status: 401 });
    expect(fetchFn).toHaveBeenCalledTimes(3);
  });

  it('a renewal refused with 401 or 403 ends the session; other failures do not', async () => {
    for (const [status, ends] of [
      [401, true],
      [403, true],
      [500, false],
    ] as const) {
      const onAuthFailure = vi.fn();
      const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const fetchFn = vi.fn(async (url: RequestInfo | URL) => (String(url) === '/v1/access-token' ? json(status, { error: 'x', message: 'refused' }) : json(401, { error: 'x', message: 'expired' })));
      const api = new ApiClient({ fetch: fetchFn as typeof fetch, onAuthFailure });
      await expect(api.get('/v1/thing')).rejects.toBeInstanceOf(ApiError);
      expect(onAuthFailure).toHaveBeenCalledTimes(ends ? 1 : 0);
      err.mockRestore();
    }
  });

  it('keeps the server message of a 4xx', async () => {
    const api = new ApiClient({ fetch: (async () => json(400, { error: 'bad_request', message: 'Sort direction not supported' })) as typeof fetch });
    await expect(api.get('/v1/x')).rejects.toMatchObject({ status: 400, message: 'Sort direction not supported' });
  });

  it('asks a read once more when its connection broke (an API process died answering it); never a write, nor twice, nor when the caller aborted', async () => {
    const reset = () => new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
    let failures = 1;
    const seen: string[] = [];
    const fetchFn = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      seen.push(`${init?.method} ${String(url)}`);
      if (failures-- > 0) throw reset();
      return json(200, { ok: true });
    });
    const api = new ApiClient({ fetch: fetchFn as typeof fetch });
    await expect(api.get('/v1/thing')).resolves.toEqual({ ok: true });
    expect(seen).toEqual(['GET /v1/thing', 'GET /v1/thing']);

    seen.length = 0;
    failures = 1;
    await expect(api.post('/v1/thing', { a: 1 })).rejects.toBeInstanceOf(TypeError);
    expect(seen).toEqual(['POST /v1/thing']);

    seen.length = 0;
    failures = 2;
    await expect(api.get('/v1/thing')).rejects.toBeInstanceOf(TypeError);
    expect(seen).toEqual(['GET /v1/thing', 'GET /v1/thing']);

    seen.length = 0;
    failures = 1;
    const aborted = new AbortController();
    aborted.abort();
    await expect(api.get('/v1/thing', undefined, undefined, aborted.signal)).rejects.toBeInstanceOf(TypeError);
    expect(seen).toEqual(['GET /v1/thing']);
  });
});

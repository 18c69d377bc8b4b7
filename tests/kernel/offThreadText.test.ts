// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TextFetchReply, TextFetchRequest } from '../../src/kernel/textFetch.worker';
import { wholeLineParts } from '../../src/kernel/textParts';

/** A stand-in for the browser's Worker: answers each request with what `reply` says. */
class FakeWorker {
  static reply: (m: TextFetchRequest) => TextFetchReply[] | 'crash' | 'never' = () => 'never';
  static seen: TextFetchRequest[] = [];
  onmessage: ((e: MessageEvent<TextFetchReply>) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  constructor(
    readonly url: URL,
    readonly opts: WorkerOptions,
  ) {}
  postMessage(m: TextFetchRequest) {
    FakeWorker.seen.push(m);
    if (m.abort) return;
    const r = FakeWorker.reply(m);
    if (r === 'never') return;
    queueMicrotask(() => (r === 'crash' ? this.onerror?.({}) : r.forEach((data) => this.onmessage?.({ data } as MessageEvent<TextFetchReply>))));
  }
  terminate() {}
}

const load = async () => (await import('../../src/kernel/offThreadText')).fetchText;

describe('a large text body read in a worker (ApiClient.textInParts)', () => {
  beforeEach(() => {
    vi.resetModules();
    FakeWorker.seen = [];
    vi.stubGlobal('Worker', FakeWorker);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('hands the worker the absolute address and the headers, and gives back the status and the body in its parts', async () => {
    FakeWorker.reply = (m) => [
      { id: m.id, part: 'a\tb' },
      { id: m.id, part: 'c\td\ne\tf' },
      { id: m.id, status: 200 },
    ];
    const res = await (await load())('/v1/contacts/index?format=tsv', { headers: { Authorization: 'Bearer t' } });
    expect(FakeWorker.seen[0]).toMatchObject({ url: `${location.origin}/v1/contacts/index?format=tsv`, headers: { Authorization: 'Bearer t' } });
    expect(res.ok).toBe(true);
    expect(res.parts).toEqual(['a\tb', 'c\td\ne\tf']);
    expect(await res.text()).toBe('a\tb\nc\td\ne\tf');
  });

  it('the worker cuts a body into parts at line breaks, nothing lost', () => {
    const text = Array.from({ length: 5000 }, (_, i) => `row ${i}\tname ${'x'.repeat(i % 40)}`).join('\n');
    const parts = wholeLineParts(text, 4096);
    expect(parts.length).toBeGreaterThan(10);
    expect(parts.join('\n')).toBe(text);
    expect(wholeLineParts(`${text}\n`, 4096).join('\n')).toBe(text);
    expect(wholeLineParts('')).toEqual([]);
    expect(wholeLineParts('one line, no break', 4)).toEqual(['one line, no break']);
  });

  it('a refusal keeps its status and JSON body, for the client to renew a token or show the message', async () => {
    FakeWorker.reply = (m) => [{ id: m.id, status: 403, body: '{"error":"forbidden","message":"Not yours"}' }];
    const res = await (await load())('/v1/x', {});
    expect(res).toMatchObject({ status: 403, ok: false });
    expect(await res.json()).toEqual({ error: 'forbidden', message: 'Not yours' });
  });

  it('a request that failed on the network rejects with the TypeError fetch gives', async () => {
    FakeWorker.reply = (m) => [{ id: m.id, failed: 'Failed to fetch' }];
    await expect((await load())('/v1/x', {})).rejects.toThrow(new TypeError('Failed to fetch'));
  });

  it('a worker that cannot run is given up: the waiting request and later ones go through fetch on this thread', async () => {
    FakeWorker.reply = () => 'crash';
    const fetchFn = vi.fn(async () => new Response('from the page', { status: 200 }));
    vi.stubGlobal('fetch', fetchFn);
    const fetchText = await load();
    expect(await (await fetchText('/v1/x', {})).text()).toBe('from the page');
    expect(await (await fetchText('/v1/y', {})).text()).toBe('from the page');
    expect(FakeWorker.seen).toHaveLength(1);
    expect(fetchFn).toHaveBeenCalledTimes(2);
  });

  it('an abort stops the worker\'s request and rejects with the reason', async () => {
    FakeWorker.reply = () => 'never';
    const c = new AbortController();
    const p = (await load())('/v1/x', { signal: c.signal });
    c.abort(new DOMException('gone', 'AbortError'));
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(FakeWorker.seen.at(-1)).toMatchObject({ id: FakeWorker.seen[0]!.id, abort: true });
  });

  it('ApiClient.text renews an expired token and asks again through the worker', async () => {
    FakeWorker.reply = (m) =>
      m.headers?.Authorization === 'Bearer fresh'
        ? [{ id: m.id, part: 'row 1' }, { id: m.id, part: 'row 2' }, { id: m.id, status: 200 }]
        : [{ id: m.id, status: 401, body: '{"error":"unauthorized","message":"expired"}' }];
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ access_token: 'fresh', token_type: 'Bearer', expires_in: 900, user_id: 7 }), { status: 200 })));
    const { ApiClient } = await import('../../src/kernel');
    const api = new ApiClient();
    api.setToken('stale');
    expect(await api.textInParts('/v1/contacts/index', { query: { format: 'tsv' } })).toEqual(['row 1', 'row 2']);
    expect(FakeWorker.seen.map((m) => m.headers?.Authorization)).toEqual(['Bearer stale', 'Bearer fresh']);
  });
});

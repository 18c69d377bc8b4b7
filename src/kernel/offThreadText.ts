/**
 * The transport of `ApiClient.text`: a GET whose body is read as text in a worker. Loaded on first
 * use (nothing of it on the first screen). A worker that cannot start (an old browser, a policy
 * that forbids it) is given up for the page's life and the requests go through `fetch` here.
 */
import type { TextFetchReply, TextFetchRequest } from './textFetch.worker';

/** What `ApiClient`'s send reads of a response, and the body as parts of whole lines. */
export interface TextResponse {
  status: number;
  ok: boolean;
  /** Joined with '\n': the body, less one trailing line break. */
  parts: string[];
  text(): Promise<string>;
  json(): Promise<unknown>;
}

interface Waiting {
  parts: string[];
  resolve(r: TextResponse): void;
  reject(err: unknown): void;
  retry(): void;
}

let worker: Worker | null = null;
let broken = false;
let nextId = 0;
const waiting = new Map<number, Waiting>();

const response = (status: number, parts: string[]): TextResponse => ({
  status,
  ok: status >= 200 && status < 300,
  parts,
  text: async () => parts.join('\n'),
  json: async () => JSON.parse(parts.join('\n')) as unknown,
});

function theWorker(): Worker | null {
  if (broken || typeof Worker === 'undefined') return null;
  if (worker) return worker;
  try {
    worker = new Worker(new URL('./textFetch.worker.ts', import.meta.url), { type: 'module' });
  } catch {
    broken = true;
    return null;
  }
  worker.onmessage = (e: MessageEvent<TextFetchReply>) => {
    const r = e.data;
    const w = waiting.get(r.id);
    if (!w) return;
    if ('part' in r) return void w.parts.push(r.part);
    waiting.delete(r.id);
    // The same error a failed fetch gives, so that the client's one retry of a read applies.
    if ('failed' in r) w.reject(new TypeError(r.failed));
    else w.resolve(response(r.status, r.body === undefined ? w.parts : [r.body]));
  };
  worker.onerror = () => {
    broken = true;
    worker?.terminate();
    worker = null;
    const all = [...waiting.values()];
    waiting.clear();
    for (const w of all) w.retry();
  };
  return worker;
}

async function onThisThread(url: string, init: RequestInit): Promise<TextResponse> {
  const res = await fetch(url, init);
  return response(res.status, [await res.text()]);
}

/** `fetch(url, init)` for a GET, its body read as text in a worker where there is one (then in parts). */
export function fetchText(url: string, init: RequestInit): Promise<TextResponse> {
  const w = theWorker();
  if (!w) return onThisThread(url, init);
  const id = ++nextId;
  const signal = init.signal ?? undefined;
  return new Promise<TextResponse>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      if (!waiting.delete(id)) return;
      w.postMessage({ id, abort: true } satisfies TextFetchRequest);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);
    waiting.set(id, {
      parts: [],
      resolve: (r) => (done(), resolve(r)),
      reject: (err) => (done(), reject(err)),
      retry: () => (done(), onThisThread(url, init).then(resolve, reject)),
    });
    w.postMessage({ id, url: new URL(url, location.href).href, headers: init.headers as Record<string, string> } satisfies TextFetchRequest);
  });
}

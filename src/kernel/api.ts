// Not the zod schemas: the boot path checks its responses without zod (see wire/check.ts).
import type { AccessTokenResponse as AccessToken } from '../wire/auth';
import { AccessTokenResponse } from '../wire/tokenResponse';
import type { ApiErrorBody } from '../wire/common';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.message);
    this.name = 'ApiError';
  }
}

/** What checks a response body: a zod schema, or a boot-path parser from wire/bootResponses. */
export interface ResponseSchema<T> {
  parse(value: unknown): T;
}

/** What the client reads of a response: a fetch `Response`, or the off-thread text transport's. */
type Fetched = Pick<Response, 'status' | 'ok' | 'text' | 'json'>;

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions<T> {
  query?: Query;
  body?: unknown;
  schema?: ResponseSchema<T>;
  signal?: AbortSignal;
  /** Outlives the page (sent from `pagehide`). */
  keepalive?: boolean;
}

export interface ApiClientOptions {
  baseUrl?: string;
  /** Renewal was refused (401/403): the session is over. */
  onAuthFailure?: () => void;
  fetch?: typeof fetch;
}

/**
 * REST client with a bearer access token. A 401 triggers one renewal (refresh cookie) and one retry;
 * a renewal refused with 401/403 ends the session; other renewal failures are logged and surface.
 * A read that fails on the network is sent once more.
 */
export class ApiClient {
  private token: string | null = null;
  private renewing: Promise<AccessToken> | null = null;
  private readonly base: string;
  private readonly doFetch: typeof fetch;

  constructor(private readonly opts: ApiClientOptions = {}) {
    this.base = opts.baseUrl ?? '';
    this.doFetch = opts.fetch ?? ((...a) => fetch(...a));
  }

  setToken(token: string | null): void {
    this.token = token;
  }

  get hasToken(): boolean {
    return this.token !== null;
  }

  /**
   * The refresh session the access token was issued under (its `sid` claim), or null. Read, not
   * verified (the server verifies): a window opened for this session names it (a meeting's `ssid`).
   */
  get sessionId(): string | null {
    const payload = this.token?.split('.')[1];
    if (!payload) return null;
    try {
      const sid: unknown = (JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { sid?: unknown }).sid;
      return typeof sid === 'string' ? sid : null;
    } catch {
      return null;
    }
  }

  url(path: string, query?: Query): string {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
    const s = qs.toString();
    return `${this.base}${path}${s ? `?${s}` : ''}`;
  }

  /** Exchanges the refresh cookie for a new access token. */
  renew(): Promise<AccessToken> {
    this.renewing ??= (async () => {
      try {
        const res = await this.doFetch(this.url('/v1/access-token'), { credentials: 'same-origin' });
        const body: unknown = await res.json().catch(() => ({}));
        if (!res.ok) throw new ApiError(res.status, errorBody(body, res.status));
        const parsed = AccessTokenResponse.parse(body);
        this.token = parsed.access_token;
        return parsed;
      } finally {
        this.renewing = null;
      }
    })();
    return this.renewing;
  }

  async request<T>(method: string, path: string, opts: RequestOptions<T> = {}): Promise<T> {
    const res = await this.send(method, path, opts);
    if (res.status === 204) return undefined as T;
    const body: unknown = await res.json();
    return opts.schema ? opts.schema.parse(body) : (body as T);
  }

  /** Raw response for binary bodies (audio, CSV) with the same auth handling. */
  async raw(method: string, path: string, opts: RequestOptions<unknown> = {}): Promise<Response> {
    return this.send(method, path, opts);
  }

  /**
   * A GET of a large text body (the contacts directory: megabytes) with the same auth handling,
   * as parts of whole lines (joined with '\n': the body, less one trailing line break). Read in a
   * worker: Chromium reads a response's body on the thread that fetched it, and 4.5 MB held the
   * main thread for 100–300 ms (docs/PERFORMANCE.md); the parts come over one by one. With an
   * injected `fetch` (tests), or no workers, it is one part read here.
   */
  async textInParts(path: string, opts: Pick<RequestOptions<unknown>, 'query' | 'signal'> = {}): Promise<string[]> {
    if (this.opts.fetch || typeof Worker === 'undefined') return [await (await this.send('GET', path, opts)).text()];
    const { fetchText } = await import('./offThreadText');
    return (await this.send('GET', path, opts, false, fetchText)).parts;
  }

  get<T>(path: string, query?: Query, schema?: ResponseSchema<T>, signal?: AbortSignal): Promise<T> {
    return this.request('GET', path, { query, schema, signal });
  }
  put<T>(path: string, body: unknown, schema?: ResponseSchema<T>): Promise<T> {
    return this.request('PUT', path, { body, schema });
  }
  post<T>(path: string, body: unknown, schema?: ResponseSchema<T>): Promise<T> {
    return this.request('POST', path, { body, schema });
  }
  patch<T>(path: string, body: unknown, schema?: ResponseSchema<T>): Promise<T> {
    return this.request('PATCH', path, { body, schema });
  }
  delete<T>(path: string): Promise<T> {
    return this.request('DELETE', path, {});
  }

  /**
   * A multipart upload that reports how much has gone (fetch cannot tell of a request body's
   * progress): XMLHttpRequest, with the same token, renewal on 401 and error shape as `request`.
   */
  async upload<T>(method: string, path: string, form: FormData, onProgress: (fraction: number) => void, schema?: ResponseSchema<T>, retried = false): Promise<T> {
    const res = await new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(method, this.url(path));
      xhr.setRequestHeader('Accept', 'application/json');
      if (this.token) xhr.setRequestHeader('Authorization', `Bearer ${this.token}`);
      xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
      xhr.onload = () => {
        let body: unknown = {};
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          /* not JSON: the status speaks */
        }
        resolve({ status: xhr.status, body });
      };
      xhr.onerror = () => reject(new TypeError('Network error'));
      xhr.send(form);
    });
    if (res.status === 401 && !retried) {
      await this.renewAfter401();
      return this.upload(method, path, form, onProgress, schema, true);
    }
    if (res.status < 200 || res.status >= 300) throw new ApiError(res.status, errorBody(res.body, res.status));
    return schema ? schema.parse(res.body) : (res.body as T);
  }

  private async renewAfter401(): Promise<void> {
    try {
      await this.renew();
    } catch (err) {
      if (err instanceof ApiError && (err.status === 401 || err.status === 403)) this.opts.onAuthFailure?.();
      else console.error('access token renewal failed', err);
      throw err;
    }
  }

  private async send(method: string, path: string, opts: RequestOptions<unknown>, retried?: boolean): Promise<Response>;
  private async send<R extends Fetched>(method: string, path: string, opts: RequestOptions<unknown>, retried: boolean, transport: (url: string, init: RequestInit) => Promise<R>): Promise<R>;
  private async send(method: string, path: string, opts: RequestOptions<unknown>, retried = false, transport: (url: string, init: RequestInit) => Promise<Fetched> = this.doFetch): Promise<Fetched> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    let body: BodyInit | undefined;
    if (opts.body instanceof FormData) body = opts.body;
    else if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const init: RequestInit = { method, headers, body, signal: opts.signal, credentials: 'same-origin', ...(opts.keepalive ? { keepalive: true } : {}) };
    let res: Fetched;
    try {
      res = await transport(this.url(path, opts.query), init);
    } catch (err) {
      // A read whose connection broke (an API process that died while answering, a proxy that
      // dropped it) is asked once more: the server keeps nothing of a GET, so asking twice is safe.
      // Writes are not: their failure is the caller's to show, with what the user typed kept.
      if (method !== 'GET' || opts.signal?.aborted || !(err instanceof TypeError)) throw err;
      res = await transport(this.url(path, opts.query), init);
    }
    if (res.status === 401 && !retried) {
      await this.renewAfter401();
      return this.send(method, path, opts, true, transport);
    }
    if (!res.ok) {
      const payload: unknown = await res.json().catch(() => ({}));
      throw new ApiError(res.status, errorBody(payload, res.status));
    }
    return res;
  }
}

function errorBody(payload: unknown, status: number): ApiErrorBody {
  if (payload && typeof payload === 'object' && 'message' in payload && typeof payload.message === 'string') {
    const p = payload as Partial<ApiErrorBody>;
    return { error: p.error ?? `http_${status}`, message: p.message ?? '', details: p.details, ...(typeof p.retry_after === 'number' ? { retry_after: p.retry_after } : {}) };
  }
  return { error: `http_${status}`, message: `HTTP ${status}` };
}

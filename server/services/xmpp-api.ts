import type { ServicesConfig } from './layout';

export class XmppApiError extends Error {
  constructor(
    readonly command: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`ejabberd ${command}: HTTP ${status} ${body.slice(0, 300)}`);
  }
}

/** ejabberd's mod_http_api (loopback only): `POST /api/<command>` with a JSON object of arguments. */
export interface XmppApi {
  call<T = unknown>(command: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<T>;
}

export function xmppApi(cfg: Pick<ServicesConfig, 'ports'>): XmppApi {
  const base = `http://127.0.0.1:${cfg.ports.xmppApi}/api/`;
  return {
    async call<T>(command: string, args: Record<string, unknown> = {}, timeoutMs = 10_000): Promise<T> {
      const res = await fetch(base + command, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(args),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      if (!res.ok) throw new XmppApiError(command, res.status, text);
      return (text ? JSON.parse(text) : null) as T;
    },
  };
}

import { ejabberdNodes } from './ejabberd-nodes';
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

/** One node's API, and only that node's (its own status, its own view of the cluster). */
export function xmppNodeApi(port: number): XmppApi {
  const base = `http://127.0.0.1:${port}/api/`;
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

/**
 * The chat server's API for provisioning: in a cluster any node acts for all (accounts and rooms are
 * in the shared database, sessions and rooms are routed across nodes), so a node that does not
 * answer (refused, reset, timed out) hands the call to the next. An HTTP error is ejabberd's answer
 * and is not retried elsewhere.
 */
export function xmppApi(cfg: Pick<ServicesConfig, 'ports'> & Partial<Pick<ServicesConfig, 'cluster'>>): XmppApi {
  const nodes = ejabberdNodes({ ports: cfg.ports, cluster: cfg.cluster ?? false }).map((n) => xmppNodeApi(n.api));
  return {
    async call<T>(command: string, args: Record<string, unknown> = {}, timeoutMs = 10_000): Promise<T> {
      let lastError: unknown;
      for (const node of nodes) {
        try {
          return await node.call<T>(command, args, timeoutMs);
        } catch (err) {
          if (err instanceof XmppApiError) throw err;
          lastError = err;
        }
      }
      throw lastError;
    },
  };
}

/**
 * Kamailio's JSON-RPC (jsonrpcs over its xhttp listener, `/RPC`), which the configuration opens
 * only to this host with the internal secret. Used to read what the registrar knows now.
 */
import { internalApiSecret, kamailioNode, type KamailioNode } from './kamailio';
import type { ServicesConfig } from './layout';

export class KamailioRpcError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
  ) {
    super(message);
  }
}

interface RpcAnswer {
  result?: unknown;
  error?: { code?: number; message?: string };
}

/**
 * In a cluster every node holds every registration (DMQ): the first node answers, the second when
 * the first is unreachable.
 */
export async function kamailioRpc(cfg: ServicesConfig, method: string, params: readonly (string | number)[], timeoutMs = 2000): Promise<unknown> {
  try {
    return await nodeRpc(cfg, 1, method, params, timeoutMs);
  } catch (err) {
    if (!cfg.cluster || !(err instanceof KamailioRpcError) || err.code !== null) throw err;
    return nodeRpc(cfg, 2, method, params, timeoutMs);
  }
}

async function nodeRpc(cfg: ServicesConfig, node: KamailioNode, method: string, params: readonly (string | number)[], timeoutMs: number): Promise<unknown> {
  const { host, sipWs } = kamailioNode(cfg, node);
  const res = await fetch(`http://${host}:${sipWs}/RPC`, {
    method: 'POST',
    // Kamailio closes the connection after each reply without saying so (no Connection: close), so a
    // pooled socket would be reused just as it closes: "other side closed", 8 calls in 200 in a row.
    headers: { 'content-type': 'application/json', 'x-uc-internal': await internalApiSecret(cfg), connection: 'close' },
    body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }),
    signal: AbortSignal.timeout(timeoutMs),
  }).catch((err: unknown) => {
    throw new KamailioRpcError(`Kamailio RPC unreachable: ${String(err)}`, null);
  });
  // jsonrpcs puts its JSON-RPC error in the body of a non-2xx answer too ("AOR not found in location
  // table" comes with HTTP 500): read the body whatever the status, and fall back to the status only
  // when there is no JSON-RPC answer in it.
  const answer = (await res.json().catch(() => null)) as RpcAnswer | null;
  if (answer?.error) throw new KamailioRpcError(answer.error.message ?? 'Kamailio RPC error', answer.error.code ?? res.status);
  if (!res.ok || !answer) throw new KamailioRpcError(`Kamailio RPC answered HTTP ${res.status}`, res.status);
  return answer.result;
}

/** One registered contact of a user, as the registrar reports it. */
export interface RegisteredContact {
  address: string;
  userAgent: string | null;
  /** Seconds until it expires. */
  expires: number;
}

/** The user's registered contacts (none when the registrar has no entry for the extension). */
export async function registeredContacts(cfg: ServicesConfig, extension: string): Promise<RegisteredContact[]> {
  let result: unknown;
  try {
    result = await kamailioRpc(cfg, 'ul.lookup', ['location', extension]);
  } catch (err) {
    // Kamailio answers "AOR not found in location table" (code 500, in an HTTP 500) for an extension
    // with no contact: that is an answer (no phones), not a failure.
    if (err instanceof KamailioRpcError && /not found/i.test(err.message)) return [];
    throw err;
  }
  const contacts = (result as { Contacts?: unknown } | null)?.Contacts;
  if (!Array.isArray(contacts)) return [];
  return contacts.flatMap((entry: unknown) => {
    const c = (entry as { Contact?: Record<string, unknown> } | null)?.Contact;
    if (!c || typeof c.Address !== 'string') return [];
    const ua = c['User-Agent'];
    return [{ address: c.Address, userAgent: typeof ua === 'string' && ua ? ua : null, expires: typeof c.Expires === 'number' ? c.Expires : 0 }];
  });
}

/** Browsers register over WebSocket (JsSIP puts `transport=ws` in its contact); anything else is a phone. */
export const isBrowserContact = (address: string) => /;transport=wss?\b/i.test(address);

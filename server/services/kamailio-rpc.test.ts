import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KamailioRpcError, registeredContacts } from './kamailio-rpc';
import { readServicesConfig, type ServicesConfig } from './layout';

// Kamailio's xhttp as it behaves (measured against 5.6): it answers without "Connection: close" and
// closes the connection a moment later. A pooled socket reused in that moment failed with "other
// side closed", which made GET /v1/devices/check answer 503 now and then.
const asked: Array<string | undefined> = [];
const server = createServer((req, res) => {
  asked.push(req.headers.connection);
  res.setHeader('content-type', 'application/json');
  // What jsonrpcs answers for an extension that has no contact (measured against 5.6).
  if (req.headers['x-test-aor'] === 'none') {
    res.statusCode = 500;
    res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: 500, message: 'AOR not found in location table' } }));
    return;
  }
  if (req.headers['x-test-aor'] === 'broken') {
    res.statusCode = 502;
    res.end('<html>bad gateway</html>');
    return;
  }
  res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { AoR: '1001', Contacts: [{ Contact: { Address: 'sip:x@127.0.0.1;transport=ws', Expires: 300 } }] } }));
  res.on('finish', () => setTimeout(() => req.socket.destroy(), 1));
});
let cfg: ServicesConfig;
let dir: string;

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  dir = await mkdtemp(path.join(tmpdir(), 'rpc-'));
  const base = readServicesConfig({}, dir);
  cfg = { ...base, ports: { ...base.ports, sipWs: (server.address() as AddressInfo).port } };
});
afterAll(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

it('says each connection is for one call, so none is reused while Kamailio closes it', async () => {
  for (let i = 0; i < 20; i++) {
    expect(await registeredContacts(cfg, '1001')).toMatchObject([{ expires: 300 }]);
    await new Promise((r) => setTimeout(r, i % 3));
  }
  expect(asked).toEqual(Array(20).fill('close'));
});

it('reads the JSON-RPC error in a non-2xx answer: "AOR not found" (HTTP 500) means no contacts', async () => {
  const only = (aor: string) => (input: RequestInfo | URL, init?: RequestInit) =>
    realFetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-test-aor': aor } });
  const realFetch = globalThis.fetch;
  try {
    globalThis.fetch = only('none');
    expect(await registeredContacts(cfg, '1003')).toEqual([]);
    globalThis.fetch = only('broken');
    await expect(registeredContacts(cfg, '1003')).rejects.toMatchObject({ constructor: KamailioRpcError, code: 502 });
  } finally {
    globalThis.fetch = realFetch;
  }
});

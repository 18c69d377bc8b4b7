import { createHmac } from 'node:crypto';
import { expect } from '@playwright/test';
import { DEMO_PASSWORD } from './fixtures';

/** Alice's messaging number in the demo data. */
export const ALICE_DID = '+14155550101';

export interface Carrier {
  base: string;
  webhook: string;
  secret: string;
}

/** The organisation's webhook and secret, as its administrator (olivia) sees them. */
export async function carrier(base: string): Promise<Carrier> {
  const login = await fetch(`${base}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'olivia', password: DEMO_PASSWORD }) });
  const { access_token } = (await login.json()) as { access_token: string };
  const acct = (await (await fetch(`${base}/v1/texts/carrier`, { headers: { authorization: `Bearer ${access_token}` } })).json()) as { webhook_url: string; secret: string };
  return { base, webhook: acct.webhook_url, secret: acct.secret };
}

/** A provider POSTs a signed inbound text to the webhook. */
export async function inbound(c: Carrier, id: string, from: string, text: string): Promise<void> {
  const body = JSON.stringify({ id, from, to: [ALICE_DID], text });
  const res = await fetch(c.base + c.webhook, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-uc-signature': `sha256=${createHmac('sha256', c.secret).update(body).digest('hex')}` },
    body,
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

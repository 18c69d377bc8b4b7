/**
 * Texts against the real ejabberd of this run: a text sent through the API and one POSTed to the
 * inbound webhook reach every connected client of the user at once (two resources here), as a
 * body-less headline from the conversation's address carrying the text as JSON; no other user
 * receives them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { xmppProvisioning } from '../../server/chat/routes';
import { webhookSignature } from '../../server/texts/routes';
import { CarrierAccountResponse, SendTextResponse } from '../../src/wire/texts';
import { XmppTokenResponse } from '../../src/wire/services';
import { startServicesApi, type ServicesApi } from './harness';
import { child, StropheClient, type ReceivedMessage } from './peers/xmpp_strophe';

const ALICE_DID = '+14155550101';
let api: ServicesApi;
const open: StropheClient[] = [];

async function client(username: string): Promise<StropheClient> {
  const t = XmppTokenResponse.parse(await api.get('/v1/xmpp-token', await api.login(username)));
  const c = await StropheClient.connect(`ws://127.0.0.1:${api.cfg.ports.xmppHttp}/ws`, `${t.jid}/texts-${randomUUID().slice(0, 6)}`, t.token);
  open.push(c);
  return c;
}

/** The text a headline carries, when it is one. */
function textOf(m: ReceivedMessage): SendTextResponse | null {
  if (m.type !== 'headline') return null;
  const el = child(m.stanza, 'text', 'urn:uc:texts:0');
  return el ? SendTextResponse.parse(JSON.parse(el.textContent ?? '')) : null;
}

beforeAll(async () => {
  api = await startServicesApi();
  await xmppProvisioning(api.app);
});
afterEach(async () => {
  for (const c of open.splice(0)) await c.close().catch(() => undefined);
});
afterAll(async () => {
  await api?.close();
});

describe('texts through ejabberd', () => {
  it('a sent text and an inbound webhook text reach every client of the user, live, and nobody else', async () => {
    const [a1, a2, bob] = [await client('alice'), await client('alice'), await client('bob')];
    const nonce = randomUUID().slice(0, 8);
    const sent = SendTextResponse.parse(await api.post('/v1/texts/messages', await api.login('alice'), { from: ALICE_DID, to: ['212-555-0123'], body: `out ${nonce}` }));
    for (const c of [a1, a2]) {
      const m = await c.waitForMessage((x) => textOf(x)?.message.body === `out ${nonce}`, 10_000, 'the sent text');
      expect(m.from).toBe(sent.conversation.jid);
      expect(m.body).toBeNull();
      expect(textOf(m)).toMatchObject({ conversation: { jid: sent.conversation.jid, kind: 'sms' }, message: { id: sent.message.id, direction: 'out' } });
    }

    const acct = CarrierAccountResponse.parse(await api.get('/v1/texts/carrier', await api.login('olivia')));
    const body = JSON.stringify({ id: `svc-${nonce}`, from: '+12125550123', to: [ALICE_DID], text: `in ${nonce}` });
    const res = await api.app.inject({ method: 'POST', url: acct.webhook_url, headers: { 'content-type': 'application/json', 'x-uc-signature': webhookSignature(acct.secret, body) }, payload: body });
    expect(res.statusCode).toBe(200);
    for (const c of [a1, a2]) {
      const m = await c.waitForMessage((x) => textOf(x)?.message.body === `in ${nonce}`, 10_000, 'the inbound text');
      // Same conversation as the reply: c.<alice's number>.<the other number>.
      expect(m.from).toBe(sent.conversation.jid);
      expect(textOf(m)?.message).toMatchObject({ direction: 'in', from: '+12125550123' });
    }
    // Bob's client heard of neither (a ping round trip orders it after anything ejabberd had queued).
    await bob.ping();
    expect(bob.received.filter((m) => textOf(m))).toEqual([]);
  });
});

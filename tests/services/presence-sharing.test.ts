/**
 * share_presence is enforced by ejabberd, not by the client: two real XMPP clients (Strophe over
 * WebSocket, as the product's), alice sending bob directed presence as the product's client does.
 * Off, ejabberd drops her presence to colleagues (her default privacy list) and bob is told she is
 * unavailable; on again, bob gets her presence, and her later changes reach him.
 */
import { randomUUID } from 'node:crypto';
import { $pres } from 'strophe.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XmppTokenResponse } from '../../src/wire/services';
import { putAs, startServicesApi, type ServicesApi } from './harness';
import { StropheClient } from './peers/xmpp_strophe';

interface SeenPresence {
  from: string;
  type: string;
  status: string | null;
}

let api: ServicesApi;
let alice: StropheClient;
let bob: StropheClient;
let aliceToken = '';
let aliceId = 0;
const seen: SeenPresence[] = [];

async function connect(username: string): Promise<StropheClient> {
  const t = XmppTokenResponse.parse(await api.get('/v1/xmpp-token', await api.login(username)));
  return StropheClient.connect(`ws://127.0.0.1:${api.cfg.ports.xmppHttp}/ws`, `${t.jid}/presence-${randomUUID().slice(0, 8)}`, t.token);
}

beforeAll(async () => {
  api = await startServicesApi();
  aliceToken = await api.login('alice');
  aliceId = await api.userId('alice');
  alice = await connect('alice');
  bob = await connect('bob');
  bob.conn.addHandler(
    (el) => {
      seen.push({ from: el.getAttribute('from') ?? '', type: el.getAttribute('type') ?? 'available', status: el.getElementsByTagName('status')[0]?.textContent ?? null });
      return true;
    },
    null,
    'presence',
    null,
  );
});

afterAll(async () => {
  await alice?.close();
  await bob?.close();
  if (api && aliceId) await putAs(api, aliceToken, `/v1/users/${aliceId}/settings/uc`, { share_presence: true });
  await api?.close();
});

const bobJid = () => `bob@${api.cfg.domain}`;
const fromAlice = () => seen.filter((p) => p.from.startsWith(`alice@${api.cfg.domain}/`));
/** Alice's client announcing a state to bob, as the product's client does (directed presence). */
const announce = (status: string) => alice.conn.send($pres({ to: bobJid() }).c('show').t('chat').up().c('status').t(status));
const share = (on: boolean) => putAs(api, aliceToken, `/v1/users/${aliceId}/settings/uc`, { share_presence: on });

describe('share_presence, enforced by ejabberd', () => {
  it('off: bob sees alice unavailable and none of her presence gets through; on: he sees her again', async () => {
    const nonce = randomUUID().slice(0, 8);
    announce(`before ${nonce}`);
    await expect.poll(() => fromAlice().some((p) => p.status === `before ${nonce}`), { timeout: 10_000 }).toBe(true);

    expect((await share(false)).statusCode).toBe(200);
    await expect.poll(() => fromAlice().at(-1)?.type, { timeout: 10_000 }).toBe('unavailable');
    // Her client keeps announcing (a client that ignores the setting): ejabberd drops it. A chat
    // message after it takes the same path, so once bob has the message the presence had its chance.
    announce(`hidden ${nonce}`);
    alice.sendChat(bobJid(), `marker ${nonce}`);
    await bob.waitForMessage((m) => m.body === `marker ${nonce}`, 10_000, 'the marker message');
    expect(fromAlice().some((p) => p.status === `hidden ${nonce}`)).toBe(false);
    expect(fromAlice().at(-1)?.type).toBe('unavailable');

    expect((await share(true)).statusCode).toBe(200);
    // Her presence as ejabberd has it now (her session's), sent to colleagues at once.
    await expect.poll(() => fromAlice().at(-1)?.type, { timeout: 10_000 }).toBe('available');
    announce(`after ${nonce}`);
    await expect.poll(() => fromAlice().some((p) => p.status === `after ${nonce}`), { timeout: 10_000 }).toBe(true);
  });
});

/**
 * The inbound rules (PUT /v1/broad/inbound) change where a real call rings: the real Kamailio asks
 * the API with the failure it met (busy, offline) and follows the rule. JsSIP phones in Debian's
 * Chromium answer whatever rings them (unless told to answer busy).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_ROUTE, type InboundRoute, type InboundRoutes } from '../../src/wire/inbound';
import { putAs, startServicesApi, type ServicesApi } from './harness';
import { signedInPhones, type SignedInPhones, type SipPage } from './sip-page';

let api: ServicesApi;
let signedIn: SignedInPhones;
let phones: Record<string, SipPage>;
let tokens: Record<string, string>;
const ids: Record<string, string> = {};
const USERS = ['alice', 'bob', 'carol'] as const;

beforeAll(async () => {
  api = await startServicesApi();
  signedIn = await signedInPhones(api, USERS);
  ({ phones, tokens } = signedIn);
  for (const u of [...USERS, 'olivia']) ids[u] = String(await api.userId(u));
  tokens.olivia = await api.login('olivia');
});

afterAll(async () => {
  await signedIn?.close();
  await api?.close();
});

const put = (user: string, url: string, body: unknown) => putAs(api, tokens[user]!, url, body);
const setRules = async (user: string, over: Partial<InboundRoutes>) => {
  const res = await put(user, '/v1/broad/inbound', { routeAlways: NO_ROUTE, routeBusy: NO_ROUTE, routeNoAnswer: NO_ROUTE, routeOffline: NO_ROUTE, ...over });
  expect(res.statusCode, res.body).toBe(200);
};
const toCarol: InboundRoute = { drop: 'ext', value: null, phoneTime: null };
const rings = async (user: string) => (await phones[user]!.sessions()).length;

describe('inbound rules through the real Kamailio', () => {
  beforeAll(async () => {
    toCarol.value = ids.carol!;
    // No default forward (the demo's is voicemail): only the rules under test act.
    for (const u of ['bob', 'olivia']) expect((await put(u, '/v1/broad/forwards/default', { enabled: false, destination: null })).statusCode).toBe(200);
  });

  it('routeBusy: a busy callee’s call rings the colleague the rule names, with audio', async () => {
    await setRules('bob', { routeBusy: toCarol });
    await phones.bob!.setIncoming('busy');
    try {
      const [bobRings, carolRings] = [await rings('bob'), await rings('carol')];
      const key = await phones.alice!.call('1002');
      await phones.alice!.waitFor(key, 'confirmed');
      expect(await rings('bob')).toBe(bobRings + 1);
      expect(await rings('carol')).toBe(carolRings + 1);
      await phones.alice!.waitForInboundBytes(key, 0, 10_000);
      await phones.alice!.hangup(key);
      await phones.alice!.waitFor(key, 'ended');
    } finally {
      await phones.bob!.setIncoming('answer');
      await setRules('bob', {});
    }
  });

  it('routeBusy busy: a busy tone even where the default forward would have taken the call', async () => {
    expect((await put('bob', '/v1/broad/forwards/default', { enabled: true, destination: { destination_type: 'ext', destination_id: ids.carol, destination_name: null, destination_parameter: null } })).statusCode).toBe(200);
    await setRules('bob', { routeBusy: { drop: 'busy', value: null, phoneTime: null } });
    await phones.bob!.setIncoming('busy');
    try {
      const carolRings = await rings('carol');
      const key = await phones.alice!.call('1002');
      const ended = await phones.alice!.waitFor(key, 'ended');
      expect([ended.confirmed, ended.endStatus]).toEqual([false, 486]);
      expect(await rings('carol')).toBe(carolRings);
    } finally {
      await phones.bob!.setIncoming('answer');
      await setRules('bob', {});
      await put('bob', '/v1/broad/forwards/default', { enabled: false, destination: null });
    }
  });

  it('routeAlways busy: busy at once, the phone never rings', async () => {
    await setRules('bob', { routeAlways: { drop: 'busy', value: null, phoneTime: null } });
    try {
      const bobRings = await rings('bob');
      const key = await phones.alice!.call('1002');
      const ended = await phones.alice!.waitFor(key, 'ended');
      expect([ended.confirmed, ended.endStatus]).toEqual([false, 486]);
      expect(await rings('bob')).toBe(bobRings);
    } finally {
      await setRules('bob', {});
    }
  });

  it('routeNoAnswer: unanswered within the ring time, the call rings the colleague instead', async () => {
    // A busy rule too, which must not be the one that acts: the proxy says which failure it met.
    await setRules('bob', { routeNoAnswer: toCarol, routeBusy: { drop: 'busy', value: null, phoneTime: null } });
    await phones.bob!.setIncoming('ring');
    try {
      const [bobRings, carolRings] = [await rings('bob'), await rings('carol')];
      const key = await phones.alice!.call('1002');
      // Bob's phone rings for the ring time (25 s), then carol's rings and answers.
      const confirmed = await phones.alice!.waitFor(key, 'confirmed', 45_000);
      expect(confirmed.confirmed).toBe(true);
      expect(await rings('bob')).toBe(bobRings + 1);
      expect(await rings('carol')).toBe(carolRings + 1);
      await phones.alice!.hangup(key);
      await phones.alice!.waitFor(key, 'ended');
    } finally {
      await phones.bob!.setIncoming('answer');
      await setRules('bob', {});
    }
  }, 60_000);

  it('routeOffline: a call to someone with no phone registered rings the colleague', async () => {
    // olivia (1000) has no phone in this test.
    await setRules('olivia', { routeOffline: toCarol });
    try {
      const carolRings = await rings('carol');
      const key = await phones.alice!.call('1000');
      await phones.alice!.waitFor(key, 'confirmed');
      expect(await rings('carol')).toBe(carolRings + 1);
      await phones.alice!.hangup(key);
      await phones.alice!.waitFor(key, 'ended');
    } finally {
      await setRules('olivia', {});
    }
    const key = await phones.alice!.call('1000');
    expect((await phones.alice!.waitFor(key, 'ended')).endStatus).toBe(480);
  });
});

/**
 * Hunts through the real Kamailio: find-me lists (sequential and simultaneous, a device of the
 * user's own, the next step when nobody answers), a group, a number through the gateway with its
 * ring time, a colleague's box after busy, and the greeting alone. JsSIP phones in Debian's
 * Chromium answer (or ring, or answer busy), a baresip desk phone answers by itself, sipp is the
 * gateway. Ring times are 5 s, the shortest a user can choose.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { internalApiSecret } from '../../server/services/kamailio';
import { pcm16Wav } from '../../server/media/wav';
import { readGreetingInfo } from '../../server/services/voicemail';
import { DEFAULT_FIND_ME, NO_ROUTE, type FindMe, type FindMeLocation, type InboundRoute, type InboundRoutes } from '../../src/wire/inbound';
import { deskPhoneFor, putAs, startServicesApi, type ServicesApi } from './harness';
import { Baresip } from './peers/sip_baresip';
import { startGatewayUas } from './peers/sip_gateway';
import { signedInPhones, type SignedInPhones, type SipPage } from './sip-page';

let api: ServicesApi;
let signedIn: SignedInPhones;
let phones: Record<string, SipPage>;
let tokens: Record<string, string>;
let desk: Baresip | null = null;
let messageStartsMs = 0;
const ids: Record<string, string> = {};
const USERS = ['alice', 'bob', 'carol', 'aiko.tanaka'] as const;

beforeAll(async () => {
  api = await startServicesApi();
  messageStartsMs = (await readGreetingInfo(api.cfg)).messageStartsMs;
  signedIn = await signedInPhones(api, USERS);
  ({ phones, tokens } = signedIn);
  for (const u of [...USERS, 'olivia']) ids[u] = String(await api.userId(u));
  tokens.olivia = await api.login('olivia');
  // No default forward (the demo's is voicemail): only the rules under test act.
  for (const u of ['bob', 'olivia']) expect((await put(u, '/v1/broad/forwards/default', { enabled: false, destination: null })).statusCode).toBe(200);
  // The API connects to the voicemail phone in the background; boxes answer once it has.
  const secret = await internalApiSecret(api.cfg);
  const route = async () => (await api.app.inject({ url: '/internal/sip/route?callee=1002&on=voicemail', headers: { 'x-uc-internal': secret } })).body;
  for (const deadline = Date.now() + 15_000; (await route()) !== 'voicemail:1002'; ) {
    if (Date.now() > deadline) throw new Error('the API server did not connect to the voicemail phone');
    await new Promise((r) => setTimeout(r, 100));
  }
});

afterAll(async () => {
  await desk?.stop().catch(() => desk?.kill());
  await signedIn?.close();
  await api?.close();
});

const put = (user: string, url: string, body: unknown) => putAs(api, tokens[user]!, url, body);
const route = (drop: InboundRoute['drop'], value: string | null = null, phoneTime: number | null = null): InboundRoute => ({ drop, value, phoneTime });
const setRules = async (user: string, over: Partial<InboundRoutes>) => {
  const res = await put(user, '/v1/broad/inbound', { routeAlways: NO_ROUTE, routeBusy: NO_ROUTE, routeNoAnswer: NO_ROUTE, routeOffline: NO_ROUTE, ...over });
  expect(res.statusCode, res.body).toBe(200);
};
/** Bob's find-me list, and his calls go to it. */
const bobFindsMe = async (over: Partial<FindMe> & { locations: FindMeLocation[] }) => {
  const res = await put('bob', '/v1/broad/find-me', { ...DEFAULT_FIND_ME, ...over });
  expect(res.statusCode, res.body).toBe(200);
  await setRules('bob', { routeAlways: route('findme') });
};
const at = (type: FindMeLocation['type'], number: string | null = null, ringTime = 5): FindMeLocation => ({ type, value: type, number, isActive: true, ringTime });
const sessions = async (user: string) => phones[user]!.sessions();

async function voicemailsOf(user: string): Promise<Array<{ id: number; caller_number: string; duration: number }>> {
  const { rows } = await api.db.query<{ id: number; caller_number: string; duration: number }>('SELECT id, caller_number, duration FROM voicemails WHERE user_id = $1 ORDER BY id', [Number(ids[user])]);
  return rows;
}

/** Alice calls `number`; resolves with the call's key once answered (it fails the test otherwise). */
async function answeredCall(number: string, timeoutMs = 15_000, caller = 'alice'): Promise<string> {
  const key = await phones[caller]!.call(number);
  expect(await phones[caller]!.waitFor(key, 'confirmed', timeoutMs)).toMatchObject({ confirmed: true, ended: false });
  return key;
}

async function hangUp(key: string, caller = 'alice'): Promise<void> {
  await phones[caller]!.hangup(key);
  await phones[caller]!.waitFor(key, 'ended');
}

/** Restores a phone's answering and the user's rules however the test ended. */
async function resetting(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } finally {
    for (const u of USERS) await phones[u]!.setIncoming('answer');
    await setRules('bob', {});
    await setRules('olivia', {});
  }
}

describe('find-me through the real Kamailio', () => {
  it('sequential: the first location rings its 5 s unanswered, then the second answers; audio flows', async () => {
    await resetting(async () => {
      await bobFindsMe({ ring_strategy: 'sequential', locations: [at('browser'), at('number', '1003')] });
      await phones.bob!.setIncoming('ring');
      const [bobBefore, carolBefore] = [(await sessions('bob')).length, (await sessions('carol')).length];
      const started = Date.now();
      const key = await answeredCall('1002');
      const waited = Date.now() - started;
      // Bob's browser had its 5 s first (and was cancelled then); only then did carol's phone ring.
      expect(waited).toBeGreaterThanOrEqual(4500);
      const bob = (await sessions('bob')).slice(bobBefore);
      expect(bob).toMatchObject([{ confirmed: false, ended: true, endCause: 'Canceled' }]);
      expect((await sessions('carol')).slice(carolBefore)).toMatchObject([{ confirmed: true }]);
      expect(await phones.alice!.waitForInboundBytes(key, 1600)).toBeGreaterThan(1600);
      await hangUp(key);
    });
  }, 30_000);

  it('simultaneous: both locations ring at once; the first to answer takes the call and the other stops ringing', async () => {
    await resetting(async () => {
      await bobFindsMe({ ring_strategy: 'simultaneous', locations: [at('browser'), at('number', '1003')] });
      await phones.bob!.setIncoming('ring');
      const [bobBefore, carolBefore] = [(await sessions('bob')).length, (await sessions('carol')).length];
      const started = Date.now();
      const key = await answeredCall('1002');
      // Carol answered at once: nobody waited for a ring time.
      expect(Date.now() - started).toBeLessThan(4500);
      expect((await sessions('carol')).slice(carolBefore)).toMatchObject([{ confirmed: true }]);
      await expect.poll(async () => (await sessions('bob')).slice(bobBefore), { timeout: 5000 }).toMatchObject([{ confirmed: false, ended: true, endCause: 'Canceled' }]);
      expect(await phones.alice!.waitForInboundBytes(key, 1600)).toBeGreaterThan(1600);
      await hangUp(key);
    });
  });

  it('a device of the user: the desk phone only, or the browsers only; a device with nothing registered is skipped', async () => {
    await resetting(async () => {
      // No desk phone yet: nothing to ring, and no next step: unavailable at once.
      await bobFindsMe({ ring_strategy: 'sequential', locations: [at('desk')] });
      const bobBefore = (await sessions('bob')).length;
      const none = await phones.alice!.call('1002');
      expect(await phones.alice!.waitFor(none, 'ended')).toMatchObject({ confirmed: false, endStatus: 480 });

      desk = await bobDeskPhone();
      const since = desk.events.length;
      const key = await answeredCall('1002');
      await desk.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 10_000, since);
      expect(await phones.alice!.waitForInboundBytes(key, 1600)).toBeGreaterThan(1600);
      // His browser was never offered it.
      expect((await sessions('bob')).length).toBe(bobBefore);
      await hangUp(key);
      await desk.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);

      await bobFindsMe({ ring_strategy: 'sequential', locations: [at('browser')] });
      const deskCalls = desk.events.filter((e) => e.type === 'CALL_ESTABLISHED').length;
      const browser = await answeredCall('1002');
      expect((await sessions('bob')).slice(bobBefore)).toMatchObject([{ confirmed: true }]);
      expect(await phones.alice!.waitForInboundBytes(browser, 1600)).toBeGreaterThan(1600);
      await hangUp(browser);
      expect(desk.events.filter((e) => e.type === 'CALL_ESTABLISHED' || e.type === 'CALL_INCOMING').length).toBe(deskCalls);
    });
    // Off again: it would answer the calls of the next tests by itself.
    await desk?.stop().catch(() => desk?.kill());
    desk = null;
  });

  it("simultaneous browser and desk phone: the desk phone answers, the caller's browser keeps the call with audio", async () => {
    desk = await bobDeskPhone();
    await resetting(async () => {
      await bobFindsMe({ ring_strategy: 'simultaneous', locations: [at('browser'), at('desk')] });
      await phones.bob!.setIncoming('ring');
      const bobBefore = (await sessions('bob')).length;
      const since = desk!.events.length;
      const key = await answeredCall('1002');
      await desk!.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 10_000, since);
      await expect.poll(async () => (await sessions('bob')).slice(bobBefore), { timeout: 5000 }).toMatchObject([{ confirmed: false, ended: true, endCause: 'Canceled' }]);
      // Two seconds on, the desk phone's audio still arrives and the call is up (the caller's
      // browser used to drop it at once: the relayed answer had no rtcp-mux).
      const first = await phones.alice!.waitForInboundBytes(key, 1600);
      const answeredAt = Date.now();
      await expect.poll(async () => (Date.now() - answeredAt >= 2000 ? phones.alice!.inboundBytes(key) : 0), { timeout: 10_000 }).toBeGreaterThan(first + 8000);
      expect((await sessions('alice')).find((s) => s.key === key)).toMatchObject({ confirmed: true, ended: false });
      await hangUp(key);
      await desk!.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
    });
    await desk?.stop().catch(() => desk?.kill());
    desk = null;
  });

  it("announceBetween: the caller hears the announcement as early media while each location rings, then the answer connects with audio both ways", async () => {
    await resetting(async () => {
      await bobFindsMe({ ring_strategy: 'sequential', announceBetween: true, locations: [at('browser'), at('number', '1003')] });
      await phones.bob!.setIncoming('ring');
      const carolBefore = (await sessions('carol')).length;
      const key = await phones.alice!.call('1002');
      // Bob's browser rings (5 s): alice has a 183 with SDP and hears rtpengine play the announcement.
      await expect.poll(async () => (await sessions('alice')).find((s) => s.key === key), { timeout: 5000 }).toMatchObject({ earlyMedia: true, confirmed: false });
      expect(await phones.alice!.waitForInboundBytes(key, 1600, 4000)).toBeGreaterThan(1600);
      // Heard, not only received: the words are loud (a track bound to the announcer's SSRC was silent).
      await expect.poll(async () => (await phones.alice!.receivedPeak(key)).db, { timeout: 4000, interval: 100 }).toBeGreaterThan(-50);
      expect((await sessions('alice')).find((s) => s.key === key)).toMatchObject({ confirmed: false, ended: false });
      // Then carol's phone rings (with the announcement again), and she answers.
      expect(await phones.alice!.waitFor(key, 'confirmed')).toMatchObject({ confirmed: true, ended: false });
      await expect.poll(async () => (await sessions('carol')).slice(carolBefore), { timeout: 5000 }).toMatchObject([{ confirmed: true }]);
      const carol = (await sessions('carol')).slice(carolBefore)[0]!;
      // What alice hears now is carol (the announcement's ringing stopped), and carol hears alice.
      await phones.carol!.sendTone(carol.key, 1000);
      await hears(phones.alice!, key, 1000);
      await phones.alice!.sendTone(key, 700);
      await hears(phones.carol!, carol.key, 700);
      await hangUp(key);
    });
  }, 40_000);

  it('recordName: the caller hears the recorded name (here a 1200 Hz tone) in the early media before anyone answers', async () => {
    await resetting(async () => {
      const name = pcm16Wav(Float32Array.from({ length: 8000 * 3 }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 1200 * i) / 8000)), 8000);
      // As the browser sends it: one file in a multipart form.
      const boundary = 'name-boundary';
      const form = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"; filename="name.wav"\r\nContent-Type: audio/wav\r\n\r\n`), name, Buffer.from(`\r\n--${boundary}--\r\n`)]);
      const saved = await api.app.inject({ method: 'PUT', url: '/v1/broad/find-me/name', headers: { authorization: `Bearer ${tokens.bob}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: form });
      expect(saved.statusCode, saved.body).toBe(204);
      await bobFindsMe({ ring_strategy: 'simultaneous', recordName: true, locations: [at('browser')] });
      await phones.bob!.setIncoming('ring');
      const key = await phones.alice!.call('1002');
      await expect.poll(async () => (await sessions('alice')).find((s) => s.key === key), { timeout: 5000 }).toMatchObject({ earlyMedia: true, confirmed: false });
      // The name (a 3 s tone) comes first; without it the caller would hear 'please hold…' at once.
      await hears(phones.alice!, key, 1200, 4000);
      await phones.alice!.hangup(key);
      await phones.alice!.waitFor(key, 'ended');
      const removed = await api.app.inject({ method: 'DELETE', url: '/v1/broad/find-me/name', headers: { authorization: `Bearer ${tokens.bob}` } });
      expect(removed.statusCode).toBe(204);
    });
  }, 30_000);

  it('nobody answers: the next step (his voicemail box) takes the call after the ring time', async () => {
    await resetting(async () => {
      await bobFindsMe({ ring_strategy: 'simultaneous', locations: [at('browser'), at('number', '1003')], simultaneous_next_step: route('box', ids.bob!) });
      await phones.bob!.setIncoming('ring');
      await phones.carol!.setIncoming('ring');
      const [bobBefore, carolBefore] = [(await sessions('bob')).length, (await sessions('carol')).length];
      const started = Date.now();
      const key = await answeredCall('1002');
      expect(Date.now() - started).toBeGreaterThanOrEqual(4500);
      expect((await sessions('bob')).slice(bobBefore)).toMatchObject([{ confirmed: false, ended: true }]);
      expect((await sessions('carol')).slice(carolBefore)).toMatchObject([{ confirmed: false, ended: true }]);
      // The voicemail phone's greeting, through a fresh media session.
      expect(await phones.alice!.waitForInboundBytes(key, 1600)).toBeGreaterThan(1600);
      await hangUp(key);
    });
  }, 30_000);
});

describe('other hunts through the real Kamailio', () => {
  it('a group rings its members together (not the callee); the first to answer takes it', async () => {
    await resetting(async () => {
      const { rows } = await api.db.query<{ id: number }>(`SELECT id FROM extension_groups WHERE name = 'Sales team'`);
      await setRules('olivia', { routeAlways: route('group', String(rows[0]!.id)) });
      await phones.alice!.setIncoming('ring');
      await phones.bob!.setIncoming('ring');
      const before = Object.fromEntries(await Promise.all(['alice', 'bob', 'carol'].map(async (u) => [u, (await sessions(u)).length] as const)));
      // Aiko calls Olivia (no phone of her own here): alice, bob and carol ring; carol answers.
      const key = await answeredCall('1000', 15_000, 'aiko.tanaka');
      // Her side confirms on the ACK, a moment after the caller's.
      await expect.poll(async () => (await sessions('carol')).slice(before.carol), { timeout: 5000 }).toMatchObject([{ confirmed: true }]);
      for (const u of ['alice', 'bob']) await expect.poll(async () => (await sessions(u)).slice(before[u]), { timeout: 5000 }).toMatchObject([{ confirmed: false, ended: true, endCause: 'Canceled' }]);
      expect(await phones['aiko.tanaka']!.waitForInboundBytes(key, 1600)).toBeGreaterThan(1600);
      await hangUp(key, 'aiko.tanaka');
    });
  });

  it('a number with its ring time leaves through the gateway; audio flows', async () => {
    const dir = path.join(api.cfg.runtimeDir, 'find-me-test');
    await mkdir(dir, { recursive: true });
    const gateway = await startGatewayUas({ port: api.cfg.ports.sipGateway, mediaPort: api.cfg.ports.base + 460, dir });
    try {
      await resetting(async () => {
        await setRules('bob', { routeAlways: route('phone', '5551234567', 5) });
        const bobBefore = (await sessions('bob')).length;
        const key = await answeredCall('1002');
        // sipp echoes the RTP it gets: out through rtpengine to the gateway and back.
        expect(await phones.alice!.waitForInboundBytes(key, 1600)).toBeGreaterThan(1600);
        expect((await sessions('bob')).length).toBe(bobBefore);
        await hangUp(key);
        expect(await gateway.exited).toBe(0);
        expect(await gateway.messages()).toMatch(/^INVITE sip:5551234567@uc\.local SIP\/2\.0$/m);
      });
    } finally {
      gateway.kill();
    }
  });

  it("routeBusy to a colleague's box: the message lands in the colleague's box", async () => {
    await resetting(async () => {
      await setRules('bob', { routeBusy: route('box', ids.carol!) });
      await phones.bob!.setIncoming('busy');
      const [bobBefore, carolBefore] = [(await voicemailsOf('bob')).length, (await voicemailsOf('carol')).length];
      const key = await answeredCall('1002');
      // What alice says after the tone is the message.
      await new Promise((r) => setTimeout(r, messageStartsMs + 2000));
      await hangUp(key);
      await expect.poll(async () => (await voicemailsOf('carol')).slice(carolBefore), { timeout: 20_000 }).toMatchObject([{ caller_number: '1001' }]);
      expect((await voicemailsOf('bob')).length).toBe(bobBefore);
    });
  }, 40_000);

  it('repeat_greeting: the caller hears the greeting, then the voicemail phone hangs up; nothing is filed', async () => {
    await resetting(async () => {
      await setRules('bob', { routeAlways: route('repeat_greeting') });
      const bobBefore = (await sessions('bob')).length;
      const filed = (await voicemailsOf('bob')).length;
      const key = await answeredCall('1002');
      expect(await phones.alice!.waitForInboundBytes(key, 1600)).toBeGreaterThan(1600);
      // The phone ends the call when the greeting is over (well before a message could be left).
      const ended = await phones.alice!.waitFor(key, 'ended', messageStartsMs + 5000);
      expect(ended).toMatchObject({ confirmed: true, ended: true, endCause: 'Terminated' });
      expect((await sessions('bob')).length).toBe(bobBefore);
      expect((await voicemailsOf('bob')).length).toBe(filed);
    });
  }, 30_000);
});

/** Polls until the loudest frequency `phone` receives is `hz` (within one analyser bin and a half). */
async function hears(phone: SipPage, key: string, hz: number, timeoutMs = 10_000): Promise<void> {
  await expect.poll(async () => {
    const peak = await phone.receivedPeak(key);
    return Math.abs(peak.hz - hz) < 18 && peak.db > -70;
  }, { timeout: timeoutMs, interval: 100 }).toBe(true);
}

/** A desk phone (baresip over UDP, answering by itself) registered for Bob with his own credentials. */
const bobDeskPhone = (): Promise<Baresip> => deskPhoneFor(api, tokens.bob!);

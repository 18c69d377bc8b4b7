/**
 * "Move call to desk phone" against the real stack: the API asks Kamailio's registrar which of a
 * user's phones are registered (GET /v1/devices/check), and Kamailio rings only the phones that
 * are not browsers for the transfer target `sip:<extension>@domain;device=desk`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NgClient } from '../../server/services/ng';
import { deskPhoneUri, type DevicesCheckResponse } from '../../src/wire/calling';
import { deskPhoneFor, startServicesApi, type ServicesApi } from './harness';
import { Baresip } from './peers/sip_baresip';
import { signedInPhones, type SignedInPhones, type SipPage } from './sip-page';

let api: ServicesApi;
let signedIn: SignedInPhones;
let desk: Baresip | null = null;

beforeAll(async () => {
  api = await startServicesApi();
  signedIn = await signedInPhones(api, ['alice', 'aiko.tanaka']);
});

afterAll(async () => {
  await desk?.stop().catch(() => desk?.kill());
  await signedIn?.close();
  await api?.close();
});

const devices = (user: string) => api.get<DevicesCheckResponse>('/v1/devices/check', signedIn.tokens[user]!);

/** Registers a desk phone (baresip over UDP, answering by itself) for Aiko with her own credentials. */
const aikoDeskPhone = (): Promise<Baresip> => deskPhoneFor(api, signedIn.tokens['aiko.tanaka']!);

/**
 * The call's legs on rtpengine: packets each answered leg has sent to the relay, and how many legs
 * nobody answered still hold ports (a deleted leg stays listed, without ports); null once the relay
 * no longer knows the call.
 */
async function relayedPackets(callId: string): Promise<{ legs: number[]; untagged: number } | null> {
  const ng = new NgClient(api.cfg.ports.rtpengineNg);
  try {
    const res = await ng.command('query', { 'call-id': callId });
    if (res.result !== 'ok') return null;
    type Leg = { tag: string; medias?: Array<{ streams?: Array<{ 'local port'?: number; stats?: { packets?: number } }> }> };
    const tags = Object.values((res.tags ?? {}) as Record<string, Leg>);
    const streams = (leg: Leg) => (leg.medias ?? []).flatMap((m) => m.streams ?? []);
    const packets = (leg: Leg) => streams(leg).reduce((n, s) => n + (s.stats?.packets ?? 0), 0);
    return { legs: tags.filter((t) => t.tag).map(packets), untagged: tags.filter((t) => !t.tag && streams(t).some((s) => s['local port'])).length };
  } finally {
    ng.close();
  }
}

/** The far end's audio keeps coming for at least two seconds (a dropped call stops receiving). */
async function talking(page: SipPage, key: string): Promise<void> {
  const first = await page.waitForInboundBytes(key, 1600);
  const since = Date.now();
  await expect.poll(async () => (Date.now() - since >= 2000 ? page.inboundBytes(key) : 0), { timeout: 10_000 }).toBeGreaterThan(first + 8000);
  expect((await page.sessions()).find((s) => s.key === key)).toMatchObject({ confirmed: true, ended: false });
}

describe('desk phones', () => {
  it('a browser alone is not a desk phone, and calling the desk of a user without one fails at once', async () => {
    const mine = await devices('aiko.tanaka');
    expect(mine).toMatchObject({ desk_phone: false, devices: [{ kind: 'browser' }] });
    expect(Date.parse(mine.devices[0]!.expires_at)).toBeGreaterThan(Date.now());

    const { alice, 'aiko.tanaka': aiko } = signedIn.phones;
    const key = await alice!.call(deskPhoneUri('1005', api.cfg.domain));
    expect(await alice!.waitFor(key, 'ended')).toMatchObject({ ended: true, endStatus: 480 });
    // Her browser was never offered the call.
    expect(await aiko!.sessions()).toEqual([]);
  });

  it('a registered desk phone is reported, and the desk call rings it, not the browser; audio flows', async () => {
    desk = await aikoDeskPhone();
    const mine = await devices('aiko.tanaka');
    expect(mine.desk_phone).toBe(true);
    expect(mine.devices.map((d) => d.kind).sort()).toEqual(['browser', 'phone']);
    expect(mine.devices.find((d) => d.kind === 'phone')?.user_agent).toMatch(/baresip/);
    // Only her own phones: Alice has none besides her browser.
    expect((await devices('alice')).desk_phone).toBe(false);

    const { alice, 'aiko.tanaka': aiko } = signedIn.phones;
    const since = desk.events.length;
    const key = await alice!.call(deskPhoneUri('1005', api.cfg.domain));
    expect(await alice!.waitFor(key, 'confirmed')).toMatchObject({ confirmed: true });
    await desk.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 10_000, since);
    expect(await alice!.waitForInboundBytes(key, 1600)).toBeGreaterThan(1600);
    expect(await aiko!.sessions()).toEqual([]);
    await alice!.hangup(key);
    await desk.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
  });

  it("a call to her number rings her browser and her desk phone; the desk phone answers: the caller's browser keeps the call, audio both ways", async () => {
    const { alice, 'aiko.tanaka': aiko } = signedIn.phones;
    await aiko!.setIncoming('ring');
    try {
      const aikoBefore = (await aiko!.sessions()).length;
      const since = desk!.events.length;
      const key = await alice!.call('1005');
      expect(await alice!.waitFor(key, 'confirmed')).toMatchObject({ confirmed: true, ended: false });
      await desk!.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 10_000, since);
      // Her browser rang too, and stopped when the desk phone answered.
      await expect.poll(async () => (await aiko!.sessions()).slice(aikoBefore), { timeout: 5000 }).toMatchObject([{ confirmed: false, ended: true, endCause: 'Canceled' }]);
      const { callId } = await alice!.waitFor(key, 'confirmed');
      await talking(alice!, key);
      // The caller's audio reaches the relay and leaves towards the desk phone's leg; the
      // browser's cancelled leg is gone from the relay.
      await expect.poll(() => relayedPackets(callId), { timeout: 5000 }).toMatchObject({ untagged: 0, legs: [expect.any(Number), expect.any(Number)] });
      expect(Math.min(...(await relayedPackets(callId))!.legs)).toBeGreaterThan(50);
      await alice!.hangup(key);
      await desk!.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
      // Nothing of the call is left on the relay.
      await expect.poll(() => relayedPackets(callId), { timeout: 5000 }).toBeNull();
    } finally {
      await aiko!.setIncoming('answer');
    }
  });

  it("a call to her number rings both; her browser answers: both browsers keep the call, audio both ways, the desk phone stops ringing", async () => {
    const { alice, 'aiko.tanaka': aiko } = signedIn.phones;
    // The desk phone rings until picked up, like one nobody is at.
    await desk!.command('answermode', 'manual');
    try {
      const aikoBefore = (await aiko!.sessions()).length;
      const since = desk!.events.length;
      const key = await alice!.call('1005');
      expect(await alice!.waitFor(key, 'confirmed')).toMatchObject({ confirmed: true, ended: false });
      await expect.poll(async () => (await aiko!.sessions()).slice(aikoBefore), { timeout: 5000 }).toMatchObject([{ confirmed: true, ended: false }]);
      const answered = (await aiko!.sessions()).slice(aikoBefore)[0]!.key;
      await desk!.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
      const { callId } = await alice!.waitFor(key, 'confirmed');
      await talking(alice!, key);
      await talking(aiko!, answered);
      await expect.poll(() => relayedPackets(callId), { timeout: 5000 }).toMatchObject({ untagged: 0, legs: [expect.any(Number), expect.any(Number)] });
      await alice!.hangup(key);
      await aiko!.waitFor(answered, 'ended');
      await expect.poll(() => relayedPackets(callId), { timeout: 5000 }).toBeNull();
    } finally {
      await desk!.command('answermode', 'auto');
    }
  });

  it('a user whose extension never registered has no devices: Kamailio answers "not found" with HTTP 500, which is no error', async () => {
    // Carol signs in to the API only: her extension has never been in the location table.
    const token = await api.login('carol');
    expect(await api.get<DevicesCheckResponse>('/v1/devices/check', token)).toEqual({ devices: [], desk_phone: false });
  });

  it('asks who is calling: no token, no answer', async () => {
    const res = await api.app.inject({ url: '/v1/devices/check' });
    expect(res.statusCode).toBe(401);
  });
});

/**
 * "Move call to desk phone" against the real stack: the API asks Kamailio's registrar which of a
 * user's phones are registered (GET /v1/devices/check), and Kamailio rings only the phones that
 * are not browsers for the transfer target `sip:<extension>@domain;device=desk`.
 */
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deskPhoneUri, type DevicesCheckResponse } from '../../src/wire/calling';
import { startServicesApi, type ServicesApi } from './harness';
import { Baresip } from './peers/sip_baresip';
import { signedInPhones, type SignedInPhones } from './sip-page';

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
async function aikoDeskPhone(): Promise<Baresip> {
  const { ports } = api.cfg;
  const phone = await Baresip.start({
    dir: await mkdtemp(path.join(api.cfg.runtimeDir, 'desk-')),
    sipPort: ports.base + 90,
    ctrlPort: ports.base + 93,
    rtpPorts: [ports.base + 400, ports.base + 449],
    maxLifeSeconds: 180,
  });
  const creds = await api.get<{ uri: string; authorization_user: string; password: string }>('/v1/sip-credentials', signedIn.tokens['aiko.tanaka']!);
  await phone.register(creds.uri, creds.authorization_user, creds.password, `sip:127.0.0.1:${ports.sipUdp}`);
  return phone;
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

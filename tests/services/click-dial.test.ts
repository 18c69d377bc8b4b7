/**
 * "Call my phone first" against the real stack: the API has the click-dial phone (baresip) ring
 * Aiko's desk phone (baresip, registered with her own credentials) through Kamailio; once she picks
 * it up, the desk phone is transferred (REFER) to the number and places the call itself, as Aiko.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClickDialResponse } from '../../src/wire/clickDial';
import { callHistoryOf, deskPhoneFor, putAs, startServicesApi, type ServicesApi } from './harness';
import { Baresip } from './peers/sip_baresip';
import { signedInPhones, type SignedInPhones } from './sip-page';

let api: ServicesApi;
let signedIn: SignedInPhones;
let desk: Baresip | null = null;

beforeAll(async () => {
  api = await startServicesApi();
  signedIn = await signedInPhones(api, ['alice', 'aiko.tanaka']);
  const res = await putAs(api, signedIn.tokens['aiko.tanaka']!, '/v1/user-preferences/uc-click-dial', { value: { enabled: true, device: 'desk' } });
  expect(res.statusCode).toBe(200);
});

afterAll(async () => {
  await desk?.stop().catch(() => desk?.kill());
  await signedIn?.close();
  await api?.close();
});

const clickDial = (number: string) =>
  api.app.inject({ method: 'POST', url: '/v1/calls/click-dial', headers: { authorization: `Bearer ${signedIn.tokens['aiko.tanaka']!}` }, payload: { number } });

/** Aiko's desk phone, which rings until it is picked up (`accept`). */
const aikoDeskPhone = (): Promise<Baresip> => deskPhoneFor(api, signedIn.tokens['aiko.tanaka']!, 'manual');

describe('click-dial', () => {
  it('without a desk phone it fails at once, and nothing rings', async () => {
    const res = await clickDial('1001');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'no_desk_phone', message: 'Your desk phone is not connected' });
    expect(await signedIn.phones.alice!.sessions()).toEqual([]);
    expect(await signedIn.phones['aiko.tanaka']!.sessions()).toEqual([]);
  });

  it('rings the desk phone first; picked up, it calls the number as Aiko: audio both ways, and the call is in her history', async () => {
    desk = await aikoDeskPhone();
    const alice = signedIn.phones.alice!;
    const since = desk.events.length;
    const answer = clickDial('1001');
    const ringing = await desk.waitEvent((e) => e.type === 'CALL_INCOMING', 10_000, since);
    expect(ringing.peeruri).toMatch(/^sip:clickdial@/);
    // Only the desk phone rings: neither the number nor Aiko's browser yet.
    expect(await alice.sessions()).toEqual([]);
    expect(await signedIn.phones['aiko.tanaka']!.sessions()).toEqual([]);

    await desk.command('accept');
    const res = await answer;
    expect(res.statusCode).toBe(200);
    expect(res.json<ClickDialResponse>()).toEqual({ state: 'calling', device: 'desk', number: '1001' });

    // Alice's browser answers by itself: the call comes from Aiko's extension.
    const incoming = await alice.waitForIncoming(15_000);
    expect(incoming.remote).toMatch(/^sip:1005@/);
    await alice.waitFor(incoming.key, 'confirmed');
    const placed = await desk.waitEvent((e) => e.type === 'CALL_ESTABLISHED' && e.direction === 'outgoing', 10_000, since);
    expect(placed.peeruri).toMatch(/^sip:1001@/);
    // The desk phone's tone reaches Alice, and Alice's audio reaches the desk phone.
    expect(await alice.waitForInboundBytes(incoming.key, 1600)).toBeGreaterThan(1600);
    await desk.waitEvent((e) => e.type === 'CALL_RTPESTAB' && e.id === placed.id, 10_000, since);
    // The click-dial phone's own leg is over once the transfer has worked.
    await desk.waitEvent((e) => e.type === 'CALL_CLOSED' && e.id === ringing.id, 10_000, since);

    await alice.hangup(incoming.key);
    await desk.waitEvent((e) => e.type === 'CALL_CLOSED' && e.id === placed.id, 10_000, since);
    const aikoId = await api.userId('aiko.tanaka');
    await expect
      .poll(async () => (await callHistoryOf(api, signedIn.tokens['aiko.tanaka']!, aikoId, incoming.callId)).map((r) => [r.direction, r.disposition, r.dest_phone]), { timeout: 10_000 })
      .toEqual([['outbound', 'ANSWERED', '1001']]);
    // The leg that rang her desk phone is no call of hers.
    const { rows } = await api.db.query<{ n: number }>("SELECT count(*)::int AS n FROM call_history WHERE user_id = $1 AND sip_call_id = $2", [aikoId, ringing.id]);
    expect(rows[0]!.n).toBe(0);
  });

  it('a desk phone that declines: a clear error, and the number never rings', async () => {
    const since = desk!.events.length;
    const answer = clickDial('1001');
    await desk!.waitEvent((e) => e.type === 'CALL_INCOMING', 10_000, since);
    await desk!.command('hangup');
    const res = await answer;
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'device_declined', message: 'Your desk phone declined the call' });
    expect((await signedIn.phones.alice!.sessions()).filter((s) => !s.ended)).toEqual([]);
  });
});

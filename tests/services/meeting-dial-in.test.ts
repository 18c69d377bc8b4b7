/**
 * Dial-in against the real stack: a SIP phone (baresip, registered as Bob) dials
 * `*64*<meeting ID>*<phone PIN>` through Kamailio and rtpengine; the API's dial-in user agent
 * answers with the meeting's AudioBridge on Janus, where the phone is a plain-RTP participant. A
 * wrong PIN is refused before anything is answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { janusMeetingBridges, type MeetingBridges } from '../../server/meetings/audio-bridge';
import { NgClient } from '../../server/services/ng';
import { dialInString } from '../../src/wire/services';
import { deskPhoneFor, startServicesApi, type ServicesApi } from './harness';
import type { Baresip } from './peers/sip_baresip';

let api: ServicesApi;
let phone: Baresip;
let bridges: MeetingBridges;
let meeting: { id: number; access_code: string; phone_pin: string };

beforeAll(async () => {
  api = await startServicesApi();
  phone = await deskPhoneFor(api, await api.login('bob'));
  bridges = janusMeetingBridges(api.cfg);
  meeting = (await api.db.query<{ id: number; access_code: string; phone_pin: string }>("SELECT id, access_code, phone_pin FROM meetings WHERE meeting_type = 'room' ORDER BY id LIMIT 1")).rows[0]!;
});

afterAll(async () => {
  await phone?.stop().catch(() => phone?.kill());
  await bridges?.close();
  await api?.close();
});

const dial = (digits: string) => phone.command('dial', `sip:${digits}@${api.cfg.domain}`);

/** Packets each answered leg of the call has sent to rtpengine (the phone's, the bridge's). */
async function relayedPackets(callId: string): Promise<number[]> {
  const ng = new NgClient(api.cfg.ports.rtpengineNg);
  try {
    const res = await ng.command('query', { 'call-id': callId });
    if (res.result !== 'ok') return [];
    type Leg = { tag: string; medias?: Array<{ streams?: Array<{ stats?: { packets?: number } }> }> };
    return Object.values((res.tags ?? {}) as Record<string, Leg>)
      .filter((t) => t.tag)
      .map((leg) => (leg.medias ?? []).flatMap((m) => m.streams ?? []).reduce((n, s) => n + (s.stats?.packets ?? 0), 0));
  } finally {
    ng.close();
  }
}

describe('meeting dial-in', () => {
  it('a wrong phone PIN is refused (403) and nobody joins the audio', async () => {
    const wrong = meeting.phone_pin === '000000' ? '111111' : '000000';
    const since = phone.events.length;
    await dial(dialInString(meeting.access_code, wrong));
    const closed = await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
    expect(closed.param).toMatch(/403/);
    expect(phone.events.slice(since).some((e) => e.type === 'CALL_ESTABLISHED')).toBe(false);
    expect(await bridges.participants(meeting.id)).toEqual([]);
  });

  it("the right PIN joins the phone to the meeting's audio bridge; audio flows both ways through the relay; hanging up leaves", async () => {
    const since = phone.events.length;
    await dial(dialInString(meeting.access_code, meeting.phone_pin));
    const up = await phone.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 10_000, since);
    expect(await bridges.participants(meeting.id)).toEqual([{ id: expect.any(Number), display: expect.stringMatching(/^phone:\d{3,5}$/) }]);
    // The phone's tone reaches the bridge and the bridge's mix reaches the phone: both legs send.
    await expect.poll(async () => { const legs = await relayedPackets(up.id!); return legs.length === 2 && legs.every((n) => n > 50); }, { timeout: 10_000 }).toBe(true);
    await phone.command('hangup');
    await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
    await expect.poll(() => bridges.participants(meeting.id), { timeout: 5000 }).toEqual([]);
  });
});

/**
 * A call recorded through the real Kamailio + rtpengine shows up in both parties' call recordings
 * once it ends: started, paused and resumed from the API as the call dock does, two JsSIP phones
 * in Chromium talking Opus, rtpengine's pcaps decoded by the API server.
 */
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingDirs } from '../../server/calls/live-recordings';
import { readWav } from '../../server/media/wav';
import { CallRecordingsPage } from '../../src/wire/callRecordings';
import { startServicesApi, type ServicesApi } from './harness';
import { signedInPhones, type SignedInPhones } from './sip-page';

let api: ServicesApi;
let signedIn: SignedInPhones;
let phones: SignedInPhones['phones'];
let tokens: SignedInPhones['tokens'];

beforeAll(async () => {
  api = await startServicesApi();
  signedIn = await signedInPhones(api, ['alice', 'bob']);
  ({ phones, tokens } = signedIn);
});

afterAll(async () => {
  await signedIn?.close();
  await api?.close();
});

describe('live call recording', () => {
  it('recorded, paused and resumed: one recording per party, the pause left out, playable', async () => {
    const recording = (action: string, callId: string) =>
      api.app.inject({ method: 'POST', url: `/v1/calls/${encodeURIComponent(callId)}/recording`, headers: { authorization: `Bearer ${tokens.alice}` }, payload: { action } });
    const list = async (user: string) => CallRecordingsPage.parse(await api.get(`/v1/call-recordings?limit=5`, tokens[user]!)).items;
    const before = (await list('alice'))[0]?.recording_id;

    const key = await phones.alice!.call('1002');
    const { callId } = await phones.alice!.waitFor(key, 'confirmed');
    await expect.poll(async () => (await api.db.query('SELECT 1 FROM live_calls WHERE sip_call_id = $1', [callId])).rows.length, { timeout: 10_000 }).toBe(1);
    await phones.alice!.waitForInboundBytes(key, 3000);
    const pcaps = recordingDirs(api.cfg.runtimeDir).pcaps;
    const segments = async () => (await readdir(pcaps).catch(() => [] as string[])).filter((f) => f.startsWith(`${callId}-`));

    /** Lets some audio pass (Opus, a few kB/s each way), and says how long that took. */
    const talk = async () => {
      const from = Date.now();
      await phones.alice!.waitForInboundBytes(key, (await phones.alice!.inboundBytes(key)) + 9000, 15_000);
      return Date.now() - from;
    };
    const startedAt = Date.now();
    expect((await recording('start', callId)).statusCode).toBe(200);
    const first = await talk();
    expect((await recording('pause', callId)).statusCode).toBe(200);
    const paused = await talk();
    expect((await recording('resume', callId)).statusCode).toBe(200);
    await talk();
    await expect.poll(segments).toHaveLength(2);
    const hungUpAt = Date.now();
    await phones.alice!.hangup(key);
    await phones.alice!.waitFor(key, 'ended');
    const recordedMs = hungUpAt - startedAt - paused;

    await expect.poll(async () => (await list('alice'))[0]?.recording_id, { timeout: 30_000 }).not.toBe(before);
    console.log(`recording listed ${Date.now() - hungUpAt} ms after hang-up`);
    const [mine] = await list('alice');
    const [theirs] = await list('bob');
    expect(mine).toMatchObject({ direction: 'OUT', remoteParty: '1002', cnam: 'Bob Martinez' });
    expect(theirs).toMatchObject({ direction: 'IN', remoteParty: '1001', cnam: 'Alice Nguyen', duration: mine!.duration });
    const media = await api.app.inject({ url: mine!.media_url, headers: { authorization: `Bearer ${tokens.alice}` } });
    expect(media.statusCode).toBe(200);
    const info = readWav(media.rawPayload);
    // The two recorded stretches, not the paused one between them (give or take the requests' time).
    console.log(`recorded ${recordedMs} ms (first ${first} ms), paused ${paused} ms; the file lasts ${info.durationMs} ms`);
    expect(Math.abs(info.durationMs - recordedMs)).toBeLessThan(Math.min(600, paused / 2));
    expect(mine!.duration).toBe(Math.round(info.durationMs / 1000));
    // rtpengine's files go once the recording is stored.
    await expect.poll(segments).toEqual([]);
  });
});

/**
 * What users set through the API is what the real Kamailio does with their calls: do-not-disturb
 * answers busy, "forward always" rings the destination instead, and every call through Kamailio,
 * answered or not, lands in both parties' call history. Three JsSIP phones in Debian's Chromium
 * (each answers whatever rings it), the real Kamailio + rtpengine, the real API server.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceDirs } from '../../server/services/layout';
import type { RecordingControlResponse } from '../../src/wire/recording';
import { callHistoryOf, putAs, startServicesApi, type ServicesApi } from './harness';
import { signedInPhones, type SignedInPhones, type SipPage } from './sip-page';

let api: ServicesApi;
let signedIn: SignedInPhones;
let phones: Record<string, SipPage>;
let tokens: Record<string, string>;
const ids: Record<string, number> = {};
const USERS = ['alice', 'bob', 'carol'] as const;

beforeAll(async () => {
  api = await startServicesApi();
  signedIn = await signedInPhones(api, USERS);
  ({ phones, tokens } = signedIn);
  for (const u of USERS) ids[u] = await api.userId(u);
});

afterAll(async () => {
  await signedIn?.close();
  await api?.close();
});

const put = (user: string, url: string, body: unknown) => putAs(api, tokens[user]!, url, body);
const historyOf = (user: string, callId: string) => callHistoryOf(api, tokens[user]!, ids[user]!, callId);

describe('call routing and history through the real Kamailio', () => {
  it('an answered call is in both histories: outbound for the caller, inbound for the callee, with its length', async () => {
    const key = await phones.alice!.call('1002');
    const confirmed = await phones.alice!.waitFor(key, 'confirmed');
    await phones.bob!.waitForIncoming();
    // Talk for a while: about 1.5 s of Opus audio from bob's fake microphone (~6 kB/s).
    await phones.alice!.waitForInboundBytes(key, 9000, 15_000);
    await phones.alice!.hangup(key);
    await phones.alice!.waitFor(key, 'ended');

    await expect.poll(async () => (await historyOf('alice', confirmed.callId)).map((r) => [r.direction, r.disposition, r.dest_phone, r.cnam, r.duration > 0]), { timeout: 10_000 })
      .toEqual([['outbound', 'ANSWERED', '1002', 'Bob Martinez', true]]);
    await expect.poll(async () => (await historyOf('bob', confirmed.callId)).map((r) => [r.direction, r.disposition, r.source_phone, r.cnam]), { timeout: 10_000 })
      .toEqual([['inbound', 'ANSWERED', '1001', expect.stringMatching(/^Alice /)]]);
  });

  it('the answer reaches the caller without waiting for the API to store the call (which it still does)', async () => {
    const query = api.db.query.bind(api.db);
    const stored = async (callId: string) => (await query('SELECT 1 FROM call_history WHERE sip_call_id = $1', [callId])).rows.length;
    // The API stores the call slowly this time (the first history row waits 1.9 s, under Kamailio's 2 s).
    let slow = true;
    api.db.query = (async (sql: string, params?: unknown[]) => {
      if (slow && /INSERT INTO call_history/.test(sql)) {
        slow = false;
        await new Promise((resolve) => setTimeout(resolve, 1900));
      }
      return query(sql, params);
    }) as typeof api.db.query;
    try {
      const key = await phones.alice!.call('1002');
      const confirmed = await phones.alice!.waitFor(key, 'confirmed');
      expect(await stored(confirmed.callId)).toBe(0);
      await phones.alice!.hangup(key);
      await phones.alice!.waitFor(key, 'ended');
      await expect.poll(async () => (await historyOf('alice', confirmed.callId)).map((r) => [r.direction, r.disposition]), { timeout: 15_000 }).toEqual([['outbound', 'ANSWERED']]);
      await expect.poll(async () => (await historyOf('bob', confirmed.callId)).map((r) => [r.direction, r.disposition]), { timeout: 15_000 }).toEqual([['inbound', 'ANSWERED']]);
    } finally {
      api.db.query = query;
    }
  });

  it('do-not-disturb: the caller gets busy, the phone never rings, and the callee sees a missed call', async () => {
    // Without voicemail as the default forward (tests/services/voicemail.test.ts has it on).
    expect((await put('bob', '/v1/broad/forwards/default', { enabled: false, destination: null })).statusCode).toBe(200);
    expect((await put('bob', '/v1/broad/donotdisturb', { do_not_disturb: true })).statusCode).toBe(200);
    try {
      const ringsBefore = (await phones.bob!.sessions()).length;
      const key = await phones.alice!.call('1002');
      const ended = await phones.alice!.waitFor(key, 'ended');
      expect(ended.confirmed).toBe(false);
      expect(ended.endStatus).toBe(486);
      expect((await phones.bob!.sessions()).length).toBe(ringsBefore);
      await expect.poll(async () => (await historyOf('bob', ended.callId)).map((r) => [r.direction, r.disposition]), { timeout: 10_000 }).toEqual([['inbound', 'UNANSWERED']]);
      await expect.poll(async () => (await historyOf('alice', ended.callId)).map((r) => [r.direction, r.disposition]), { timeout: 10_000 }).toEqual([['outbound', 'UNANSWERED']]);
    } finally {
      await put('bob', '/v1/broad/donotdisturb', { do_not_disturb: false });
    }
    // Off again: bob's phone rings (and answers) at once.
    const key = await phones.alice!.call('1002');
    await phones.alice!.waitFor(key, 'confirmed');
    await phones.alice!.hangup(key);
    await phones.alice!.waitFor(key, 'ended');
  });

  it('forward always: a call to bob rings carol instead', async () => {
    const saved = await put('bob', '/v1/broad/forwards/always', {
      enabled: true,
      destination: { destination_type: 'ext', destination_id: String(ids.carol), destination_name: null, destination_parameter: '1003' },
    });
    expect(saved.statusCode).toBe(200);
    try {
      const bobRings = (await phones.bob!.sessions()).length;
      const carolRings = (await phones.carol!.sessions()).length;
      const key = await phones.alice!.call('1002');
      await phones.alice!.waitFor(key, 'confirmed');
      await expect.poll(async () => (await phones.carol!.sessions()).length, { timeout: 10_000 }).toBe(carolRings + 1);
      expect((await phones.bob!.sessions()).length).toBe(bobRings);
      await phones.alice!.hangup(key);
      await phones.alice!.waitFor(key, 'ended');
    } finally {
      await put('bob', '/v1/broad/forwards/always', { enabled: false, destination: null });
    }
  });
});

describe("the default forward: where calls go that the callee cannot take", () => {
  const forwardDefault = (user: string, to: string | null) =>
    put(user, '/v1/broad/forwards/default', to ? { enabled: true, destination: { destination_type: 'ext', destination_id: String(ids[to]), destination_name: null, destination_parameter: null } } : { enabled: false, destination: null });

  it('an offline callee: the call rings carol instead', async () => {
    // olivia (1000) has no phone registered in this test.
    tokens.olivia = await api.login('olivia');
    ids.olivia = await api.userId('olivia');
    expect((await forwardDefault('olivia', 'carol')).statusCode).toBe(200);
    try {
      const carolRings = (await phones.carol!.sessions()).length;
      const key = await phones.alice!.call('1000');
      await phones.alice!.waitFor(key, 'confirmed');
      expect((await phones.carol!.sessions()).length).toBe(carolRings + 1);
      await phones.alice!.hangup(key);
      await phones.alice!.waitFor(key, 'ended');
    } finally {
      await forwardDefault('olivia', null);
    }
    // Without the forward an offline callee is simply unavailable.
    const key = await phones.alice!.call('1000');
    expect((await phones.alice!.waitFor(key, 'ended')).endStatus).toBe(480);
  });

  it('a busy callee: after the 486 the call rings carol, with audio', async () => {
    expect((await forwardDefault('bob', 'carol')).statusCode).toBe(200);
    await phones.bob!.setIncoming('busy');
    try {
      const bobRings = (await phones.bob!.sessions()).length;
      const key = await phones.alice!.call('1002');
      await phones.alice!.waitFor(key, 'confirmed');
      expect((await phones.bob!.sessions()).length).toBe(bobRings + 1);
      // The media session survived the failed first branch: carol's audio reaches alice.
      await phones.alice!.waitForInboundBytes(key, 0, 10_000);
      await phones.alice!.hangup(key);
      await phones.alice!.waitFor(key, 'ended');
    } finally {
      await phones.bob!.setIncoming('answer');
      await forwardDefault('bob', null);
    }
  });
});

describe('call recording control on a live call', () => {
  const post = (user: string, callId: string, action: string) =>
    api.app.inject({ method: 'POST', url: `/v1/calls/${encodeURIComponent(callId)}/recording`, headers: { authorization: `Bearer ${tokens[user]}` }, payload: { action } });
  /** rtpengine's files for this call: one per started segment. */
  const segments = async (callId: string) => {
    const dir = path.join(serviceDirs(api.cfg.runtimeDir, 'rtpengine').data, 'recordings', 'pcaps');
    return (await readdir(dir).catch(() => [] as string[])).filter((f) => f.startsWith(`${callId}-`) && f.endsWith('.pcap')).length;
  };
  const setPolicy = (status: string) =>
    api.db.query(
      `INSERT INTO call_recording_policies (organization_id, status) SELECT organization_id, $1 FROM users WHERE username = 'alice'
       ON CONFLICT (organization_id) DO UPDATE SET status = EXCLUDED.status`,
      [status],
    );

  /** alice calls bob; resolves with the SIP Call-ID once both sides are connected and Kamailio reported the start. */
  async function connectedCall(): Promise<{ key: string; callId: string }> {
    const key = await phones.alice!.call('1002');
    const { callId } = await phones.alice!.waitFor(key, 'confirmed');
    await expect.poll(async () => (await api.db.query('SELECT 1 FROM live_calls WHERE sip_call_id = $1', [callId])).rows.length, { timeout: 10_000 }).toBe(1);
    return { key, callId };
  }
  async function hangUp(key: string) {
    await phones.alice!.hangup(key);
    await phones.alice!.waitFor(key, 'ended');
  }

  it('on demand: a party starts, pauses and resumes it (a new segment each time); nobody else can', async () => {
    await setPolicy('on_demand');
    const { key, callId } = await connectedCall();
    try {
      const started = await post('alice', callId, 'start');
      expect(started.json()).toEqual({ state: 'recording', mode: 'on_demand', segments: 1 } satisfies RecordingControlResponse);
      await expect.poll(() => segments(callId), { timeout: 5000 }).toBe(1);
      // The other party sees the same recording: starting again is refused, pausing works.
      expect((await post('bob', callId, 'start')).statusCode).toBe(409);
      expect((await post('bob', callId, 'pause')).json()).toMatchObject({ state: 'paused', segments: 1 });
      expect((await post('alice', callId, 'resume')).json()).toMatchObject({ state: 'recording', segments: 2 });
      await expect.poll(() => segments(callId), { timeout: 5000 }).toBe(2);
      expect((await post('carol', callId, 'pause')).statusCode).toBe(404);
    } finally {
      await hangUp(key);
    }
    await expect.poll(async () => (await post('alice', callId, 'pause')).statusCode, { timeout: 10_000 }).toBe(404);
  });

  it('from any phone by DTMF: the on-demand sequence starts it, the pause sequence pauses and resumes', async () => {
    await setPolicy('on_demand');
    const platform = await api.get<{ ecr_on_demand_dtmf_sequence: string; ecr_pause_recording_dtmf_sequence: string }>('/v1/platform-configuration', tokens.alice!);
    const state = async (callId: string) => (await api.db.query<{ recording: string }>('SELECT recording FROM live_calls WHERE sip_call_id = $1', [callId])).rows[0]?.recording;
    const { key, callId } = await connectedCall();
    try {
      await phones.alice!.dtmf(key, platform.ecr_on_demand_dtmf_sequence);
      await expect.poll(() => state(callId), { timeout: 10_000 }).toBe('recording');
      await expect.poll(() => segments(callId), { timeout: 5000 }).toBe(1);
      await phones.alice!.dtmf(key, platform.ecr_pause_recording_dtmf_sequence);
      await expect.poll(() => state(callId), { timeout: 10_000 }).toBe('paused');
      await phones.alice!.dtmf(key, platform.ecr_pause_recording_dtmf_sequence);
      await expect.poll(() => state(callId), { timeout: 10_000 }).toBe('recording');
      await expect.poll(() => segments(callId), { timeout: 5000 }).toBe(2);
    } finally {
      await hangUp(key);
    }
  });

  it("a user's auto_record_audio records every call of theirs from its start (on demand); without it nothing is recorded", async () => {
    await setPolicy('on_demand');
    const state = async (callId: string) => (await api.db.query<{ recording: string }>('SELECT recording FROM live_calls WHERE sip_call_id = $1', [callId])).rows[0]?.recording;
    const recordingsOf = async (user: string) => (await api.get<{ items: Array<{ recording_id: string }> }>('/v1/call-recordings?limit=5', tokens[user]!)).items;
    const before = (await recordingsOf('bob'))[0]?.recording_id;
    // Bob, the callee, asked for it: the call is recorded although nobody pressed anything.
    expect((await put('bob', `/v1/users/${ids.bob}/settings/uc`, { auto_record_audio: true })).statusCode).toBe(200);
    try {
      const { key, callId } = await connectedCall();
      try {
        await expect.poll(() => segments(callId), { timeout: 5000 }).toBe(1);
        expect(await state(callId)).toBe('recording');
        await phones.alice!.waitForInboundBytes(key, 3000);
      } finally {
        await hangUp(key);
      }
      await expect.poll(async () => (await recordingsOf('bob'))[0]?.recording_id, { timeout: 30_000 }).not.toBe(before);
    } finally {
      await put('bob', `/v1/users/${ids.bob}/settings/uc`, { auto_record_audio: false });
    }
    const { key, callId } = await connectedCall();
    try {
      // Audio has flowed: a recording started with the call would have its file by now.
      await phones.alice!.waitForInboundBytes(key, 3000);
      expect(await state(callId)).toBe('none');
      expect(await segments(callId)).toBe(0);
    } finally {
      await hangUp(key);
    }
  });

  it("'on' records every call from its start; 'off' refuses", async () => {
    await setPolicy('on');
    try {
      const { key, callId } = await connectedCall();
      try {
        await expect.poll(() => segments(callId), { timeout: 5000 }).toBe(1);
        expect((await post('alice', callId, 'pause')).json()).toMatchObject({ state: 'paused', mode: 'on' });
      } finally {
        await hangUp(key);
      }
      await setPolicy('off');
      const off = await connectedCall();
      try {
        const res = await post('alice', off.callId, 'start');
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toMatch(/turned off/);
        expect(await segments(off.callId)).toBe(0);
      } finally {
        await hangUp(off.key);
      }
    } finally {
      await setPolicy('on_demand');
    }
  });
});

/**
 * What users set through the API is what the real Kamailio does with their calls: do-not-disturb
 * answers busy, "forward always" rings the destination instead, and every call through Kamailio,
 * answered or not, lands in both parties' call history. Three JsSIP phones in Debian's Chromium
 * (each answers whatever rings it), the real Kamailio + rtpengine, the real API server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryPageWire } from '../../src/wire/history';
import type { SipCredentialsResponse } from '../../src/wire/services';
import { startServicesApi, type ServicesApi } from './harness';
import { killGroup, launchChromium, SipPage, type LaunchedChromium } from './sip-page';

let api: ServicesApi;
let chrome: LaunchedChromium;
const phones: Record<string, SipPage> = {};
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};
const USERS = ['alice', 'bob', 'carol'] as const;

beforeAll(async () => {
  api = await startServicesApi();
  chrome = await launchChromium();
  for (const u of USERS) {
    tokens[u] = await api.login(u);
    ids[u] = await api.userId(u);
    const creds = await api.get<SipCredentialsResponse>('/v1/sip-credentials', tokens[u]!);
    const page = await SipPage.open(chrome.browser, api.origin);
    await page.register({ wsUrl: creds.ws_url, uri: creds.uri, authorization_user: creds.authorization_user, password: creds.password });
    phones[u] = page;
  }
});

afterAll(async () => {
  for (const p of Object.values(phones)) await p.close().catch(() => undefined);
  if (chrome) {
    await chrome.close();
    killGroup(chrome.pid);
  }
  await api?.close();
});

const put = (user: string, url: string, body: unknown) =>
  api.app.inject({ method: 'PUT', url, headers: { authorization: `Bearer ${tokens[user]}` }, payload: body as object });

/** The user's history rows for one SIP call, as the history screen gets them. */
async function historyOf(user: string, callId: string) {
  const page = await api.get<HistoryPageWire>(`/v2/users/${ids[user]}/call-history?offset=0&limit=50`, tokens[user]!);
  const { rows } = await api.db.query<{ id: number }>('SELECT id FROM call_history WHERE user_id = $1 AND sip_call_id = $2', [ids[user], callId]);
  return page.items.filter((r) => rows.some((x) => x.id === r.id));
}

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

  it('do-not-disturb: the caller gets busy, the phone never rings, and the callee sees a missed call', async () => {
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

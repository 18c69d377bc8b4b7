/**
 * Leaving a voicemail through the real stack: JsSIP phones in Debian's Chromium, Kamailio deciding
 * that a call goes to voicemail (the extension dialled with *, do-not-disturb, busy, offline), the
 * voicemail phone (baresip) answering with its greeting, rtpengine recording the caller, and the
 * API server filing the message in the mailbox, where the voicemail screens read it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWav } from '../../server/media/wav';
import { internalApiSecret } from '../../server/services/kamailio';
import { readGreetingInfo } from '../../server/services/voicemail';
import { callHistoryOf, putAs, startServicesApi, type ServicesApi } from './harness';
import { signedInPhones, type SignedInPhones, type SipPage } from './sip-page';

let api: ServicesApi;
let signedIn: SignedInPhones;
let phones: Record<string, SipPage>;
let tokens: Record<string, string>;
const ids: Record<string, number> = {};
let messageStartsMs = 0;

beforeAll(async () => {
  api = await startServicesApi();
  messageStartsMs = (await readGreetingInfo(api.cfg)).messageStartsMs;
  // Olivia has no phone here: she is the user who is signed out.
  signedIn = await signedInPhones(api, ['alice', 'bob']);
  ({ phones, tokens } = signedIn);
  for (const u of ['alice', 'bob', 'olivia']) ids[u] = await api.userId(u);
  // The API connects to the voicemail phone in the background; calls go to voicemail once it has.
  const secret = await internalApiSecret(api.cfg);
  const route = async () => (await api.app.inject({ url: '/internal/sip/route?callee=1002&on=voicemail', headers: { 'x-uc-internal': secret } })).body;
  for (const deadline = Date.now() + 15_000; (await route()) !== 'voicemail:1002'; ) {
    if (Date.now() > deadline) throw new Error('the API server did not connect to the voicemail phone');
    await new Promise((r) => setTimeout(r, 100));
  }
});

afterAll(async () => {
  await signedIn?.close();
  await api?.close();
});

interface VoicemailRow {
  id: number;
  caller_number: string;
  caller_name: string | null;
  duration: number;
  status: string;
  transcript_state: string;
  bytes: Buffer;
}

async function newMessages(user: string, since: number): Promise<VoicemailRow[]> {
  const { rows } = await api.db.query<VoicemailRow>(
    `SELECT v.id, v.caller_number, v.caller_name, v.duration, v.status, v.transcript_state, b.bytes
       FROM voicemails v JOIN media_blobs b ON b.id = v.media_id WHERE v.user_id = $1 AND v.id > $2 ORDER BY v.id`,
    [ids[user], since],
  );
  return rows;
}

async function lastId(): Promise<number> {
  const { rows } = await api.db.query<{ id: number | null }>('SELECT max(id) AS id FROM voicemails');
  return rows[0]?.id ?? 0;
}

/** Root mean square of a 16-bit mono WAV: Chromium's fake microphone beeps, silence is ~0. */
function loudness(wav: Buffer): number {
  const info = readWav(wav);
  let sum = 0;
  const n = info.dataBytes / 2;
  for (let i = 0; i < n; i++) sum += (wav.readInt16LE(info.dataOffset + i * 2) / 0x8000) ** 2;
  return Math.sqrt(sum / Math.max(1, n));
}

const put = (user: string, url: string, body: unknown) => putAs(api, tokens[user]!, url, body);
const historyOf = (user: string, callId: string) => callHistoryOf(api, tokens[user]!, ids[user]!, callId);

/** Talks (the fake microphone) for `ms` after the tone, then hangs up. */
async function leaveMessage(caller: SipPage, key: string, ms: number): Promise<string> {
  const { callId } = await caller.waitFor(key, 'confirmed');
  await new Promise((r) => setTimeout(r, messageStartsMs + ms)); // the greeting's length is what is being waited for
  await caller.hangup(key);
  await caller.waitFor(key, 'ended');
  return callId;
}

describe('voicemail through the real stack', () => {
  it("the extension dialled with * reaches that user's voicemail; what the caller says becomes an unread message with real audio", async () => {
    const since = await lastId();
    const bobRings = (await phones.bob!.sessions()).length;
    const key = await phones.alice!.call('1002*');
    const callId = await leaveMessage(phones.alice!, key, 3000);
    expect((await phones.bob!.sessions()).length).toBe(bobRings);

    await expect.poll(async () => (await newMessages('bob', since)).length, { timeout: 20_000 }).toBe(1);
    const [vm] = await newMessages('bob', since);
    expect(vm).toMatchObject({ caller_number: '1001', caller_name: expect.stringMatching(/^Alice /), status: 'UNREAD', transcript_state: 'None' });
    // About the 3 s spoken after the tone (the greeting itself is not part of it).
    expect(vm!.duration).toBeGreaterThanOrEqual(2);
    expect(vm!.duration).toBeLessThanOrEqual(5);
    expect(loudness(Buffer.from(vm!.bytes))).toBeGreaterThan(0.01);
    // The voicemail screens list it, and it plays.
    const list = await api.get<{ voicemails: Array<{ msg_id: string; status: string }> }>(`/v2/user/${ids.bob}/voicemails`, tokens.bob!);
    expect(list.voicemails.find((v) => v.msg_id === String(vm!.id))).toMatchObject({ status: 'Unread' });
    const media = await api.app.inject({ url: `/v2/voicemail/${vm!.id}/download`, headers: { authorization: `Bearer ${tokens.bob}`, range: 'bytes=0-99' } });
    expect(media.statusCode).toBe(206);
    // History: bob missed it (the voicemail phone answered, not him); alice's call was answered.
    await expect.poll(async () => (await historyOf('bob', callId)).map((r) => [r.direction, r.disposition]), { timeout: 10_000 }).toEqual([['inbound', 'UNANSWERED']]);
    await expect.poll(async () => (await historyOf('alice', callId)).map((r) => [r.direction, r.disposition]), { timeout: 10_000 }).toEqual([['outbound', 'ANSWERED']]);
  });

  it('do-not-disturb sends callers to voicemail (the default forward); a caller who hangs up at the tone leaves nothing', async () => {
    expect((await put('bob', '/v1/broad/donotdisturb', { do_not_disturb: true })).statusCode).toBe(200);
    const since = await lastId();
    try {
      const bobRings = (await phones.bob!.sessions()).length;
      const key = await phones.alice!.call('1002');
      await phones.alice!.waitFor(key, 'confirmed');
      expect((await phones.bob!.sessions()).length).toBe(bobRings);
      await phones.alice!.hangup(key);
      await phones.alice!.waitFor(key, 'ended');
    } finally {
      await put('bob', '/v1/broad/donotdisturb', { do_not_disturb: false });
    }
    // Nothing after the tone: no message. (A message would have been filed within a second or two.)
    const marker = await phones.alice!.call('1002*');
    await leaveMessage(phones.alice!, marker, 2000);
    await expect.poll(async () => (await newMessages('bob', since)).length, { timeout: 20_000 }).toBe(1);
  });

  it('busy, declined, or signed out: the call goes to voicemail; without the default forward the caller hears busy / unavailable', async () => {
    await phones.bob!.setIncoming('busy');
    try {
      const key = await phones.alice!.call('1002');
      await phones.alice!.waitFor(key, 'confirmed');
      await phones.alice!.hangup(key);
      await phones.alice!.waitFor(key, 'ended');
      // Declined (603) goes there too.
      await phones.bob!.setIncoming('decline');
      const declined = await phones.alice!.call('1002');
      await phones.alice!.waitFor(declined, 'confirmed');
      await phones.alice!.hangup(declined);
      await phones.alice!.waitFor(declined, 'ended');
      await phones.bob!.setIncoming('busy');
      // Olivia has no phone signed in here: her voicemail answers.
      const offline = await phones.alice!.call('1000');
      await phones.alice!.waitFor(offline, 'confirmed');
      await phones.alice!.hangup(offline);
      await phones.alice!.waitFor(offline, 'ended');

      expect((await put('bob', '/v1/broad/forwards/default', { enabled: false, destination: null })).statusCode).toBe(200);
      const busy = await phones.alice!.call('1002');
      expect((await phones.alice!.waitFor(busy, 'ended')).endStatus).toBe(486);
    } finally {
      await phones.bob!.setIncoming('answer');
      await put('bob', '/v1/broad/forwards/default', { enabled: true, destination: { destination_type: 'box', destination_id: null, destination_name: null, destination_parameter: null } });
    }
    const saved = await api.get<{ enabled: boolean; destination: { destination_type: string; destination_parameter: string } }>('/v1/broad/forwards/default', tokens.bob!);
    expect(saved).toMatchObject({ enabled: true, destination: { destination_type: 'box', destination_parameter: '1002' } });
  });
});

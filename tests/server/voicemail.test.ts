import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranscriptionV2, VoiceMessagesV1, VoicemailsV2, VoicemailV2 } from '../../src/wire/voicemail';
import { readWav } from '../../server/media/wav';
import { voicemailFileName } from '../../server/voicemail/routes';
import { backends, bearer, SEED_NOW, startTestServer, type TestServer } from './helpers';

describe.each(backends)('voicemail API ($name)', (backend) => {
  let t: TestServer;
  let alice: string;
  let bob: string;
  let aliceId: number;
  beforeAll(async () => {
    t = await startTestServer(backend);
    alice = await t.login('alice');
    bob = await t.login('bob');
    aliceId = await t.userId('alice');
  });
  afterAll(() => t?.close());

  const v1List = async (token: string) => VoiceMessagesV1.parse((await t.app.inject({ url: '/v1/voice-messages?primary_extension=1', headers: bearer(token) })).json()).items;

  it('v1 lists the mailbox newest first, with spoken transcripts where the state is Succeeded', async () => {
    const items = await v1List(alice);
    expect(items.length).toBe(12);
    const times = items.map((i) => Date.parse(i.vm_timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(times[0]).toBeLessThanOrEqual(SEED_NOW.getTime());
    expect(items.filter((i) => i.status === 'UNREAD').length).toBe(5);
    for (const i of items) {
      if (i.vm_text_state === 'Succeeded') expect(i.vm_text).toMatch(/\w+ \w+ \w+/);
      else expect(i.vm_text).toBeNull();
    }
    expect(new Set(items.map((i) => i.vm_text_state))).toEqual(new Set(['Succeeded', 'In Progress', 'Failed', 'None']));
  });

  it('v2 lists the same messages without the text, which the transcription call gives', async () => {
    const res = await t.app.inject({ url: `/v2/user/${aliceId}/voicemails`, headers: bearer(alice) });
    const { voicemails } = VoicemailsV2.parse(res.json());
    const v1 = await v1List(alice);
    expect(voicemails.map((v) => v.msg_id)).toEqual(v1.map((v) => String(v.vm_id)));
    const done = voicemails.find((v) => v.transcription.state === 'Succeeded')!;
    expect(done.transcription.text).toBeNull();
    expect(done.origtime).toBe(Math.floor(Date.parse(v1.find((v) => String(v.vm_id) === done.msg_id)!.vm_timestamp) / 1000));
    const tr = TranscriptionV2.parse((await t.app.inject({ url: `/v2/voicemail/${done.msg_id}/transcription`, headers: bearer(alice) })).json());
    expect(tr.state).toBe('Succeeded');
    expect(tr.text).toBe(v1.find((v) => String(v.vm_id) === done.msg_id)!.vm_text);
    const detail = VoicemailV2.parse((await t.app.inject({ url: `/v2/voicemail/${done.msg_id}`, headers: bearer(alice) })).json());
    expect(detail.transcription.text).toBe(tr.text);
  });

  it('only the owner reaches a message: another user gets 404 for it and 403 for the list', async () => {
    const [first] = await v1List(alice);
    const id = first!.vm_id;
    for (const [method, url] of [
      ['GET', `/v1/voice-messages/${id}/media`],
      ['PUT', `/v1/voice-messages/${id}/status`],
      ['DELETE', `/v1/voice-messages/${id}`],
      ['GET', `/v2/voicemail/${id}`],
      ['GET', `/v2/voicemail/${id}/download`],
      ['GET', `/v2/voicemail/${id}/transcription`],
      ['POST', `/v2/voicemail/${id}/old`],
      ['DELETE', `/v2/voicemail/${id}`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: bearer(bob), payload: method === 'PUT' ? { status: 'READ' } : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await t.app.inject({ url: `/v2/user/${aliceId}/voicemails`, headers: bearer(bob) })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/v1/voice-messages' })).statusCode).toBe(401);
    // Still there, untouched.
    expect((await v1List(alice)).find((v) => v.vm_id === id)?.status).toBe(first!.status);
  });

  it('marks read and unread in both generations', async () => {
    const unread = (await v1List(alice)).find((v) => v.status === 'UNREAD')!;
    const put = await t.app.inject({ method: 'PUT', url: `/v1/voice-messages/${unread.vm_id}/status`, headers: bearer(alice), payload: { status: 'READ' } });
    expect(put.json().status).toBe('READ');
    const nw = await t.app.inject({ method: 'POST', url: `/v2/voicemail/${unread.vm_id}/new`, headers: bearer(alice) });
    expect(VoicemailV2.parse(nw.json()).status).toBe('Unread');
    const old = await t.app.inject({ method: 'POST', url: `/v2/voicemail/${unread.vm_id}/old`, headers: bearer(alice) });
    expect(old.json().status).toBe('Read');
    expect((await v1List(alice)).find((v) => v.vm_id === unread.vm_id)!.status).toBe('READ');
  });

  it('refuses malformed requests with a clear 400', async () => {
    const bad = await t.app.inject({ method: 'PUT', url: '/v1/voice-messages/1/status', headers: bearer(alice), payload: { status: 'SEEN' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'validation_failed', message: 'Invalid voicemail status', details: [{ path: 'status' }] });
    expect((await t.app.inject({ url: '/v1/voice-messages/abc/media', headers: bearer(alice) })).json().message).toBe('Invalid voicemail id');
    expect((await t.app.inject({ url: '/v2/voicemail/0', headers: bearer(alice) })).statusCode).toBe(400);
    const empty = await t.app.inject({ method: 'DELETE', url: '/v1/voice-messages', headers: bearer(alice), payload: { messages: [] } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Invalid voicemail delete request');
  });

  it('serves the audio as a real WAV with byte ranges', async () => {
    const [first] = await v1List(alice);
    const full = await t.app.inject({ url: `/v1/voice-messages/${first!.vm_id}/media`, headers: bearer(alice) });
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('audio/wav');
    expect(full.headers['accept-ranges']).toBe('bytes');
    const wav = readWav(full.rawPayload);
    expect(wav.durationMs).toBeGreaterThan(2000);
    expect(Math.abs(wav.durationMs / 1000 - first!.duration)).toBeLessThanOrEqual(1);
    // Not silence: speech has loud samples.
    let peak = 0;
    for (let i = wav.dataOffset; i + 1 < wav.dataOffset + wav.dataBytes; i += 2) peak = Math.max(peak, Math.abs(full.rawPayload.readInt16LE(i)));
    expect(peak).toBeGreaterThan(3000);

    const part = await t.app.inject({ url: `/v1/voice-messages/${first!.vm_id}/media`, headers: { ...bearer(alice), range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${full.rawPayload.length}`);
    expect(part.rawPayload).toEqual(full.rawPayload.subarray(100, 200));
    const tail = await t.app.inject({ url: `/v1/voice-messages/${first!.vm_id}/media`, headers: { ...bearer(alice), range: 'bytes=-10' } });
    expect(tail.rawPayload).toEqual(full.rawPayload.subarray(full.rawPayload.length - 10));
    const out = await t.app.inject({ url: `/v1/voice-messages/${first!.vm_id}/media`, headers: { ...bearer(alice), range: `bytes=${full.rawPayload.length}-` } });
    expect(out.statusCode).toBe(416);
    expect(out.headers['content-range']).toBe(`bytes */${full.rawPayload.length}`);
  });

  it('v2 download names the file from the timestamp and caller number', async () => {
    const [first] = await v1List(alice);
    const res = await t.app.inject({ url: `/v2/voicemail/${first!.vm_id}/download`, headers: bearer(alice) });
    expect(res.statusCode).toBe(200);
    const name = voicemailFileName(new Date(first!.vm_timestamp), first!.caller_number);
    expect(res.headers['content-disposition']).toContain(`filename="${name}"`);
    expect(name).toMatch(/^voicemail-\d{8}-\d{4}-\d+\.wav$/);
    expect(voicemailFileName(new Date('2026-03-20T14:12:00Z'), '+1 (415) 555-0116')).toBe('voicemail-20260320-1412-14155550116.wav');
  });

  it('deletes one message, or several at once only when all are the owner’s', async () => {
    const before = await v1List(alice);
    const [a, b, c] = before;
    const bobsFirst = (await v1List(bob))[0]!;
    const mixed = await t.app.inject({ method: 'DELETE', url: '/v1/voice-messages', headers: bearer(alice), payload: { messages: [a!.vm_id, bobsFirst.vm_id] } });
    expect(mixed.statusCode).toBe(404);
    expect((await v1List(alice)).length).toBe(before.length);
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/voice-messages', headers: bearer(alice), payload: { messages: [a!.vm_id, b!.vm_id] } })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'DELETE', url: `/v2/voicemail/${c!.vm_id}`, headers: bearer(alice) })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'DELETE', url: `/v2/voicemail/${c!.vm_id}`, headers: bearer(alice) })).statusCode).toBe(404);
    expect((await v1List(alice)).length).toBe(before.length - 3);
    expect((await v1List(bob)).length).toBe(12);
  });

  it('the voicemail2 feature follows the account: carol is on the first generation', async () => {
    const carol = await t.login('carol');
    const cfg = (tok: string) => t.app.inject({ url: '/v1/ucc-config', headers: bearer(tok) }).then((r) => r.json());
    expect((await cfg(carol)).features.voicemail2).toBe(false);
    expect((await cfg(alice)).features.voicemail2).toBe(true);
    expect((await cfg(alice)).mailbox_number).toBe('1001');
  });
});

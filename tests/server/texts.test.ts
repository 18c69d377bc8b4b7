import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { migrate } from '../../server/db/migrate';
import type { Db } from '../../server/db/types';
import { DEMO_PASSWORD, seedDemo } from '../../server/seed';
import type { TextDelivery } from '../../server/texts/delivery';
import { textStanza } from '../../server/texts/delivery';
import { webhookSignature } from '../../server/texts/routes';
import {
  ATTACHMENT_MAX_TOTAL_BYTES,
  CarrierAccountResponse,
  CarrierMessage,
  MessagingDidsResponse,
  SendTextResponse,
  TextConversationsResponse,
  TextMedia,
  TextMessagesResponse,
  type TextConversation,
  type TextMessage,
} from '../../src/wire/texts';
import { backends, bearer, multipart, PNG, SEED_NOW } from './helpers';

const ALICE_DID = '+14155550101';
const BOB_DID = '+14155550102';
const CAROL_DID = '+14155550103';
const OUTSIDE = '+12125550123';

describe.each(backends)('texts (SMS/MMS) ($name)', (backend) => {
  let app: FastifyInstance;
  let db: Db;
  let dispose: () => Promise<void>;
  let runtimeDir: string;
  /** What the (fake) delivery pushed: the real one goes through ejabberd (see the e2e and services tests). */
  const pushed: Array<{ username: string; conversation: TextConversation; message: TextMessage }> = [];
  const delivery: TextDelivery = { deliver: async (username, conversation, message) => void pushed.push({ username, conversation, message }) };
  const tokens: Record<string, string> = {};

  const login = async (username: string) => {
    if (tokens[username]) return tokens[username];
    const res = await app.inject({ method: 'POST', url: '/login', payload: { username, password: DEMO_PASSWORD } });
    return (tokens[username] = res.json().access_token as string);
  };
  const send = async (username: string, payload: unknown) => app.inject({ method: 'POST', url: '/v1/texts/messages', headers: bearer(await login(username)), payload: payload as object });
  const secret = async () => CarrierAccountResponse.parse((await app.inject({ url: '/v1/texts/carrier', headers: bearer(await login('olivia')) })).json());
  const webhook = async (body: unknown, sign = true) => {
    const acct = await secret();
    const raw = JSON.stringify(body);
    return app.inject({
      method: 'POST',
      url: acct.webhook_url,
      headers: { 'content-type': 'application/json', ...(sign ? { 'x-uc-signature': webhookSignature(acct.secret, raw) } : {}) },
      payload: raw,
    });
  };
  const upload = async (username: string, name: string, content: Buffer) => {
    const m = multipart('file', name, 'application/octet-stream', content);
    return app.inject({ method: 'POST', url: '/v1/texts/attachments', headers: { ...bearer(await login(username)), ...m.headers }, payload: m.payload });
  };

  beforeAll(async () => {
    const opened = await backend.open();
    db = opened.db;
    dispose = opened.dispose;
    await migrate(db);
    await seedDemo(db, { now: SEED_NOW });
    runtimeDir = await mkdtemp(path.join(tmpdir(), 'uc-texts-test-'));
    app = await buildApp({ db, runtimeDir, texts: { delivery } });
  });
  afterAll(async () => {
    await app?.close();
    await dispose?.();
    await rm(runtimeDir, { recursive: true, force: true });
  });
  beforeEach(() => void pushed.splice(0));

  it('GET /v1/p1/messaging-dids: the user’s numbers with their MMS feature, and the banned numbers', async () => {
    const res = await app.inject({ url: '/v1/p1/messaging-dids', headers: bearer(await login('alice')) });
    expect(res.statusCode).toBe(200);
    const body = MessagingDidsResponse.parse(res.json());
    expect(body.dids).toEqual([{ number: ALICE_DID, label: 'Business texts', mms_enabled: true }]);
    expect(body.banned_numbers).toContain('+14155550666');
    const carol = MessagingDidsResponse.parse((await app.inject({ url: '/v1/p1/messaging-dids', headers: bearer(await login('carol')) })).json());
    expect(carol.dids[0]).toMatchObject({ number: CAROL_DID, mms_enabled: false });
    expect((await app.inject({ url: '/v1/p1/messaging-dids' })).statusCode).toBe(401);
  });

  it('sends through the loopback carrier, stores the conversation and pushes it to the sender’s clients', async () => {
    const res = await send('alice', { id: 'ucc-V1-test-1', from: ALICE_DID, to: ['(212) 555-0123'], body: '  hello there  ' });
    expect(res.statusCode).toBe(201);
    const { conversation, message } = SendTextResponse.parse(res.json());
    expect(message).toMatchObject({ id: 'ucc-V1-test-1', direction: 'out', from: ALICE_DID, body: 'hello there', status: 'delivered' });
    expect(conversation).toMatchObject({ kind: 'sms', did: ALICE_DID, members: [OUTSIDE], jid: 'c.14155550101.12125550123@sms.uc.local' });
    expect(pushed).toEqual([expect.objectContaining({ username: 'alice', message: expect.objectContaining({ id: 'ucc-V1-test-1' }) })]);

    const acct = await secret();
    const carrierRes = await app.inject({ url: `/carrier/loopback/v1/messages?to=${encodeURIComponent(OUTSIDE)}`, headers: { authorization: `Bearer ${acct.secret}` } });
    expect(carrierRes.statusCode).toBe(200);
    const sent = (carrierRes.json().messages as unknown[]).map((m) => CarrierMessage.parse(m));
    expect(sent[0]).toMatchObject({ from: ALICE_DID, to: [OUTSIDE], text: 'hello there' });
    expect((await app.inject({ url: '/carrier/loopback/v1/messages', headers: { authorization: 'Bearer wrong' } })).statusCode).toBe(401);

    const list = TextConversationsResponse.parse((await app.inject({ url: '/v1/texts/conversations', headers: bearer(await login('alice')) })).json());
    expect(list.conversations.find((c) => c.jid === conversation.jid)?.last?.body).toBe('hello there');
    const page = TextMessagesResponse.parse((await app.inject({ url: `/v1/texts/conversations/${encodeURIComponent(conversation.jid)}/messages`, headers: bearer(await login('alice')) })).json());
    expect(page.messages.map((m) => m.id)).toContain('ucc-V1-test-1');
    // Another user cannot read it.
    expect((await app.inject({ url: `/v1/texts/conversations/${encodeURIComponent(conversation.jid)}/messages`, headers: bearer(await login('bob')) })).statusCode).toBe(404);
  });

  it('validates a text server-side: 1000 characters, US numbers, own number, banned numbers, a message', async () => {
    const code = async (payload: object, username = 'alice') => {
      const r = await send(username, payload);
      return [r.statusCode, r.json().error];
    };
    expect(await code({ from: ALICE_DID, to: [OUTSIDE], body: 'x'.repeat(1001) })).toEqual([400, 'text_too_long']);
    expect((await send('alice', { from: ALICE_DID, to: [OUTSIDE], body: 'x'.repeat(1000) })).statusCode).toBe(201);
    expect(await code({ from: ALICE_DID, to: ['+44 7911 123456'], body: 'hi' })).toEqual([400, 'invalid_recipient']);
    expect(await code({ from: ALICE_DID, to: ['12345'], body: 'hi' })).toEqual([400, 'invalid_recipient']);
    expect(await code({ from: ALICE_DID, to: [ALICE_DID], body: 'hi' })).toEqual([400, 'recipient_required']);
    expect(await code({ from: ALICE_DID, to: ['415-555-0666'], body: 'hi' })).toEqual([400, 'banned_number']);
    expect(await code({ from: ALICE_DID, to: ['900-555-0199'], body: 'hi' })).toEqual([400, 'banned_number']);
    expect(await code({ from: BOB_DID, to: [OUTSIDE], body: 'hi' })).toEqual([400, 'not_your_number']);
    expect(await code({ from: ALICE_DID, to: [OUTSIDE], body: '   ' })).toEqual([400, 'message_required']);
    expect(await code({ from: ALICE_DID, to: [], body: 'hi' })).toEqual([400, 'validation_failed']);
  });

  it('a text to two numbers is a group text (t. address), and a deployment number receives it', async () => {
    const res = await send('alice', { from: ALICE_DID, to: [OUTSIDE, BOB_DID], body: 'group hello' });
    expect(res.statusCode).toBe(201);
    const { conversation } = SendTextResponse.parse(res.json());
    expect(conversation.kind).toBe('group_sms');
    expect(conversation.jid).toMatch(/^t\.14155550101\.[0-9a-f]{16}@sms\.uc\.local$/);
    expect(conversation.members).toEqual([OUTSIDE, BOB_DID].sort());
    // Bob's number is served by the loopback carrier: bob gets it in his group with alice and the outside number.
    const toBob = pushed.find((p) => p.username === 'bob');
    expect(toBob?.conversation).toMatchObject({ kind: 'group_sms', did: BOB_DID, members: [OUTSIDE, ALICE_DID].sort() });
    expect(toBob?.message).toMatchObject({ direction: 'in', from: ALICE_DID, body: 'group hello' });
  });

  it('the inbound webhook: signed with the organisation secret, validated, stored once, pushed live, unread until read', async () => {
    expect((await webhook({ id: 'w-0', from: OUTSIDE, to: [ALICE_DID], text: 'hi' }, false)).statusCode).toBe(401);
    const acct = await secret();
    const bad = await app.inject({ method: 'POST', url: acct.webhook_url, headers: { 'content-type': 'application/json', 'x-uc-signature': webhookSignature('not-the-secret', '{}') }, payload: '{}' });
    expect(bad.statusCode).toBe(401);
    expect((await webhook({ id: 'w-1', from: OUTSIDE, to: [OUTSIDE], text: 'hi' })).statusCode).toBe(404);
    expect((await webhook({ id: 'w-1', from: 'nope', to: [ALICE_DID], text: 'hi' })).json().error).toBe('invalid_number');
    expect((await webhook({ id: 'w-1', from: OUTSIDE, to: [ALICE_DID], text: 'x'.repeat(1001) })).statusCode).toBe(400);

    const ok = await webhook({ id: 'w-1', from: '+13105550177', to: [ALICE_DID], text: 'inbound hello' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ accepted: true, duplicate: false, delivered_to: 1 });
    expect(pushed).toHaveLength(1);
    expect(pushed[0]).toMatchObject({ username: 'alice', message: { direction: 'in', from: '+13105550177', body: 'inbound hello' } });
    expect(pushed[0]!.message.id).toMatch(/^ucc-V1-/);
    // A provider's retry of the same id is not stored twice.
    expect((await webhook({ id: 'w-1', from: '+13105550177', to: [ALICE_DID], text: 'inbound hello' })).json()).toMatchObject({ duplicate: true });
    expect(pushed).toHaveLength(1);

    const jid = pushed[0]!.conversation.jid;
    const unread = async () => TextConversationsResponse.parse((await app.inject({ url: '/v1/texts/conversations', headers: bearer(await login('alice')) })).json()).conversations.find((c) => c.jid === jid)?.unread;
    expect(await unread()).toBe(1);
    const read = await app.inject({ method: 'PUT', url: `/v1/texts/conversations/${encodeURIComponent(jid)}/read`, headers: bearer(await login('alice')), payload: {} });
    expect(read.statusCode).toBe(204);
    expect(await unread()).toBe(0);
  });

  it('MMS: allowed extensions (any case), the MMS feature, at most 3670016 bytes in total; served to the owner only', async () => {
    const up = await upload('alice', 'Photo.PNG', PNG);
    expect(up.statusCode).toBe(201);
    const media = TextMedia.parse(up.json());
    expect(media).toMatchObject({ type: 'image', ext: 'png', ogName: 'Photo.PNG', bytes: PNG.length });
    expect((await upload('alice', 'script.exe', PNG)).json().error).toBe('extension_not_allowed');
    expect((await upload('carol', 'photo.png', PNG)).json().error).toBe('mms_disabled');
    const big = await upload('alice', 'big.pdf', Buffer.alloc(ATTACHMENT_MAX_TOTAL_BYTES + 1));
    expect(big.statusCode).toBe(413);

    const res = await send('alice', { from: ALICE_DID, to: [OUTSIDE], body: '', media: [media.id] });
    expect(res.statusCode).toBe(201);
    const { message } = SendTextResponse.parse(res.json());
    // Empty input with media is sent as a single space.
    expect(message.body).toBe(' ');
    expect(message.media[0]).toMatchObject({ id: media.id, type: 'image' });

    // Two attachments over the total are refused together.
    const a = TextMedia.parse((await upload('alice', 'a.pdf', Buffer.alloc(2_000_000))).json());
    const b = TextMedia.parse((await upload('alice', 'b.pdf', Buffer.alloc(2_000_000))).json());
    const over = await send('alice', { from: ALICE_DID, to: [OUTSIDE], body: 'two files', media: [a.id, b.id] });
    expect(over.statusCode).toBe(413);
    expect(over.json().message).toBe('Attachments may total at most 3670016 bytes');

    const own = await app.inject({ url: media.url, headers: bearer(await login('alice')) });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/png');
    expect(Buffer.from(own.rawPayload).equals(PNG)).toBe(true);
    expect((await app.inject({ url: media.url, headers: bearer(await login('bob')) })).statusCode).toBe(404);
    expect((await app.inject({ url: media.url })).statusCode).toBe(401);
    // Someone else's attachment cannot be sent either.
    expect((await send('bob', { from: BOB_DID, to: [OUTSIDE], body: 'x', media: [media.id] })).statusCode).toBe(404);
  });

  it('an inbound MMS arrives with its attachment stored for the recipient; over the size limit it is refused', async () => {
    const ok = await webhook({ id: 'w-mms', from: OUTSIDE, to: [ALICE_DID], media: [{ filename: 'pic.jpg', content_type: 'image/jpeg', data_base64: PNG.toString('base64') }] });
    expect(ok.statusCode).toBe(200);
    const m = pushed[0]!.message;
    expect(m.body).toBe(' ');
    expect(m.media[0]).toMatchObject({ type: 'image', ogName: 'pic.jpg' });
    expect((await app.inject({ url: m.media[0]!.url, headers: bearer(await login('alice')) })).statusCode).toBe(200);
    const big = await webhook({ id: 'w-big', from: OUTSIDE, to: [ALICE_DID], media: [{ filename: 'big.mp4', content_type: 'video/mp4', data_base64: Buffer.alloc(ATTACHMENT_MAX_TOTAL_BYTES + 1).toString('base64') }] });
    expect(big.statusCode).toBe(413);
    expect((await webhook({ id: 'w-carol', from: OUTSIDE, to: [CAROL_DID], media: [{ filename: 'p.png', content_type: 'image/png', data_base64: PNG.toString('base64') }] })).json().error).toBe('mms_disabled');
  });

  it('the limited-access role has no texts, and the banned list goes only to users who can text', async () => {
    const dave = await login('dave');
    for (const [method, url] of [
      ['GET', '/v1/p1/messaging-dids'],
      ['GET', '/v1/texts/conversations'],
      ['GET', '/v1/texts/conversations/x/messages'],
      ['PUT', '/v1/texts/conversations/x/read'],
      ['POST', '/v1/texts/messages'],
      ['GET', '/v1/texts/attachments/x'],
    ] as const) {
      const res = await app.inject({ method, url, headers: bearer(dave), ...(method === 'GET' ? {} : { payload: {} }) });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await upload('dave', 'a.png', PNG)).statusCode).toBe(403);
    // rita (another organisation's administrator) has no messaging number: no numbers, no banned list.
    const rita = MessagingDidsResponse.parse((await app.inject({ url: '/v1/p1/messaging-dids', headers: bearer(await login('rita')) })).json());
    expect(rita).toEqual({ dids: [], banned_numbers: [] });
  });

  it('attachments are typed by their content, not their name', async () => {
    const html = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');
    const refused = await upload('alice', 'evil.png', html);
    expect(refused.statusCode).toBe(415);
    expect(refused.json().error).toBe('content_mismatch');
    expect((await upload('alice', 'clip.mp4', html)).json().error).toBe('content_mismatch');
    // A PNG named .jpg is a picture, served as what it is.
    const png = TextMedia.parse((await upload('alice', 'dot.jpg', PNG)).json());
    expect((await app.inject({ url: png.url, headers: bearer(await login('alice')) })).headers['content-type']).toBe('image/png');
    // What a carrier delivers is not trusted either: served as a download, never as an image.
    const inbound = await webhook({ id: 'w-html', from: OUTSIDE, to: [ALICE_DID], media: [{ filename: 'pic.png', content_type: 'image/png', data_base64: html.toString('base64') }] });
    expect(inbound.statusCode).toBe(200);
    const served = await app.inject({ url: pushed.at(-1)!.message.media[0]!.url, headers: bearer(await login('alice')) });
    expect(served.headers['content-type']).toBe('application/octet-stream');
    expect(served.headers['content-disposition']).toMatch(/^attachment;/);
  });

  it('the carrier settings are for account owners and administrators only', async () => {
    expect((await app.inject({ url: '/v1/texts/carrier', headers: bearer(await login('alice')) })).statusCode).toBe(403);
  });

  it('the XMPP message is a body-less headline carrying the details as escaped JSON', () => {
    const xml = textStanza(
      { jid: 'c.1.2@sms.uc.local', kind: 'sms', did: ALICE_DID, members: [OUTSIDE], unread: 0, read_at: null, last: null },
      { id: 'ucc-V1-x', direction: 'in', from: OUTSIDE, body: '<b>&"hi"</b>', media: [], status: 'delivered', sent_at: new Date(0).toISOString() },
    );
    expect(xml).toContain("type='headline'");
    expect(xml).not.toContain('<body>');
    expect(xml).toContain("<text xmlns='urn:uc:texts:0'>{&quot;conversation&quot;");
    expect(xml).toContain('&lt;b&gt;&amp;\\&quot;hi\\&quot;&lt;/b&gt;');
  });
});

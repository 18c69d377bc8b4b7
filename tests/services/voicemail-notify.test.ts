/**
 * A new voicemail tells its owner the way they asked in their UC settings: a text to their mobile
 * number through the carrier (the loopback carrier, whose own API shows what it sent) and an e-mail
 * with the message attached, received here by a real SMTP server (smtp-server) and read with
 * mailparser. The message itself is left through the real stack, as in voicemail.test.ts.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWav } from '../../server/media/wav';
import { internalApiSecret } from '../../server/services/kamailio';
import { readGreetingInfo } from '../../server/services/voicemail';
import { CarrierAccountResponse, type CarrierMessage } from '../../src/wire/texts';
import { putAs, startServicesApi, type ServicesApi } from './harness';
import { signedInPhones, type SignedInPhones } from './sip-page';

let api: ServicesApi;
let signedIn: SignedInPhones;
let smtp: SMTPServer;
const mails: ParsedMail[] = [];
let messageStartsMs = 0;
let bobId = 0;
const BOB_MOBILE = '+14155550142';

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, done) {
      simpleParser(stream).then(
        (mail) => {
          mails.push(mail);
          done();
        },
        (err: Error) => done(err),
      );
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  api = await startServicesApi({ smtpUrl: `smtp://127.0.0.1:${port}` });
  messageStartsMs = (await readGreetingInfo(api.cfg)).messageStartsMs;
  signedIn = await signedInPhones(api, ['alice', 'bob']);
  bobId = await api.userId('bob');
  const secret = await internalApiSecret(api.cfg);
  const route = async () => (await api.app.inject({ url: '/internal/sip/route?callee=1002&on=voicemail', headers: { 'x-uc-internal': secret } })).body;
  // The API connects to the voicemail phone in the background; calls go to voicemail once it has.
  for (const deadline = Date.now() + 15_000; (await route()) !== 'voicemail:1002'; ) {
    if (Date.now() > deadline) throw new Error('the API server did not connect to the voicemail phone');
    await new Promise((r) => setTimeout(r, 100));
  }
  // Bob's mobile number, saved as the profile form saves it.
  const phones = await putAs(api, signedIn.tokens.bob!, `/v1/users/${bobId}/phone-numbers`, {
    items: [{ source: 'personal', source_id: null, extension: null, number: BOB_MOBILE, is_primary: true, type: 'mobile' }],
  });
  if (phones.statusCode !== 200) throw new Error(`bob's mobile number not saved: ${phones.body}`);
});

afterAll(async () => {
  await signedIn?.close();
  await api?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

const settings = (patch: Record<string, boolean>) => putAs(api, signedIn.tokens.bob!, `/v1/users/${bobId}/settings/uc`, patch);

async function carrierSent(): Promise<CarrierMessage[]> {
  const acct = CarrierAccountResponse.parse(await api.get('/v1/texts/carrier', await api.login('olivia')));
  const res = await api.app.inject({ url: '/carrier/loopback/v1/messages', headers: { authorization: `Bearer ${acct.secret}` } });
  expect(res.statusCode).toBe(200);
  return (res.json() as { messages: CarrierMessage[] }).messages;
}

async function newestVoicemail(): Promise<number> {
  const { rows } = await api.db.query<{ id: number | null }>('SELECT max(id) AS id FROM voicemails WHERE user_id = $1', [bobId]);
  return rows[0]?.id ?? 0;
}

/** Alice leaves bob a message of about 2 s; resolves with its id once it is filed. */
async function leaveMessage(): Promise<number> {
  const before = await newestVoicemail();
  const alice = signedIn.phones.alice!;
  const key = await alice.call('1002*');
  await alice.waitFor(key, 'confirmed');
  await new Promise((r) => setTimeout(r, messageStartsMs + 2000)); // the greeting's length is what is being waited for
  await alice.hangup(key);
  await alice.waitFor(key, 'ended');
  await expect.poll(newestVoicemail, { timeout: 20_000 }).toBeGreaterThan(before);
  return newestVoicemail();
}

describe('voicemail notifications', () => {
  it('with both settings on: a text to the mobile number at the carrier and an e-mail with the WAV attached', async () => {
    expect((await settings({ sms_notification: true, email_notification: true })).statusCode).toBe(200);
    const textsBefore = (await carrierSent()).length;
    const mailsBefore = mails.length;
    const id = await leaveMessage();

    await expect.poll(async () => (await carrierSent()).filter((m) => m.to.includes(BOB_MOBILE)).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const texts = (await carrierSent()).slice(textsBefore);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatchObject({ from: '+14155550102', to: [BOB_MOBILE], text: expect.stringMatching(/^New voicemail from Alice .*\(1001\)/) });

    await expect.poll(() => mails.length, { timeout: 10_000 }).toBe(mailsBefore + 1);
    const mail = mails.at(-1)!;
    const { rows } = await api.db.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [bobId]);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((a) => a.address) : []).toEqual([rows[0]!.email]);
    expect(mail.subject).toMatch(/^New voicemail from Alice .*\(1001\)/);
    expect(mail.attachments).toHaveLength(1);
    const [wav] = mail.attachments;
    expect(wav).toMatchObject({ filename: `voicemail-${id}.wav`, contentType: 'audio/wav' });
    // The very message filed in the mailbox.
    const stored = await api.db.query<{ bytes: Buffer }>('SELECT b.bytes FROM voicemails v JOIN media_blobs b ON b.id = v.media_id WHERE v.id = $1', [id]);
    expect(Buffer.compare(wav!.content, Buffer.from(stored.rows[0]!.bytes))).toBe(0);
    expect(readWav(wav!.content).durationMs).toBeGreaterThan(1000);
  });

  it('with both off (the default): no text, no e-mail', async () => {
    expect((await settings({ sms_notification: false, email_notification: false })).statusCode).toBe(200);
    const textsBefore = (await carrierSent()).length;
    const mailsBefore = mails.length;
    await leaveMessage();
    // A marker through the same path afterwards: once its text is at the carrier, the earlier message had its chance.
    expect((await settings({ sms_notification: true })).statusCode).toBe(200);
    const marker = await leaveMessage();
    await expect.poll(async () => (await carrierSent()).length, { timeout: 10_000 }).toBe(textsBefore + 1);
    expect(mails.length).toBe(mailsBefore);
    expect(marker).toBeGreaterThan(0);
    await settings({ sms_notification: false });
  });
});

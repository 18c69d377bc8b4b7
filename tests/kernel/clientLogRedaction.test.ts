// @vitest-environment jsdom
/**
 * No secret goes into the client log: realistic payloads logged through a plugin's logger, read
 * back from the downloaded file. jsdom: stanzas are DOM elements here, as Strophe hands them over.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/kernel/api';
import { attachLogSink, createLogger } from '../../src/kernel/log';
import { memoryBackend } from '../../src/kernel/clientLogStore/backends';
import { createClientLog, type ClientLog } from '../../src/kernel/clientLogStore/store';

// A real HS256 access token's shape (header.payload.signature, base64url).
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyOjciLCJhdWQiOiJ1Yy1hcGkiLCJleHAiOjE3OTk5OTk5OTl9.kX3l8yQ0tF9cB2mZ_r7wq1Lh5nV0pA4sD6eG8iJ2uKo';
const JWT_PARTS = JWT.split('.');
const PASSWORD = 'Hunter2!secret';

let log: ClientLog;
let detach: () => void;

beforeEach(() => {
  attachLogSink({ write: () => {} })();
  for (const m of ['debug', 'info', 'warn', 'error'] as const) vi.spyOn(console, m).mockImplementation(() => {});
  log = createClientLog({ backend: memoryBackend(), storage: { getItem: () => 'trace', setItem: () => {} } });
  detach = attachLogSink(log);
});

afterEach(() => {
  detach();
  vi.restoreAllMocks();
});

const file = async () => (await log.download()).text();

/** No trace of any of these in the file: the whole secret, nor a telling piece of it. */
function expectNone(text: string, ...secrets: string[]) {
  for (const s of secrets) expect(text, `leaked ${s}`).not.toContain(s);
}

describe('client log redaction', () => {
  it('a login request and its answer: password and tokens go, the rest stays', async () => {
    const auth = createLogger('shell');
    auth.debug('POST /login', { username: 'alice@uc.test', password: PASSWORD, remember: true });
    auth.debug('login answered', { access_token: JWT, refresh_token: 'r-7f3a9c0d1e2b', token_type: 'Bearer', expires_in: 900, user_id: 7 });
    auth.debug('form body', `username=alice%40uc.test&password=${encodeURIComponent(PASSWORD)}&remember=1`);
    auth.debug('password change', JSON.stringify({ current_password: PASSWORD, new_password: 'N3w!Passw0rd', confirm: 'N3w!Passw0rd' }));
    auth.debug('body twice encoded', JSON.stringify(JSON.stringify({ new_password: PASSWORD, token: 'opaque-1234' })));
    const text = await file();
    expectNone(text, PASSWORD, encodeURIComponent(PASSWORD), 'opaque-1234', 'N3w!Passw0rd', 'r-7f3a9c0d1e2b', ...JWT_PARTS);
    expect(text).toContain('"username":"alice@uc.test"');
    expect(text).toContain('"password":"[redacted]"');
    expect(text).toContain('"token_type":"Bearer"');
    expect(text).toContain('"expires_in":900');
    expect(text).toContain('username=alice%40uc.test&password=[redacted]&remember=1');
    expect(text).toContain('{\\"current_password\\":\\"[redacted]\\",\\"new_password\\":\\"[redacted]\\",');
  });

  it('an ApiError carrying its request: status, message and stack stay, the credentials in it go', async () => {
    const err = new ApiError(401, { error: 'unauthorized', message: 'token_expired' });
    Object.assign(err, {
      request: {
        method: 'PATCH',
        url: `/v1/users/7?access_token=${JWT}`,
        headers: new Headers({ Authorization: `Bearer ${JWT}`, 'Content-Type': 'application/json' }),
        init: { headers: { authorization: `Bearer ${JWT}` } },
        body: JSON.stringify({ current_password: PASSWORD, new_password: 'N3w!Passw0rd' }),
      },
      cause: new Error(`fetch /v1/users/7 with Authorization: Bearer ${JWT}`),
    });
    createLogger('preferences').error('password change failed', err);
    createLogger('kernel').error(`renewal failed for Bearer ${JWT}`);
    const text = await file();
    expectNone(text, PASSWORD, 'N3w!Passw0rd', ...JWT_PARTS);
    expect(text).toContain('"name":"ApiError"');
    expect(text).toContain('"message":"token_expired"');
    expect(text).toContain('"status":401');
    expect(text).toMatch(/"stack":"ApiError: token_expired\\n\s+at /);
    expect(text).toContain('"content-type":"application/json"');
    expect(text).toContain('"method":"PATCH"');
    expect(text).toContain('renewal failed for Bearer [redacted]');
  });

  it('a JsSIP REGISTER and INVITE with digest credentials: the Authorization lines go, the rest of the message stays', async () => {
    const register = [
      'REGISTER sip:uc.test SIP/2.0',
      'Via: SIP/2.0/WSS 9f2k1.invalid;branch=z9hG4bK4311377',
      'From: <sip:1001@uc.test>;tag=p4a8fpd2cp',
      'To: <sip:1001@uc.test>',
      'Call-ID: 8u3k1kq9vl1h5f2m7h0b',
      'CSeq: 2 REGISTER',
      'Authorization: Digest algorithm=MD5, username="1001", realm="uc.test", nonce="Z0cT5GdHEqX8m3YfY2p1bS7Qm6o=", uri="sip:uc.test", response="6629fae49393a05397450978507c4ef1", qop=auth, cnonce="b9s4qf0f0l", nc=00000001',
      'Contact: <sip:k3j2@9f2k1.invalid;transport=ws>;expires=600',
      'Content-Length: 0',
      '',
      '',
    ].join('\r\n');
    const invite = register
      .replace('REGISTER sip:uc.test', 'INVITE sip:1002@uc.test')
      .replace('CSeq: 2 REGISTER', 'CSeq: 3 INVITE')
      .replace('Authorization:', 'Proxy-Authorization:');
    const sip = createLogger('telephony');
    sip.trace(`sending WebSocket message:\n\n${register}`);
    sip.trace('sending', invite);
    sip.trace('digest', { realm: 'uc.test', ha1: '3c1a0e8a7d2f4b6c9e0d1f2a3b4c5d6e', password: PASSWORD, response: '6629fae49393a05397450978507c4ef1' });
    sip.trace('digest piece', 'response="6629fae49393a05397450978507c4ef1"');
    const text = await file();
    expectNone(text, '6629fae49393a05397450978507c4ef1', '3c1a0e8a7d2f4b6c9e0d1f2a3b4c5d6e', PASSWORD, 'username="1001", realm');
    expect(text).toContain('REGISTER sip:uc.test SIP/2.0');
    expect(text).toContain('Call-ID: 8u3k1kq9vl1h5f2m7h0b');
    expect(text).toContain('CSeq: 2 REGISTER\\nAuthorization: [redacted]\\nContact:');
    expect(text).toContain('CSeq: 3 INVITE\\r\\nProxy-Authorization: [redacted]\\r\\nContact:');
    expect(text).toContain('"response":"[redacted]"');
    // One line per entry, whatever the SIP message's own line breaks.
    expect(text.trim().split('\n')).toHaveLength(4);
  });

  it('an XMPP SASL PLAIN auth stanza: base64 of "\\0user\\0password" appears nowhere, as text or as an element', async () => {
    const plain = btoa(`\0alice@uc.test\0${JWT}`);
    const xml = `<auth xmlns="urn:ietf:params:xml:ns:xmpp-sasl" mechanism="PLAIN">${plain}</auth>`;
    const stanza = new DOMParser().parseFromString(xml, 'text/xml').documentElement;
    const xmpp = createLogger('messaging');
    xmpp.trace('SENT', xml);
    xmpp.trace('SENT', stanza);
    xmpp.trace(`SENT ${xml}`);
    xmpp.debug('connecting', { jid: 'alice@uc.test/web-1', password: JWT, service: `wss://alice:${PASSWORD}@uc.test/xmpp` });
    const text = await file();
    // Any 12 characters of the base64 would still say something: check every window of it.
    for (let i = 0; i + 12 <= plain.length; i += 4) expectNone(text, plain.slice(i, i + 12));
    expectNone(text, PASSWORD, ...JWT_PARTS);
    expect(text).toContain('mechanism=\\"PLAIN\\">[redacted]</auth>');
    expect(text).toContain('"jid":"alice@uc.test/web-1"');
    expect(text).toContain('wss://alice:[redacted]@uc.test/xmpp');
  });

  it('JWT-looking strings anywhere: messages, nested details, map keys, URLs', async () => {
    const deep = { a: { b: { c: [`token ${JWT}`] } } };
    createLogger('voicemail').info(`audio url /v1/vm/1.mp3?jwt=${JWT}`, deep, new Map([[JWT, 'key was a token']]), new URL(`https://uc.test/a?t=${JWT}`));
    createLogger('voicemail').info(`raw ${JWT} in prose`);
    const text = await file();
    expectNone(text, ...JWT_PARTS);
    expect(text).toContain('raw [redacted] in prose');
  });

  it('details are serialised safely: cycles, long strings, errors with causes, odd values', async () => {
    const cyclic: Record<string, unknown> = { name: 'room' };
    cyclic.self = cyclic;
    const long = `${'a'.repeat(50_000)}${JWT}`;
    const err = new TypeError('outer', { cause: new RangeError('inner') });
    createLogger('messaging').warn('odd', cyclic, long, err, [undefined, NaN, () => 1, new Date(0), new Uint8Array(3)]);
    const [line] = (await file()).trim().split('\n');
    expect(line).toContain('{"name":"room","self":"[circular]"}');
    expect(line).toMatch(/"a{4000}…\[cut, \d+ chars in all\]"/);
    expectNone(line!, ...JWT_PARTS);
    expect(line).toContain('"name":"TypeError","message":"outer"');
    expect(line).toContain('"cause":{"name":"RangeError","message":"inner"');
    expect(line).toContain('["[undefined]","NaN","[function anonymous]","1970-01-01T00:00:00.000Z","[Uint8Array 3 bytes]"]');
    expect(line!.length).toBeLessThan(20_000);
  });
});

/**
 * SIP against the real Kamailio and rtpengine of this run (tests/services/global-setup.ts):
 * credentials from the API, registration over WebSocket (JsSIP in Node), calls with real media
 * between JsSIP in Debian's Chromium, a real SIP phone (baresip over UDP) and the external-number
 * gateway (sipp), call recording through rtpengine's ng protocol, and the registration-ownership
 * endpoints. No fakes: every assertion is about what the servers really did.
 */
import { createHmac } from 'node:crypto';
import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import JsSIP from 'jssip';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { sipEphemeralSecret } from '../../server/services/kamailio';
import { serviceDirs } from '../../server/services/layout';
import { RecordingError, pauseRecording, resumeRecording, startRecording, stopRecording } from '../../server/services/recording';
import { mintSipCredentials, SIP_CREDENTIAL_TTL_SECONDS } from '../../server/services/sip-credentials';
import type { RegActiveResponse, SipCredentialsResponse } from '../../src/wire/services';
import { startServicesApi, type ServicesApi } from './harness';
import { Baresip } from './peers/sip_baresip';
import { startGatewayUas, type GatewayUas } from './peers/sip_gateway';
import { killGroup, launchChromium, SipPage, type LaunchedChromium } from './sip-page';

let api: ServicesApi;
let wsUrl: string;
/** Kamailio's auth_ephemeral secret (read once: loadOrCreateSecret is not safe to call concurrently in one process). */
let secret: string;
const tokens: Record<string, string> = {};
const savedWebSocket = (globalThis as { WebSocket?: unknown }).WebSocket;

/** SIP messages JsSIP in Node sent and received, in order. */
const wire: Array<{ dir: 'in' | 'out'; text: string }> = [];

/** Processes this file starts, killed on the way out whatever happens. */
const children = new Set<number>();
const killChildren = () => {
  for (const pid of children) killGroup(pid);
};
process.once('exit', killChildren);

beforeAll(async () => {
  // This run's Kamailio: what `ws_url` of the credentials must name.
  wsUrl = `ws://127.0.0.1:${inject('servicesConfig').ports.sipWs}/`;
  api = await startServicesApi();
  for (const u of ['alice', 'bob']) tokens[u] = await api.login(u);
  secret = await sipEphemeralSecret(api.cfg);
  // JsSIP opens its WebSocket with the global constructor; Kamailio wants the page's Origin.
  // Every SIP message on those sockets is kept in `wire` (JsSIP does not report a refreshed REGISTER).
  const origin = api.origin;
  class OriginWebSocket extends WsWebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { origin });
      const send = this.send.bind(this) as (data: unknown, ...rest: unknown[]) => void;
      this.send = ((data: unknown, ...rest: unknown[]) => {
        wire.push({ dir: 'out', text: String(data) });
        send(data, ...rest);
      }) as typeof this.send;
      this.on('message', (data) => wire.push({ dir: 'in', text: data.toString() }));
    }
  }
  (globalThis as { WebSocket?: unknown }).WebSocket = OriginWebSocket;
});

afterAll(async () => {
  (globalThis as { WebSocket?: unknown }).WebSocket = savedWebSocket;
  await api?.close();
  killChildren();
});

const credentials = (user: string) => api.get<SipCredentialsResponse>('/v1/sip-credentials', tokens[user]!);

type RegisterOutcome = ({ registered: true } | { registered: false; status: number | null; cause: string }) & {
  /** Status codes of the answers to this UA's REGISTERs, in order. */
  answers: number[];
};

let uaCounter = 0;

/** One registration attempt from JsSIP in Node; the UA is stopped (un-REGISTER) after. */
async function registerFromNode(creds: { uri: string; authorization_user: string; password: string }): Promise<RegisterOutcome> {
  // A display name of its own marks this UA's messages in `wire` (the tests run side by side).
  const marker = `node-ua-${process.pid}-${++uaCounter}`;
  const ua = new JsSIP.UA({
    sockets: [new JsSIP.WebSocketInterface(wsUrl)],
    uri: creds.uri,
    display_name: marker,
    authorization_user: creds.authorization_user,
    password: creds.password,
    register: true,
    register_expires: 300,
    connection_recovery_min_interval: 60,
  });
  const answers = () =>
    wire
      .filter((m) => m.dir === 'in' && m.text.startsWith('SIP/2.0 ') && m.text.includes(`"${marker}"`) && /^CSeq: *\d+ REGISTER/im.test(m.text))
      .map((m) => Number(m.text.slice(8, 11)));
  try {
    return await new Promise<RegisterOutcome>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer to REGISTER within 10 s')), 10_000);
      ua.on('registered', () => {
        clearTimeout(timer);
        resolve({ registered: true, answers: answers() });
      });
      ua.on('registrationFailed', (e) => {
        clearTimeout(timer);
        resolve({ registered: false, status: e.response?.status_code ?? null, cause: String(e.cause), answers: answers() });
      });
      ua.start();
    });
  } finally {
    await stopUa(ua);
  }
}

/** Stops a Node UA (un-REGISTER when registered) and waits for its WebSocket to close. */
async function stopUa(ua: JsSIP.UA): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 5000);
    ua.on('disconnected', () => {
      clearTimeout(timer);
      resolve();
    });
    ua.stop();
  });
}

async function poll<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 10_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

describe('GET /v1/sip-credentials', () => {
  it('mints auth_ephemeral credentials for the caller’s extension', async () => {
    const before = Math.floor(Date.now() / 1000);
    const creds = await credentials('alice');
    const after = Math.floor(Date.now() / 1000);
    expect(creds.uri).toBe('sip:1001@uc.local');
    expect(creds.ws_url).toBe(wsUrl);
    const m = /^(\d+):1001$/.exec(creds.authorization_user);
    expect(m).not.toBeNull();
    const expiry = Number(m![1]);
    expect(expiry).toBeGreaterThanOrEqual(before + SIP_CREDENTIAL_TTL_SECONDS);
    expect(expiry).toBeLessThanOrEqual(after + SIP_CREDENTIAL_TTL_SECONDS);
    expect(creds.expires_at).toBe(new Date(expiry * 1000).toISOString());
    // The password is what Kamailio computes from the shared secret (checked for real below).
    expect(creds.password).toBe(createHmac('sha1', secret).update(creds.authorization_user).digest('base64'));
    expect((await credentials('bob')).uri).toBe('sip:1002@uc.local');
  });

  it('answers 401 without a bearer token', async () => {
    for (const url of ['/v1/sip-credentials', '/v1/regactive']) {
      const res = await api.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(401);
    }
    const res = await api.app.inject({ method: 'POST', url: '/v1/regreserve', payload: { peer: 'p', client: 'web' } });
    expect(res.statusCode).toBe(401);
  });

  it('answers 404 sip_not_configured for a user without an extension', async () => {
    await api.db.query(
      `INSERT INTO users (organization_id, username, password_hash, first_name, last_name, email, extension, role_id, level)
       SELECT organization_id, 'noext', password_hash, 'No', 'Extension', 'noext@example.com', NULL, 3, level FROM users WHERE username = 'alice'`,
    );
    const token = await api.login('noext');
    for (const [method, url, payload] of [
      ['GET', '/v1/sip-credentials', undefined],
      ['GET', '/v1/regactive', undefined],
      ['POST', '/v1/regreserve', { peer: 'tab-1', client: 'web' }],
    ] as const) {
      const res = await api.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ error: 'sip_not_configured', message: 'Calling is not configured for this user' });
    }
  });
});

// Independent UAs: run side by side (each spends ~2 s in JsSIP's graceful stop).
describe.concurrent('registration through Kamailio over WebSocket (JsSIP in Node)', () => {
  it('registers with the API’s credentials (401 challenge, then 200)', async () => {
    expect(await registerFromNode(await credentials('alice'))).toEqual({ registered: true, answers: [401, 200] });
  });

  it('refuses expired credentials with 401', async () => {
    const expired = mintSipCredentials(secret, '1001', api.cfg.domain, -60);
    const outcome = await registerFromNode(expired);
    // Challenged, answered, challenged again: the expiry inside the username is refused.
    expect(outcome).toMatchObject({ registered: false, status: 401, answers: [401, 401] });
  });

  it('refuses a wrong password with 401', async () => {
    const creds = await credentials('alice');
    const outcome = await registerFromNode({ ...creds, password: Buffer.from('not the password').toString('base64') });
    expect(outcome).toMatchObject({ registered: false, status: 401, answers: [401, 401] });
  });

  it('refuses alice’s credentials used to register bob’s URI with 403', async () => {
    const alice = await credentials('alice');
    const outcome = await registerFromNode({ ...alice, uri: 'sip:1002@uc.local' });
    expect(outcome).toMatchObject({ registered: false, status: 403, answers: [401, 403] });
  });

  it('a WebSocket registered as alice is not challenged for what it sends as alice; unregistered, or as bob, it is', async () => {
    const creds = await credentials('alice');
    const open = (register: boolean) =>
      new JsSIP.UA({
        sockets: [new JsSIP.WebSocketInterface(wsUrl)],
        uri: creds.uri,
        authorization_user: creds.authorization_user,
        password: creds.password,
        register,
        register_expires: 300,
        connection_recovery_min_interval: 60,
      });
    /** Status codes answering a MESSAGE to an extension nobody has (480 in the end), in order. */
    const answers = async (ua: JsSIP.UA, fromUserName?: string): Promise<number[]> => {
      const body = `probe-${process.pid}-${++uaCounter}`;
      await new Promise<void>((resolve) => ua.sendMessage('sip:1099@uc.local', body, { fromUserName, eventHandlers: { succeeded: () => resolve(), failed: () => resolve() } }));
      const callId = /^Call-ID: *(.+?)\r?$/im.exec(wire.find((m) => m.dir === 'out' && m.text.startsWith('MESSAGE ') && m.text.endsWith(body))!.text)![1];
      return wire.filter((m) => m.dir === 'in' && m.text.startsWith('SIP/2.0 ') && m.text.includes(`Call-ID: ${callId}`)).map((m) => Number(m.text.slice(8, 11)));
    };
    const until = (ua: JsSIP.UA, event: 'registered' | 'unregistered' | 'connected') => new Promise<void>((resolve) => ua.once(event, () => resolve()));

    const registered = open(true);
    const anonymous = open(false);
    try {
      const ready = until(registered, 'registered');
      registered.start();
      await ready;
      expect(await answers(registered)).toEqual([480]);
      // Only as the user it registered as: as bob it is challenged, and alice's credentials do not make it bob.
      expect(await answers(registered, '1002')).toEqual([407, 403]);
      const gone = until(registered, 'unregistered');
      registered.unregister();
      await gone;
      expect(await answers(registered)).toEqual([407, 480]);

      const connected = until(anonymous, 'connected');
      anonymous.start();
      await connected;
      expect(await answers(anonymous)).toEqual([407, 480]);
    } finally {
      await Promise.all([stopUa(registered), stopUa(anonymous)]);
    }
  });

  it('renews with fresh credentials on the same WebSocket (ua.set + register)', async () => {
    const first = mintSipCredentials(secret, '1001', api.cfg.domain, 120);
    const ua = new JsSIP.UA({
      sockets: [new JsSIP.WebSocketInterface(wsUrl)],
      uri: first.uri,
      authorization_user: first.authorization_user,
      password: first.password,
      register: true,
      register_expires: 300,
    });
    try {
      const registered = () =>
        new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('no registration within 10 s')), 10_000);
          ua.once('registered', () => {
            clearTimeout(timer);
            resolve();
          });
          ua.once('registrationFailed', (e) => {
            clearTimeout(timer);
            reject(new Error(`registration failed: ${e.cause}`));
          });
        });
      const firstDone = registered();
      ua.start();
      await firstDone;
      const renewed = await credentials('alice');
      expect(renewed.authorization_user).not.toBe(first.authorization_user);
      expect(ua.set('authorization_user', renewed.authorization_user)).toBe(true);
      expect(ua.set('password', renewed.password)).toBe(true);
      let failed: string | null = null;
      ua.once('registrationFailed', (e) => (failed = String(e.cause)));
      ua.register();
      // The refresh is answered 200 to the REGISTER that carries the new username.
      const ok = await poll('200 OK to the REGISTER with the renewed credentials', async () => {
        if (failed) throw new Error(`renewal refused: ${failed}`);
        const header = (text: string, name: string) => new RegExp(`^${name}: *(.+?)\\r?$`, 'im').exec(text)?.[1];
        const sent = wire
          .filter((m) => m.dir === 'out' && m.text.startsWith('REGISTER ') && m.text.includes(`username="${renewed.authorization_user}"`))
          .map((m) => `${header(m.text, 'Call-ID')} ${header(m.text, 'CSeq')}`);
        return wire.find((m) => m.dir === 'in' && m.text.startsWith('SIP/2.0 200') && sent.includes(`${header(m.text, 'Call-ID')} ${header(m.text, 'CSeq')}`));
      });
      expect(ok.text).toMatch(/^Contact: .*expires=\d+/im);
      expect(ua.isRegistered()).toBe(true);
    } finally {
      await stopUa(ua);
    }
  });
});

describe('registration ownership (POST /v1/regreserve, GET /v1/regactive)', () => {
  const reserve = (user: string, peer: string, takeover?: boolean) =>
    api.post<RegActiveResponse>('/v1/regreserve', tokens[user]!, { peer, client: 'web', ...(takeover === undefined ? {} : { takeover }) });
  const active = (user: string) => api.get<RegActiveResponse>('/v1/regactive', tokens[user]!);
  const clear = async () => api.db.query('DELETE FROM sip_registration_holders');

  it('gives the phone to one peer at a time; takeover moves it', async () => {
    await clear();
    expect(await active('alice')).toEqual({ peer: null, client: null, expires_at: null });

    const first = await reserve('alice', 'tab-A');
    expect(first).toMatchObject({ peer: 'tab-A', client: 'web', granted: true });
    const holdMs = Date.parse(first.expires_at!) - Date.now();
    expect(holdMs).toBeGreaterThan(80_000);
    expect(holdMs).toBeLessThanOrEqual(90_000);

    const second = await reserve('alice', 'tab-B');
    expect(second).toEqual({ peer: 'tab-A', client: 'web', expires_at: first.expires_at, granted: false });
    expect(await active('alice')).toEqual({ peer: 'tab-A', client: 'web', expires_at: first.expires_at });

    // The holder renews: still granted, later expiry.
    const renewed = await reserve('alice', 'tab-A');
    expect(renewed).toMatchObject({ peer: 'tab-A', granted: true });
    expect(Date.parse(renewed.expires_at!)).toBeGreaterThanOrEqual(Date.parse(first.expires_at!));

    const takeover = await reserve('alice', 'tab-B', true);
    expect(takeover).toMatchObject({ peer: 'tab-B', client: 'web', granted: true });
    expect(await active('alice')).toMatchObject({ peer: 'tab-B', client: 'web' });
    // The displaced tab learns it lost the phone at its next renewal.
    expect(await reserve('alice', 'tab-A')).toMatchObject({ peer: 'tab-B', granted: false });

    // Another user's phone is independent.
    expect(await active('bob')).toEqual({ peer: null, client: null, expires_at: null });
    expect(await reserve('bob', 'tab-A')).toMatchObject({ peer: 'tab-A', granted: true });
    expect(await active('alice')).toMatchObject({ peer: 'tab-B' });
  });

  it('frees an expired hold', async () => {
    await clear();
    expect(await reserve('alice', 'tab-A')).toMatchObject({ granted: true });
    await api.db.query(
      `UPDATE sip_registration_holders SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
      [await api.userId('alice')],
    );
    expect(await active('alice')).toEqual({ peer: null, client: null, expires_at: null });
    const next = await reserve('alice', 'tab-B');
    expect(next).toMatchObject({ peer: 'tab-B', granted: true });
    expect(Date.parse(next.expires_at!)).toBeGreaterThan(Date.now() + 80_000);
  });

  it('never lets two racing peers both win', async () => {
    const aliceId = await api.userId('alice');
    for (let round = 0; round < 20; round++) {
      await api.db.query('DELETE FROM sip_registration_holders WHERE user_id = $1', [aliceId]);
      const peers = [`race-${round}-x`, `race-${round}-y`];
      const answers = await Promise.all(peers.map((p) => reserve('alice', p)));
      const winners = answers.filter((a) => a.granted);
      expect(winners, `round ${round}`).toHaveLength(1);
      const winner = winners[0]!.peer;
      expect(answers.every((a) => a.peer === winner)).toBe(true);
      expect((await active('alice')).peer).toBe(winner);
    }
  });

  it('rejects invalid requests with 400', async () => {
    for (const payload of [{}, { peer: '', client: 'web' }, { peer: 'tab', client: 'desktop' }, { peer: 'x'.repeat(101), client: 'web' }, { peer: 'tab', client: 'web', takeover: 'yes' }]) {
      const res = await api.app.inject({ method: 'POST', url: '/v1/regreserve', headers: { authorization: `Bearer ${tokens.alice}` }, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation_failed', message: 'Invalid registration reservation' });
    }
  });
});

describe('calls with real media (Chromium + JsSIP, baresip, sipp, rtpengine)', () => {
  let chrome: LaunchedChromium;
  let phone: Baresip;
  let alice: SipPage;
  let workDir: string;
  let gateway: GatewayUas | null = null;

  beforeAll(async () => {
    const { ports } = api.cfg;
    workDir = path.join(api.cfg.runtimeDir, 'sip-test');
    await mkdir(workDir, { recursive: true });
    chrome = await launchChromium();
    children.add(chrome.pid);
    phone = await Baresip.start({
      dir: path.join(workDir, 'baresip'),
      sipPort: ports.base + 90,
      ctrlPort: ports.base + 93,
      rtpPorts: [ports.base + 400, ports.base + 449],
      maxLifeSeconds: 180,
    });
    if (phone.pid) children.add(phone.pid);
    const bob = await credentials('bob');
    await phone.register(bob.uri, bob.authorization_user, bob.password, `sip:127.0.0.1:${ports.sipUdp}`);
    alice = await SipPage.open(chrome.browser, api.origin);
    const creds = await credentials('alice');
    await alice.register({ wsUrl: creds.ws_url, uri: creds.uri, authorization_user: creds.authorization_user, password: creds.password });
  });

  afterAll(async () => {
    gateway?.kill();
    await alice?.close().catch(() => undefined);
    if (phone) {
      await phone.stop().catch(() => phone.kill());
      if (phone.pid) children.delete(phone.pid);
    }
    if (chrome) {
      await chrome.close();
      children.delete(chrome.pid);
    }
    killChildren();
  });

  /** Ends the call from the page and waits until both ends saw it end. */
  async function hangUpFromPage(key: string, phoneEventsSince: number): Promise<void> {
    await alice.hangup(key);
    expect((await alice.waitFor(key, 'ended')).ended).toBe(true);
    await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, phoneEventsSince);
  }

  it('a SIP phone registered over UDP calls the WebSocket user: answered, audio flows', async () => {
    const since = phone.events.length;
    await phone.command('dial', 'sip:1001@uc.local');
    const incoming = await alice.waitForIncoming();
    expect(incoming.remote).toBe('sip:1002@uc.local');
    const confirmed = await alice.waitFor(incoming.key, 'confirmed');
    expect(confirmed).toMatchObject({ confirmed: true, ended: false });
    const established = await phone.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 10_000, since);
    expect(established).toMatchObject({ direction: 'outgoing', peeruri: 'sip:1001@uc.local', id: incoming.callId });
    // Real RTP from baresip's WAV, through rtpengine (plain RTP → DTLS-SRTP), into the browser.
    expect(await alice.waitForInboundBytes(incoming.key, 1600)).toBeGreaterThan(1600);
    await hangUpFromPage(incoming.key, since);
  });

  it('the WebSocket user calls the registered phone: auto-answered, audio flows, the phone hangs up', async () => {
    const since = phone.events.length;
    const key = await alice.call('1002');
    const confirmed = await alice.waitFor(key, 'confirmed');
    expect(confirmed).toMatchObject({ confirmed: true, ended: false, remote: 'sip:1002@uc.local' });
    const established = await phone.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 10_000, since);
    expect(established).toMatchObject({ direction: 'incoming', id: confirmed.callId });
    expect(await alice.waitForInboundBytes(key, 1600)).toBeGreaterThan(1600);
    await phone.command('hangup');
    const ended = await alice.waitFor(key, 'ended');
    expect(ended).toMatchObject({ ended: true, endCause: 'Terminated' });
    await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
  });

  it('an external number with no gateway answering fails within seconds (408 after 5 s), not after 30 s of ringing', async () => {
    // Nothing listens on the gateway's port yet: a machine with no carrier set up.
    const key = await alice.call('5557654321');
    // Kamailio's 408; JsSIP calls 408 and 480 alike "Unavailable".
    expect(await alice.waitFor(key, 'ended', 12_000)).toMatchObject({ ended: true, endCause: 'Unavailable' });
  });

  it('an external number leaves through the gateway', async () => {
    gateway = await startGatewayUas({ port: api.cfg.ports.sipGateway, mediaPort: api.cfg.ports.base + 460, dir: workDir });
    children.add(gateway.pid);
    const key = await alice.call('5551234567');
    const confirmed = await alice.waitFor(key, 'confirmed');
    expect(confirmed).toMatchObject({ confirmed: true, ended: false, remote: 'sip:5551234567@uc.local' });
    // sipp echoes the RTP it gets: media went out through rtpengine to the gateway and back.
    expect(await alice.waitForInboundBytes(key, 1600)).toBeGreaterThan(1600);
    await alice.hangup(key);
    await alice.waitFor(key, 'ended');
    expect(await gateway.exited).toBe(0);
    const log = await gateway.messages();
    expect(log).toMatch(/^INVITE sip:5551234567@uc\.local SIP\/2\.0$/m);
    expect(log).toContain(`Call-ID: ${confirmed.callId}`);
    expect(log).toMatch(/^BYE sip:/m);
    children.delete(gateway.pid);
    gateway = null;
  });

  it('records an established call through rtpengine (start, pause = new segment, stop)', async () => {
    const pcaps = path.join(serviceDirs(api.cfg.runtimeDir, 'rtpengine').data, 'recordings', 'pcaps');
    const segments = async (callId: string) => (await readdir(pcaps).catch(() => [] as string[])).filter((f) => f.startsWith(`${callId}-`) && f.endsWith('.pcap')).sort();

    await expect(startRecording(api.cfg, 'no-such-call')).rejects.toBeInstanceOf(RecordingError);

    const since = phone.events.length;
    const key = await alice.call('1002');
    const { callId } = await alice.waitFor(key, 'confirmed');
    await alice.waitForInboundBytes(key);
    expect(await segments(callId)).toEqual([]);

    const sizeOf = async (file: string) => (await stat(path.join(pcaps, file)).catch(() => null))?.size ?? 0;
    /** rtpengine writes a segment through a buffer: more than a few KiB on disk means RTP packets, not just the 24-byte pcap header. */
    const recordsRtp = (file: string) => poll(`RTP packets in ${file}`, async () => (await sizeOf(file)) > 2048);

    expect((await startRecording(api.cfg, callId)).result).toBe('ok');
    const [first] = await poll('the first pcap segment', async () => {
      const s = await segments(callId);
      return s.length === 1 ? s : null;
    });
    await recordsRtp(first!);

    // Pause (stop) and resume (start): rtpengine 10.5 has no pause, so the call gets a second segment.
    expect((await pauseRecording(api.cfg, callId)).result).toBe('ok');
    expect((await resumeRecording(api.cfg, callId)).result).toBe('ok');
    const both = await poll('a second pcap segment', async () => {
      const s = await segments(callId);
      return s.length === 2 ? s : null;
    });
    expect(both).toContain(first);
    const second = both.find((f) => f !== first)!;
    await recordsRtp(second);
    const closedSize = await sizeOf(first!);

    expect((await stopRecording(api.cfg, callId)).result).toBe('ok');
    await poll('the second segment to grow no more', async () => {
      const a = await sizeOf(second);
      await new Promise((r) => setTimeout(r, 300));
      return a === (await sizeOf(second));
    });
    // The paused segment stayed closed while the second one recorded.
    expect(await sizeOf(first!)).toBe(closedSize);
    await hangUpFromPage(key, since);
  });
});

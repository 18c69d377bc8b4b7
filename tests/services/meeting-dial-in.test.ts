/**
 * Dial-in against the real stack: a SIP phone (baresip, registered as Bob) dials
 * `*64*<meeting ID>*<phone PIN>` through Kamailio and rtpengine; the API's dial-in user agent
 * answers with the meeting's AudioBridge on Janus, where the phone is a plain-RTP participant. A
 * wrong PIN is refused before anything is answered.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { janusMeetingBridges, type MeetingBridges } from '../../server/meetings/audio-bridge';
import { RECOVER_MAX_MS } from '../../server/meetings/dial-in';
import { serviceDirs } from '../../server/services/layout';
import { startServices } from '../../server/services/manager';
import { NgClient } from '../../server/services/ng';
import { isAlive, readPid } from '../../server/services/proc';
import { displayFor, readDisplay } from '../../src/wire/meetingDisplay';
import { MeetingMedia, MeetingPhones, RoomsResponse, WaitingRoom } from '../../src/wire/meetings';
import { dialInString } from '../../src/wire/services';
import { callHistoryOf, deskPhoneFor, startServicesApi, type ServicesApi } from './harness';
import type { Baresip } from './peers/sip_baresip';
import { launchChromium, signedInPhones, type SipPage } from './sip-page';
import { pluginData, toneOffer, videoroomHandle } from './janus-peer';

/** The `sip` package (no types), as the dial-in uses it: here a carrier's side of the gateway. */
interface SipMsg {
  method?: string;
  status?: number;
  headers: Record<string, unknown>;
}
const sipLib = createRequire(import.meta.url)('sip') as {
  create(o: Record<string, unknown>, onRequest: (rq: SipMsg) => void): { send(m: SipMsg & { uri?: string; content?: string }, onResponse?: (rs: SipMsg) => void): void; destroy(): void };
  makeResponse(rq: SipMsg, status: number, reason: string): SipMsg;
};

let api: ServicesApi;
let phone: Baresip;
let bridges: MeetingBridges;
let meeting: { id: number; access_code: string; phone_pin: string };

beforeAll(async () => {
  api = await startServicesApi();
  phone = await deskPhoneFor(api, await api.login('bob'));
  bridges = janusMeetingBridges(api.cfg);
  // A room of Alice's (one she may join from the page); the PIN as the booker sees it.
  const room = RoomsResponse.parse(await api.get('/v1/rooms', await api.login('alice'))).rooms.at(-1)!;
  meeting = (await api.db.query<{ id: number; access_code: string; phone_pin: string }>('SELECT id, access_code, phone_pin FROM meetings WHERE id = $1', [room.id])).rows[0]!;
});

afterAll(async () => {
  await phone?.stop().catch(() => phone?.kill());
  await bridges?.close();
  await api?.close();
});

const dial = (digits: string) => phone.command('dial', `sip:${digits}@${api.cfg.domain}`);

/**
 * The strongest frequency a page hears on its peer connection's (globalThis.pc) audio, and its
 * level: a phone's baresip plays a 440 Hz tone, the bridge's silence has no peak.
 */
const tonePeak = (page: { evaluate<R>(fn: () => Promise<R>): Promise<R> }) =>
  page.evaluate(async () => {
    const g = globalThis as unknown as { pc: RTCPeerConnection; ctx?: AudioContext; an?: AnalyserNode };
    if (!g.an) {
      g.ctx = new AudioContext({ sampleRate: 48_000 });
      const stream = new MediaStream([g.pc.getReceivers().find((r) => r.track.kind === 'audio')!.track]);
      // Chromium delivers a remote track to WebAudio only while a media element also plays it.
      const el = new Audio();
      el.muted = true;
      el.srcObject = stream;
      void el.play().catch(() => undefined);
      g.an = g.ctx.createAnalyser();
      g.an.fftSize = 4096;
      g.ctx.createMediaStreamSource(stream).connect(g.an);
    }
    await g.ctx!.resume();
    const bins = new Float32Array(g.an.frequencyBinCount);
    g.an.getFloatFrequencyData(bins);
    let best = 0;
    for (let i = 1; i < bins.length; i++) if (bins[i]! > bins[best]!) best = i;
    return { hz: (best * g.ctx!.sampleRate) / g.an.fftSize, db: bins[best]! };
  });

/** A SIP stack on the outside gateway's address, which Kamailio does not challenge (named localhost: the lib keeps requests to its own address for itself); it answers what it is sent with 200. */
function gatewayStack(): ReturnType<typeof sipLib.create> {
  const stack = sipLib.create({ udp: true, tcp: false, address: '127.0.0.1', port: api.cfg.ports.sipGateway, publicAddress: 'localhost' }, (rq) => {
    if (rq.method !== 'ACK') stack.send(sipLib.makeResponse(rq, 200, 'OK'));
  });
  return stack;
}

/**
 * An INVITE to the dial-in digits sent from the outside gateway's address (a call from outside the
 * organisation, as the gateway relays it), its responses' statuses handed to `onStatus`.
 */
function inviteFromGateway(stack: ReturnType<typeof sipLib.create>, digits: string, from: string, callId: string, onStatus: (status: number) => void): void {
  const { ports, domain } = api.cfg;
  const sdp = ['v=0', 'o=- 1 1 IN IP4 127.0.0.1', 's=-', 'c=IN IP4 127.0.0.1', 't=0 0', `m=audio ${ports.base + 470} RTP/AVP 0`, 'a=rtpmap:0 PCMU/8000', 'a=sendrecv', ''].join('\r\n');
  stack.send(
    {
      method: 'INVITE',
      uri: `sip:${digits}@127.0.0.1:${ports.sipUdp}`,
      headers: {
        to: { uri: `sip:${digits}@${domain}` },
        from: { uri: `sip:${from}@${domain}`, params: { tag: `gw${Date.now()}` } },
        'call-id': `${callId}@127.0.0.1`,
        cseq: { method: 'INVITE', seq: 1 },
        contact: [{ uri: `sip:${from}@127.0.0.1:${ports.sipGateway}` }],
        'content-type': 'application/sdp',
      },
      content: sdp,
    },
    (rs) => onStatus(rs.status!),
  );
}

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
    expect(await bridges.participants(meeting.id)).toEqual([{ id: expect.any(Number), display: expect.stringMatching(/^phone:\d{3,5}$/), muted: false }]);
    // The phone's tone reaches the bridge and the bridge's mix reaches the phone: both legs send.
    await expect.poll(async () => { const legs = await relayedPackets(up.id!); return legs.length === 2 && legs.every((n) => n > 50); }, { timeout: 10_000 }).toBe(true);
    await phone.command('hangup');
    await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
    await expect.poll(() => bridges.participants(meeting.id), { timeout: 5000 }).toEqual([]);
  });

  it('a meeting not open yet (more than a few minutes before its start) is refused: 480, nothing answered', async () => {
    const alice = await api.login('alice');
    const later = await api.post<{ id: number; meeting_access_code: string; phone_pin: string }>('/v1/meetings', alice, {
      meeting_name: 'Later',
      start: new Date(Date.now() + 3 * 3600_000).toISOString(),
      end: new Date(Date.now() + 4 * 3600_000).toISOString(),
      time_zone: 'Europe/Paris',
    });
    const since = phone.events.length;
    await dial(dialInString(later.meeting_access_code, later.phone_pin));
    expect((await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since)).param).toMatch(/480/);
    expect(phone.events.slice(since).some((e) => e.type === 'CALL_ESTABLISHED')).toBe(false);
  });

  it("ending the meeting for all hangs up the phones: the phone gets the dial-in's BYE and leaves the bridge", async () => {
    const booker = (await api.db.query<{ username: string }>('SELECT u.username FROM meetings m JOIN users u ON u.id = m.booked_by_id WHERE m.id = $1', [meeting.id])).rows[0]!.username;
    const host = await api.login(booker);
    await api.post(`/v1/meetings/${meeting.id}/presence`, host, { client_id: `w${Date.now()}` });
    await api.post(`/v1/meetings/${meeting.id}/media`, host);
    const since = phone.events.length;
    await dial(dialInString(meeting.access_code, meeting.phone_pin));
    await phone.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 10_000, since);
    expect(await bridges.participants(meeting.id)).toHaveLength(1);
    const res = await api.app.inject({ method: 'DELETE', url: `/v1/meetings/${meeting.id}/media`, headers: { authorization: `Bearer ${host}` } });
    expect(res.statusCode).toBe(204);
    await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
    await expect.poll(() => bridges.participants(meeting.id), { timeout: 5000 }).toEqual([]);
  });
});

describe('a phone in the meeting, seen from the browser', () => {
  it("the videoroom has the phone's feed (a phone tile), and a browser subscribed to it receives the phone's audio; it goes when the phone hangs up", async () => {
    const alice = await api.login('alice');
    await api.post(`/v1/meetings/${meeting.id}/presence`, alice, { client_id: `w${Date.now()}` });
    const media = MeetingMedia.parse(await api.post(`/v1/meetings/${meeting.id}/media`, alice));
    const since = phone.events.length;
    await dial(dialInString(meeting.access_code, meeting.phone_pin));
    await phone.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 10_000, since);

    const peer = await videoroomHandle(media.janus_url);
    const chromium = await launchChromium();
    try {
      const publishers = async () => {
        const data = pluginData(await peer.message({ request: 'listparticipants', room: media.room }));
        return ((data.participants ?? []) as Array<{ id: number; display?: string; publisher: boolean }>).filter((p) => p.publisher);
      };
      await expect.poll(async () => (await publishers()).map((p) => readDisplay(p.display).kind), { timeout: 10_000 }).toEqual(['phone']);
      const feed = (await publishers())[0]!;
      expect(readDisplay(feed.display)).toEqual({ name: expect.stringMatching(/^\d{3,5}$/), userId: null, kind: 'phone' });

      // Subscribed as the meeting page subscribes to any feed: Janus offers, the browser answers.
      const listener = await listenTo(chromium, media, feed.id);
      const { page } = listener;
      const received = () =>
        page.evaluate(async () => {
          let bytes = 0;
          (await (globalThis as unknown as { pc: RTCPeerConnection }).pc.getStats()).forEach((r: { type: string; kind?: string; bytesReceived?: number }) => {
            if (r.type === 'inbound-rtp' && r.kind === 'audio') bytes += r.bytesReceived ?? 0;
          });
          return bytes;
        });
      await expect.poll(received, { timeout: 15_000 }).toBeGreaterThan(2000);
      const first = await received();
      await expect.poll(received, { timeout: 10_000 }).toBeGreaterThan(first + 2000);
      // What arrives is the phone's voice (baresip plays a 440 Hz tone), not the bridge's silence.
      const tone = () => listener.hears(440);
      await expect.poll(tone, { timeout: 10_000, interval: 200 }).toBe(true);

      // The host mutes the phone: the bridge drops its audio, and the tone is gone; unmuted, it is back.
      const booker = (await api.db.query<{ username: string }>('SELECT u.username FROM meetings m JOIN users u ON u.id = m.booked_by_id WHERE m.id = $1', [meeting.id])).rows[0]!.username;
      const host = await api.login(booker);
      await api.post(`/v1/meetings/${meeting.id}/presence`, host, { client_id: `h${Date.now()}` });
      const [listed] = MeetingPhones.parse(await api.get(`/v1/meetings/${meeting.id}/media/phones`, host)).phones;
      expect(listed).toEqual({ id: expect.any(Number), number: expect.stringMatching(/^\d{3,5}$/), muted: false, talking: expect.any(Boolean) });
      const muteAs = (token: string, mute: boolean) => api.app.inject({ method: 'POST', url: `/v1/meetings/${meeting.id}/media/phones/mute`, headers: { authorization: `Bearer ${token}` }, payload: { phone: listed!.id, mute } });
      expect((await muteAs(host, true)).statusCode).toBe(204);
      expect(MeetingPhones.parse(await api.get(`/v1/meetings/${meeting.id}/media/phones`, host)).phones).toEqual([{ ...listed, muted: true, talking: false }]);
      await expect.poll(tone, { timeout: 10_000, interval: 200 }).toBe(false);
      expect((await muteAs(host, false)).statusCode).toBe(204);
      await expect.poll(tone, { timeout: 10_000, interval: 200 }).toBe(true);

      await phone.command('hangup');
      await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
      await expect.poll(async () => (await publishers()).length, { timeout: 10_000 }).toBe(0);
      listener.close();
    } finally {
      peer.close();
      await chromium.close();
    }
  });
});

describe("a phone's speaking, as the page reads it", () => {
  it('the phone playing its tone is talking; muted on the phone (it sends silence) it stops, unmuted it talks again, muted by the host it stops; each change answers a read waiting on the list', async () => {
    const booker = (await api.db.query<{ username: string }>('SELECT u.username FROM meetings m JOIN users u ON u.id = m.booked_by_id WHERE m.id = $1', [meeting.id])).rows[0]!.username;
    const host = await api.login(booker);
    await api.post(`/v1/meetings/${meeting.id}/presence`, host, { client_id: `t${Date.now()}` });
    await api.post(`/v1/meetings/${meeting.id}/media`, host);
    const read = async (wait?: string) => MeetingPhones.parse(await api.get(`/v1/meetings/${meeting.id}/media/phones${wait ? `?wait=${encodeURIComponent(wait)}` : ''}`, host));
    /** Reads as the page does, each read waiting on the one before, until the phone's talking is `talking`; how long that took. */
    const untilTalking = async (talking: boolean, timeoutMs: number) => {
      const start = Date.now();
      let r = await read();
      while (r.phones[0]?.talking !== talking) {
        if (Date.now() - start > timeoutMs) throw new Error(`the phone's talking stayed ${String(r.phones[0]?.talking)}`);
        r = await read(r.state);
      }
      return { ms: Date.now() - start, phone: r.phones[0]! };
    };
    const since = phone.events.length;
    await dial(dialInString(meeting.access_code, meeting.phone_pin));
    await phone.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 10_000, since);
    try {
      // baresip plays its 440 Hz tone into the call from the start.
      const on = await untilTalking(true, 10_000);
      expect(on.phone).toMatchObject({ muted: false, talking: true });
      // A read with the state as it is waits: it answers with the change, not before.
      const steady = await read();
      expect(steady.phones[0]!.talking).toBe(true);
      const waiting = read(steady.state);
      await phone.command('mute');
      const changed = await waiting;
      expect(changed.phones[0]).toMatchObject({ muted: false, talking: false });
      expect(changed.state).not.toBe(steady.state);
      await phone.command('mute');
      expect((await untilTalking(true, 5000)).ms).toBeLessThan(3000);
      const [listed] = (await read()).phones;
      const muted = await api.app.inject({ method: 'POST', url: `/v1/meetings/${meeting.id}/media/phones/mute`, headers: { authorization: `Bearer ${host}` }, payload: { phone: listed!.id, mute: true } });
      expect(muted.statusCode).toBe(204);
      expect((await read()).phones[0]).toMatchObject({ muted: true, talking: false });
      // Nothing of the phone is in its mix while muted: the meter agrees once the bridge's silence is measured.
      await untilTalking(false, 3000);
      const unmuted = await api.app.inject({ method: 'POST', url: `/v1/meetings/${meeting.id}/media/phones/mute`, headers: { authorization: `Bearer ${host}` }, payload: { phone: listed!.id, mute: false } });
      expect(unmuted.statusCode).toBe(204);
      await untilTalking(true, 5000);
    } finally {
      await phone.command('hangup').catch(() => undefined);
      await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
    }
    await expect.poll(async () => (await read()).phones, { timeout: 5000 }).toEqual([]);
  });

  it('a read waiting on the list is refused a malformed state (400), never held', async () => {
    const alice = await api.login('alice');
    await api.post(`/v1/meetings/${meeting.id}/presence`, alice, { client_id: `q${Date.now()}` });
    const res = await api.app.inject({ method: 'GET', url: `/v1/meetings/${meeting.id}/media/phones?wait=${'x'.repeat(65)}`, headers: { authorization: `Bearer ${alice}` } });
    expect(res.statusCode).toBe(400);
  });
});

/** Polls until the loudest frequency the phone receives is `hz` (within one analyser bin and a half). */
async function hears(phone: SipPage, key: string, hz: number, timeoutMs: number): Promise<void> {
  await expect
    .poll(
      async () => {
        const last = await phone.receivedPeak(key);
        return Math.abs(last.hz - hz) < 18 && last.db > -70;
      },
      { timeout: timeoutMs, interval: 200 },
    )
    .toBe(true);
}

describe('the browsers, heard on the phone', () => {
  it('a phone dialled in hears the tone a browser publishes into the meeting, and hears nothing of it once the browser leaves', async () => {
    const alice = await api.login('alice');
    await api.post(`/v1/meetings/${meeting.id}/presence`, alice, { client_id: `w${Date.now()}` });
    const media = MeetingMedia.parse(await api.post(`/v1/meetings/${meeting.id}/media`, alice));
    // The phone is a JsSIP page (through Kamailio's WebSocket and rtpengine, G.711 to the bridge): it can tell which tone it hears.
    const signed = await signedInPhones(api, ['carol']);
    const chromium = await launchChromium();
    const publisher = await videoroomHandle(media.janus_url);
    try {
      const page = await chromium.browser.newPage();
      const offer = await toneOffer(page, 600);
      const display = displayFor({ name: 'Alice', userId: await api.userId('alice'), kind: 'camera' });
      expect(pluginData(await publisher.message({ request: 'join', ptype: 'publisher', room: media.room, pin: media.pin, display }))).toMatchObject({ videoroom: 'joined' });
      const published = await publisher.message({ request: 'publish', audio: true }, offer);
      expect(pluginData(published)).toMatchObject({ configured: 'ok' });
      await page.evaluate(async (a) => (globalThis as unknown as { pc: RTCPeerConnection }).pc.setRemoteDescription(a), published.jsep as RTCSessionDescriptionInit);

      const carol = signed.phones.carol!;
      const key = await carol.call(dialInString(meeting.access_code, meeting.phone_pin));
      expect(await carol.waitFor(key, 'confirmed')).toMatchObject({ confirmed: true });
      await hears(carol, key, 600, 20_000);

      // The browser leaves the room: its tone is gone from what the phone hears.
      publisher.close();
      await expect.poll(async () => { const p = await carol.receivedPeak(key); return Math.abs(p.hz - 600) < 18 && p.db > -70; }, { timeout: 10_000, interval: 200 }).toBe(false);
      await carol.hangup(key);
    } finally {
      publisher.close();
      await chromium.close();
      await signed.close();
    }
  });
});

describe("the meeting's rules, for phones too", () => {
  /** An instant meeting of Alice's with these rules; the host (Alice) in its lobby. */
  async function meetingWith(rules: Record<string, boolean>) {
    const alice = await api.login('alice');
    const m = await api.post<{ id: number; meeting_name: string; meeting_access_code: string; phone_pin: string }>('/v1/meetings', alice, { meeting_name: `Rules ${Date.now()}`, instant: true, ...rules });
    await api.post(`/v1/meetings/${m.id}/presence`, alice, { client_id: `w${Date.now()}` });
    return { ...m, alice };
  }
  const waitingOf = async (m: { id: number; alice: string }) => WaitingRoom.parse(await api.get(`/v1/meetings/${m.id}/media/waiting`, m.alice)).waiting;
  const admit = async (m: { id: number; alice: string }, occupant: number, yes: boolean) => {
    const res = await api.app.inject({ method: 'POST', url: `/v1/meetings/${m.id}/media/admit`, headers: { authorization: `Bearer ${m.alice}` }, payload: { occupant, admit: yes } });
    expect(res.statusCode, res.body).toBe(204);
  };
  const bobsNumber = async () => (await api.db.query<{ extension: string }>("SELECT extension FROM users WHERE username = 'bob'")).rows[0]!.extension;

  it("a waiting room holds the phone ringing, listed to the host as a phone, until the host admits it: then it is in the meeting's audio", async () => {
    const m = await meetingWith({ waiting_room: true });
    await api.post(`/v1/meetings/${m.id}/media`, m.alice);
    const since = phone.events.length;
    await dial(dialInString(m.meeting_access_code, m.phone_pin));
    await phone.waitEvent((e) => e.type === 'CALL_RINGING', 10_000, since);
    await expect.poll(() => waitingOf(m), { timeout: 10_000 }).toEqual([{ occupant: expect.any(Number), name: await bobsNumber(), is_phone: true }]);
    expect(await bridges.participants(m.id)).toEqual([]);
    expect(phone.events.slice(since).some((e) => e.type === 'CALL_ESTABLISHED')).toBe(false);

    const { occupant } = (await waitingOf(m))[0]!;
    await admit(m, occupant, true);
    await phone.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 10_000, since);
    await expect.poll(() => bridges.participants(m.id), { timeout: 5000 }).toEqual([{ id: expect.any(Number), display: `phone:${await bobsNumber()}`, muted: false }]);
    expect(await waitingOf(m)).toEqual([]);
    await phone.command('hangup');
    await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
    await expect.poll(() => bridges.participants(m.id), { timeout: 5000 }).toEqual([]);
  });

  it('Deny hangs the held phone up (603 Declined) and it never joins; a phone that gives up leaves the list at once', async () => {
    const m = await meetingWith({ waiting_room: true });
    await api.post(`/v1/meetings/${m.id}/media`, m.alice);
    let since = phone.events.length;
    await dial(dialInString(m.meeting_access_code, m.phone_pin));
    await expect.poll(() => waitingOf(m), { timeout: 10_000 }).toHaveLength(1);
    const { occupant } = (await waitingOf(m))[0]!;
    await admit(m, occupant, false);
    const declined = await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
    expect(declined.param).toMatch(/603/);
    // In Bob's history: a call to the meeting nobody answered.
    const bob = await api.login('bob');
    await expect.poll(async () => (await callHistoryOf(api, bob, await api.userId('bob'), declined.id!)).map((r) => [r.direction, r.disposition, r.cnam, r.duration]), { timeout: 5000 }).toEqual([['outbound', 'UNANSWERED', m.meeting_name, 0]]);
    expect(phone.events.slice(since).some((e) => e.type === 'CALL_ESTABLISHED')).toBe(false);
    expect(await bridges.participants(m.id)).toEqual([]);

    since = phone.events.length;
    await dial(dialInString(m.meeting_access_code, m.phone_pin));
    await expect.poll(() => waitingOf(m), { timeout: 10_000 }).toHaveLength(1);
    await phone.command('hangup');
    await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
    await expect.poll(() => waitingOf(m), { timeout: 5000 }).toEqual([]);
  });

  it('member bypass lets the phone of a colleague (its extension is a user\'s of the organisation) straight in', async () => {
    const m = await meetingWith({ waiting_room: true, member_bypass: true });
    const since = phone.events.length;
    await dial(dialInString(m.meeting_access_code, m.phone_pin));
    await phone.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 10_000, since);
    expect(await bridges.participants(m.id)).toHaveLength(1);
    await phone.command('hangup');
    await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
  });

  it('"only moderators may start" holds the phone ringing until a host is in the meeting', async () => {
    const m = await meetingWith({ only_mods: true });
    const since = phone.events.length;
    await dial(dialInString(m.meeting_access_code, m.phone_pin));
    await phone.waitEvent((e) => e.type === 'CALL_RINGING', 10_000, since);
    const media = MeetingMedia.parse(await api.post(`/v1/meetings/${m.id}/media`, m.alice));
    // Still held: the host has the room's keys but is not in it yet.
    expect(await bridges.participants(m.id)).toEqual([]);
    const host = await videoroomHandle(media.janus_url);
    try {
      const display = displayFor({ name: 'Alice', userId: await api.userId('alice'), kind: 'camera' });
      expect(pluginData(await host.message({ request: 'join', ptype: 'publisher', room: media.room, pin: media.pin, display }))).toMatchObject({ videoroom: 'joined' });
      await phone.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 10_000, since);
      expect(phone.events.slice(since).findIndex((e) => e.type === 'CALL_ESTABLISHED')).toBeGreaterThan(phone.events.slice(since).findIndex((e) => e.type === 'CALL_RINGING'));
      await phone.command('hangup');
      await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
    } finally {
      host.close();
    }
  });

  it('the host removes a phone: it gets the BYE and leaves the bridge; a phone not in the meeting is 404', async () => {
    const m = await meetingWith({});
    await api.post(`/v1/meetings/${m.id}/media`, m.alice);
    const since = phone.events.length;
    await dial(dialInString(m.meeting_access_code, m.phone_pin));
    await phone.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 10_000, since);
    const [listed] = MeetingPhones.parse(await api.get(`/v1/meetings/${m.id}/media/phones`, m.alice)).phones;
    expect(listed).toEqual({ id: expect.any(Number), number: await bobsNumber(), muted: false, talking: expect.any(Boolean) });
    const remove = (phoneId: number) => api.app.inject({ method: 'POST', url: `/v1/meetings/${m.id}/media/phones/remove`, headers: { authorization: `Bearer ${m.alice}` }, payload: { phone: phoneId } });
    expect((await remove(listed!.id + 1000)).statusCode).toBe(404);
    expect((await remove(listed!.id)).statusCode).toBe(204);
    await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
    await expect.poll(() => bridges.participants(m.id), { timeout: 5000 }).toEqual([]);
    expect(MeetingPhones.parse(await api.get(`/v1/meetings/${m.id}/media/phones`, m.alice)).phones).toEqual([]);
  });

  it("the call is in the caller's history: an outgoing call to the meeting (its name, the digits dialled) with the time spent in it", async () => {
    const m = await meetingWith({});
    const digits = dialInString(m.meeting_access_code, m.phone_pin);
    const since = phone.events.length;
    await dial(digits);
    const up = await phone.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 10_000, since);
    const answeredAt = Date.now();
    // A couple of seconds of audio both ways (50 packets a second each).
    await expect.poll(async () => { const legs = await relayedPackets(up.id!); return legs.length === 2 && legs.every((n) => n > 100); }, { timeout: 10_000 }).toBe(true);
    await phone.command('hangup');
    await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
    const seconds = (Date.now() - answeredAt) / 1000;
    const bob = await api.login('bob');
    const bobId = await api.userId('bob');
    await expect.poll(() => callHistoryOf(api, bob, bobId, up.id!), { timeout: 5000 }).toHaveLength(1);
    const [row] = await callHistoryOf(api, bob, bobId, up.id!);
    expect(row).toMatchObject({ direction: 'outbound', disposition: 'ANSWERED', source_phone: await bobsNumber(), dest_phone: digits, cnam: m.meeting_name });
    expect(row!.duration).toBeGreaterThanOrEqual(Math.max(2, Math.floor(seconds) - 1));
    expect(row!.duration).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
  });

  it("a caller ID from the gateway is no colleague's: an outside call showing the host's extension still waits (bypass and host count only for callers Kamailio authenticated)", async () => {
    const m = await meetingWith({ waiting_room: true, member_bypass: true });
    await api.post(`/v1/meetings/${m.id}/media`, m.alice);
    const alicesNumber = (await api.db.query<{ extension: string }>("SELECT extension FROM users WHERE username = 'alice'")).rows[0]!.extension;
    // The carrier's side: a SIP stack on the gateway's address, which Kamailio does not challenge.
    const stack = gatewayStack();
    const statuses: number[] = [];
    try {
      const digits = dialInString(m.meeting_access_code, m.phone_pin);
      inviteFromGateway(stack, digits, alicesNumber, `gateway-${Date.now()}`, (status) => void statuses.push(status));
      await expect.poll(() => statuses.includes(180), { timeout: 10_000 }).toBe(true);
      await expect.poll(() => waitingOf(m), { timeout: 10_000 }).toEqual([{ occupant: expect.any(Number), name: alicesNumber, is_phone: true }]);
      expect(statuses.some((n) => n >= 200 && n < 300)).toBe(false);
      await admit(m, (await waitingOf(m))[0]!.occupant, false);
      await expect.poll(() => statuses.at(-1), { timeout: 10_000 }).toBe(603);
      expect(await bridges.participants(m.id)).toEqual([]);
    } finally {
      stack.destroy();
    }
  });
});

/** A browser subscribed to one feed of the room, as the meeting page subscribes: it tells whether it hears `hz`. */
async function listenTo(chromium: Awaited<ReturnType<typeof launchChromium>>, media: { janus_url: string; room: number; pin: string }, feed: number) {
  const peer = await videoroomHandle(media.janus_url);
  const joined = await peer.message({ request: 'join', ptype: 'subscriber', room: media.room, pin: media.pin, streams: [{ feed }] });
  expect(pluginData(joined)).toMatchObject({ videoroom: 'attached' });
  const page = await chromium.browser.newPage();
  const answer = await page.evaluate(async (offer) => {
    const pc = new RTCPeerConnection();
    (globalThis as unknown as { pc: RTCPeerConnection }).pc = pc;
    await pc.setRemoteDescription(offer);
    await pc.setLocalDescription(await pc.createAnswer());
    await new Promise<void>((resolve) => (pc.iceGatheringState === 'complete' ? resolve() : pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve())));
    return { type: pc.localDescription!.type, sdp: pc.localDescription!.sdp };
  }, joined.jsep as RTCSessionDescriptionInit);
  expect(pluginData(await peer.message({ request: 'start' }, answer))).toMatchObject({ started: 'ok' });
  const hears = async (hz: number) => {
    const p = await tonePeak(page);
    return Math.abs(p.hz - hz) < 18 && p.db > -70;
  };
  return { page, hears, close: () => peer.close() };
}

describe('one tile per phone', () => {
  it('each phone dialled in is a feed of its own in the videoroom, named by its number; it goes when that phone hangs up or is removed', async () => {
    const alice = await api.login('alice');
    const m = await api.post<{ id: number; meeting_access_code: string; phone_pin: string }>('/v1/meetings', alice, { meeting_name: `Tiles ${Date.now()}`, instant: true });
    await api.post(`/v1/meetings/${m.id}/presence`, alice, { client_id: `w${Date.now()}` });
    const media = MeetingMedia.parse(await api.post(`/v1/meetings/${m.id}/media`, alice));
    const bobs = (await api.db.query<{ extension: string }>("SELECT extension FROM users WHERE username = 'bob'")).rows[0]!.extension;
    const outside = '5550142';
    // A second phone: an outside call through the gateway (Kamailio lets its address in).
    const stack = gatewayStack();
    const peer = await videoroomHandle(media.janus_url);
    try {
      const since = phone.events.length;
      await dial(dialInString(m.meeting_access_code, m.phone_pin));
      await phone.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 10_000, since);
      const digits = dialInString(m.meeting_access_code, m.phone_pin);
      const statuses: number[] = [];
      inviteFromGateway(stack, digits, outside, `tiles-${Date.now()}`, (status) => void statuses.push(status));
      await expect.poll(() => statuses.at(-1), { timeout: 10_000 }).toBe(200);

      const phoneFeeds = async () => {
        const data = pluginData(await peer.message({ request: 'listparticipants', room: media.room }));
        return ((data.participants ?? []) as Array<{ id: number; display?: string; publisher: boolean }>)
          .filter((p) => p.publisher && readDisplay(p.display).kind === 'phone')
          .map((p) => readDisplay(p.display).name)
          .sort();
      };
      await expect.poll(phoneFeeds, { timeout: 10_000 }).toEqual([bobs, outside].sort());

      await phone.command('hangup');
      await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
      await expect.poll(phoneFeeds, { timeout: 10_000 }).toEqual([outside]);

      const [left] = MeetingPhones.parse(await api.get(`/v1/meetings/${m.id}/media/phones`, alice)).phones;
      expect(left).toMatchObject({ number: outside });
      const removed = await api.app.inject({ method: 'POST', url: `/v1/meetings/${m.id}/media/phones/remove`, headers: { authorization: `Bearer ${alice}` }, payload: { phone: left!.id } });
      expect(removed.statusCode).toBe(204);
      await expect.poll(phoneFeeds, { timeout: 10_000 }).toEqual([]);
    } finally {
      peer.close();
      stack.destroy();
    }
  });
});

describe('Janus killed under a phone', () => {
  it('the phone stays in the call: once Janus is back it is in the bridge again, its tile is back and a browser hears it', async () => {
    const alice = await api.login('alice');
    const m = await api.post<{ id: number; meeting_access_code: string; phone_pin: string }>('/v1/meetings', alice, { meeting_name: `Restart ${Date.now()}`, instant: true });
    await api.post(`/v1/meetings/${m.id}/presence`, alice, { client_id: `w${Date.now()}` });
    const media = MeetingMedia.parse(await api.post(`/v1/meetings/${m.id}/media`, alice));
    const since = phone.events.length;
    await dial(dialInString(m.meeting_access_code, m.phone_pin));
    await phone.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 10_000, since);
    const before = await bridges.participants(m.id);
    expect(before).toHaveLength(1);

    const pid = await readPid(path.join(serviceDirs(api.cfg.runtimeDir, 'janus').run, 'janus.pid'));
    process.kill(pid!, 'SIGKILL');
    await expect.poll(() => isAlive(pid!)).toBe(false);
    await startServices(api.cfg, ['janus']);

    // Joined again by the dial-in (a new participant), the call never dropped.
    await expect.poll(async () => (await bridges.participants(m.id).catch(() => [])).length, { timeout: 20_000 }).toBe(1);
    const peer = await videoroomHandle(media.janus_url);
    const chromium = await launchChromium();
    try {
      const feedOf = async () => {
        const data = pluginData(await peer.message({ request: 'listparticipants', room: media.room }));
        return ((data.participants ?? []) as Array<{ id: number; display?: string; publisher: boolean }>).find((p) => p.publisher && readDisplay(p.display).kind === 'phone')?.id ?? null;
      };
      await expect.poll(feedOf, { timeout: 10_000 }).not.toBeNull();
      // The phone's own audio reaches the new bridge (it was moved there by a re-INVITE): baresip's 440 Hz tone.
      const ear = await listenTo(chromium, media, (await feedOf())!);
      await expect.poll(() => ear.hears(440), { timeout: 15_000, interval: 200 }).toBe(true);
      ear.close();
      // Moved by our re-INVITE (Janus may or may not hand out the same RTP port again: only the re-INVITE makes it sure).
      await expect.poll(() => phone.events.slice(since).some((e) => e.type === 'CALL_REMOTE_SDP' && e.param === 'offer'), { timeout: 5000 }).toBe(true);
      expect(phone.events.slice(since).some((e) => e.type === 'CALL_CLOSED')).toBe(false);
      await phone.command('hangup');
      await phone.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
      await expect.poll(() => bridges.participants(m.id), { timeout: 5000 }).toEqual([]);
    } finally {
      peer.close();
      await chromium.close();
    }
  });

  it('a Janus that does not come back: the phone is hung up (BYE with a reason) rather than left in silence', async () => {
    const alice = await api.login('alice');
    const m = await api.post<{ id: number; meeting_access_code: string; phone_pin: string }>('/v1/meetings', alice, { meeting_name: `Gone ${Date.now()}`, instant: true });
    await api.post(`/v1/meetings/${m.id}/presence`, alice, { client_id: `w${Date.now()}` });
    await api.post(`/v1/meetings/${m.id}/media`, alice);
    const since = phone.events.length;
    await dial(dialInString(m.meeting_access_code, m.phone_pin));
    await phone.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 10_000, since);
    const pid = await readPid(path.join(serviceDirs(api.cfg.runtimeDir, 'janus').run, 'janus.pid'));
    try {
      process.kill(pid!, 'SIGKILL');
      await expect.poll(() => isAlive(pid!)).toBe(false);
      const closedAt = Date.now();
      await phone.waitEvent((e) => e.type === 'CALL_CLOSED', RECOVER_MAX_MS + 10_000, since);
      expect(Date.now() - closedAt).toBeGreaterThanOrEqual(RECOVER_MAX_MS - 1000);
    } finally {
      await startServices(api.cfg, ['janus']);
    }
  }, RECOVER_MAX_MS + 30_000);
});

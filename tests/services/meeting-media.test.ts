import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeetingMedia, RoomsResponse } from '../../src/wire/meetings';
import { SipCredentialsResponse, TurnCredentialsResponse } from '../../src/wire/services';
import { janusRequest } from '../../server/services/janus-client';
import { serviceDirs } from '../../server/services/layout';
import { startServices } from '../../server/services/manager';
import { isAlive, readPid } from '../../server/services/proc';
import { mintTurnCredentials, turnSecret } from '../../server/turn/credentials';
import { launchChromium } from './sip-page';
import { startServicesApi, type ServicesApi } from './harness';
import { pluginData, toneOffer, videoroomHandle } from './janus-peer';

const run = promisify(execFile);

/**
 * Allocates a relay on coturn with `turnutils_uclient` (coturn's own test client) and sends a few
 * packets through it between two of its clients: true when the allocation succeeded.
 */
async function turnAllocates(port: number, username: string, credential: string): Promise<boolean> {
  try {
    await run('turnutils_uclient', ['-u', username, '-w', credential, '-p', String(port), '-n', '1', '-m', '1', '-l', '100', '-y', '127.0.0.1'], { timeout: 30_000 });
    return true;
  } catch (err) {
    const out = String((err as { stdout?: string }).stdout ?? '') + String((err as { stderr?: string }).stderr ?? '');
    if (/Cannot complete Allocation/.test(out)) return false;
    throw err;
  }
}

/** The relay candidates a Chromium page gathers with only this ICE server and relaying forced (nothing else can be found). */
async function relayCandidates(server: { urls: string[]; username: string; credential: string }): Promise<string[]> {
  const chromium = await launchChromium();
  try {
    const page = await chromium.browser.newPage();
    return await page.evaluate(async (ice) => {
      const pc = new RTCPeerConnection({ iceServers: [ice], iceTransportPolicy: 'relay' });
      const found: string[] = [];
      const done = new Promise<void>((resolve) => {
        pc.onicecandidate = (e) => (e.candidate ? found.push(e.candidate.candidate) : resolve());
      });
      pc.createDataChannel('probe');
      await pc.setLocalDescription(await pc.createOffer());
      await done;
      pc.close();
      return found;
    }, server);
  } finally {
    await chromium.close();
  }
}

describe('meeting media: Janus videorooms through the API, TURN through coturn', () => {
  let api: ServicesApi;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    api = await startServicesApi();
    alice = await api.login('alice');
    bob = await api.login('bob');
  });
  afterAll(async () => api?.close());

  const janusUrl = () => `ws://127.0.0.1:${api.cfg.ports.janusWs}`;
  const lobbyThenMedia = async (token: string, id: number) => {
    await api.post(`/v1/meetings/${id}/presence`, token, { client_id: `w${Date.now()}` });
    return MeetingMedia.parse(await api.post(`/v1/meetings/${id}/media`, token));
  };

  it('Janus runs from the project config: WebSockets only, the videoroom and audiobridge plugins only, on loopback', async () => {
    const info = await janusRequest(janusUrl(), { janus: 'info' });
    expect(Object.keys(info.plugins as object).sort()).toEqual(['janus.plugin.audiobridge', 'janus.plugin.videoroom']);
    expect(Object.keys(info.transports as object)).toEqual(['janus.transport.websockets']);
    const conf = await readFile(path.join(serviceDirs(api.cfg.runtimeDir, 'janus').conf, 'janus.transport.websockets.jcfg'), 'utf8');
    expect(conf).toMatch(/ws_ip = "127\.0\.0\.1"/);
    expect(conf).toMatch(/admin_ws_ip = "127\.0\.0\.1"/);
  });

  it('the videoroom the API creates refuses a wrong PIN and takes the right one; a client cannot create rooms itself', async () => {
    const room = RoomsResponse.parse(await api.get('/v1/rooms', alice)).rooms[0]!;
    // Not in the lobby: no way into the media.
    await expect(api.post(`/v1/meetings/${room.id}/media`, bob)).rejects.toThrow(/403/);
    const media = await lobbyThenMedia(alice, room.id);
    expect(media.room).toBe(room.id);
    expect(media.janus_url).toBe(janusUrl());
    // The second participant gets the same room and PIN (the room exists already).
    expect(await lobbyThenMedia(bob, room.id)).toMatchObject({ room: media.room, pin: media.pin });

    const peer = await videoroomHandle(media.janus_url);
    try {
      const wrong = await peer.message({ request: 'join', ptype: 'publisher', room: media.room, pin: `${media.pin}x`, display: 'Mallory' });
      expect(pluginData(wrong)).toMatchObject({ error_code: 433 });
      const none = await peer.message({ request: 'join', ptype: 'publisher', room: media.room, display: 'Mallory' });
      expect(pluginData(none).error_code).toBeDefined();
      const joined = await peer.message({ request: 'join', ptype: 'publisher', room: media.room, pin: media.pin, display: 'Alice' });
      expect(pluginData(joined)).toMatchObject({ videoroom: 'joined', room: media.room });
      // Without the admin key (which only the API server holds) Janus creates no room.
      const other = await videoroomHandle(media.janus_url);
      try {
        expect(pluginData(await other.message({ request: 'create', room: 990_001, pin: '1' })).error_code).toBeDefined();
        expect(pluginData(await other.message({ request: 'exists', room: 990_001 }))).toMatchObject({ exists: false });
      } finally {
        other.close();
      }
    } finally {
      peer.close();
    }
  });

  it('a browser publishes its audio into the room: ICE connects to Janus over loopback and Janus lists it as a publisher', async () => {
    const room = RoomsResponse.parse(await api.get('/v1/rooms', alice)).rooms[1]!;
    const media = await lobbyThenMedia(alice, room.id);
    const chromium = await launchChromium();
    const peer = await videoroomHandle(media.janus_url);
    try {
      const page = await chromium.browser.newPage();
      // An oscillator stands in for the microphone (a blank page is no secure context for getUserMedia).
      const offer = await toneOffer(page);
      expect(pluginData(await peer.message({ request: 'join', ptype: 'publisher', room: media.room, pin: media.pin, display: 'Alice' }))).toMatchObject({ videoroom: 'joined' });
      const published = await peer.message({ request: 'publish', audio: true }, offer);
      expect(pluginData(published)).toMatchObject({ configured: 'ok' });
      const answer = published.jsep as { type: RTCSdpType; sdp: string };
      await page.evaluate(async (a) => (globalThis as unknown as { pc: RTCPeerConnection }).pc.setRemoteDescription(a), answer);
      await expect.poll(() => page.evaluate(() => (globalThis as unknown as { pc: RTCPeerConnection }).pc.connectionState), { timeout: 15_000 }).toBe('connected');
      const listed = async () => {
        const admin = await videoroomHandle(media.janus_url);
        try {
          return pluginData(await admin.message({ request: 'listparticipants', room: media.room })).participants as Array<{ display: string; publisher: boolean }>;
        } finally {
          admin.close();
        }
      };
      await expect.poll(listed, { timeout: 10_000 }).toContainEqual(expect.objectContaining({ display: 'Alice', publisher: true }));
    } finally {
      peer.close();
      await chromium.close();
    }
  });

  it('deleting a meeting destroys its videoroom; a Janus killed and restarted gets the room back on the next join, same PIN', async () => {
    const now = Date.now();
    const created = await api.post<{ id: number }>('/v1/meetings', alice, {
      meeting_name: 'Media test',
      start: new Date(now + 5 * 60_000).toISOString(),
      end: new Date(now + 65 * 60_000).toISOString(),
      time_zone: 'Europe/Paris',
    });
    const media = await lobbyThenMedia(alice, created.id);
    const exists = async () => {
      const peer = await videoroomHandle(media.janus_url);
      try {
        return pluginData(await peer.message({ request: 'exists', room: media.room })).exists;
      } finally {
        peer.close();
      }
    };
    expect(await exists()).toBe(true);

    const pid = await readPid(path.join(serviceDirs(api.cfg.runtimeDir, 'janus').run, 'janus.pid'));
    process.kill(pid!, 'SIGKILL');
    await expect.poll(() => isAlive(pid!)).toBe(false);
    await startServices(api.cfg, ['janus']);
    expect(await exists()).toBe(false);
    expect(await lobbyThenMedia(alice, created.id)).toMatchObject({ room: media.room, pin: media.pin });
    expect(await exists()).toBe(true);

    const res = await api.app.inject({ method: 'DELETE', url: `/v1/meetings/${created.id}`, headers: { authorization: `Bearer ${alice}` } });
    expect(res.statusCode).toBe(204);
    await expect.poll(exists, { timeout: 10_000 }).toBe(false);
  });

  it('the host (the booker) may mute, remove and end; a participant may not; a participant gone is a 404', async () => {
    const meeting = await api.post<{ id: number }>('/v1/meetings', alice, { meeting_name: `Host rights ${Date.now()}`, instant: true });
    const hostMedia = await lobbyThenMedia(alice, meeting.id);
    const guestMedia = await lobbyThenMedia(bob, meeting.id);
    expect(hostMedia.is_host).toBe(true);
    expect(guestMedia.is_host).toBe(false);
    const as = (token: string, method: 'POST' | 'DELETE', url: string, payload?: object) =>
      api.app.inject({ method, url: `/v1/meetings/${meeting.id}/media${url}`, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

    const bobs = await videoroomHandle(hostMedia.janus_url);
    try {
      const joined = pluginData(await bobs.message({ request: 'join', ptype: 'publisher', room: hostMedia.room, pin: guestMedia.pin, display: 'Bob' }));
      const feed = joined.id as number;
      const listed = async () => ((pluginData(await bobs.message({ request: 'listparticipants', room: hostMedia.room })).participants ?? []) as { id: number }[]).map((p) => p.id);
      expect(await listed()).toContain(feed);

      // Bob is no host: refused, with the reason.
      const refused = await as(bob, 'POST', '/remove', { feed });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: 'not_host' });
      expect((await as(bob, 'DELETE', '')).statusCode).toBe(403);
      // Hostile or odd input: 400 with a message, never a 500.
      for (const body of [{ feed: 'x' }, { feed: -1 }, { feed: 2 ** 60 }, {}, { feed: 1, mid: '0\u0000', mute: true }]) {
        const res = await as(alice, 'POST', body.mid !== undefined ? '/moderate' : '/remove', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().message).toBeTruthy();
      }
      // Someone not in the room: 404.
      expect((await as(alice, 'POST', '/moderate', { feed: feed + 1, mid: '0', mute: true })).statusCode).toBe(404);

      // Alice removes Bob: Janus no longer lists him.
      expect((await as(alice, 'POST', '/remove', { feed })).statusCode).toBe(204);
      await expect.poll(listed).not.toContain(feed);

      // Alice ends the meeting for all: the room is gone.
      expect((await as(alice, 'DELETE', '')).statusCode).toBe(204);
      expect(pluginData(await bobs.message({ request: 'exists', room: hostMedia.room }))).toMatchObject({ exists: false });
    } finally {
      bobs.close();
    }
  });

  it('TURN credentials from the API allocate a relay on coturn; a wrong credential does not', async () => {
    const turn = TurnCredentialsResponse.parse(await api.get('/v1/turn-credentials', alice));
    expect(turn.urls).toContain(`turn:127.0.0.1:${api.cfg.ports.turn}?transport=udp`);
    expect(turn.username).toMatch(new RegExp(`^\\d+:${await api.userId('alice')}$`));
    expect(await turnAllocates(api.cfg.ports.turn, turn.username, turn.credential)).toBe(true);
    expect(await turnAllocates(api.cfg.ports.turn, turn.username, `${turn.credential.slice(0, -2)}x=`)).toBe(false);
    // A browser gets a relay address from coturn with them (what a meeting or a call behind NAT uses), none with a wrong one.
    expect(await relayCandidates(turn)).toContainEqual(expect.stringMatching(/ 127\.0\.0\.1 \d+ typ relay /));
    expect(await relayCandidates({ ...turn, credential: 'wrong' })).toEqual([]);
    // Calls get the same relay with their SIP credentials, while this project's coturn runs.
    const sip = SipCredentialsResponse.parse(await api.get('/v1/sip-credentials', alice));
    expect(sip.ice_servers).toEqual([{ urls: turn.urls, username: expect.stringMatching(/^\d+:\d+$/), credential: expect.any(String) }]);
    expect(await turnAllocates(api.cfg.ports.turn, sip.ice_servers![0]!.username, sip.ice_servers![0]!.credential)).toBe(true);
    // An expired username is refused too, though its HMAC is right: coturn reads the expiry from it.
    const expired = mintTurnCredentials(await turnSecret(api.cfg), await api.userId('alice'), -60);
    expect(await turnAllocates(api.cfg.ports.turn, expired.username, expired.credential)).toBe(false);
  });
});

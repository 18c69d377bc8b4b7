import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { GuestJoinResponse, Meeting, MeetingMedia } from '../../src/wire/meetings';
import { displayFor } from '../../src/wire/meetingDisplay';
import { janusRequest } from '../../server/services/janus-client';
import { janusMeetingRooms } from '../../server/meetings/janus-rooms';
import { janusInstances, placeMeeting } from '../../server/services/janus-instances';
import { loadOrCreateSecret, SECRET_NAMES, serviceDirs } from '../../server/services/layout';
import { startServices, stopServices } from '../../server/services/manager';
import { isAlive, readPid, runningPid } from '../../server/services/proc';
import { startServicesApi, type ServicesApi } from './harness';
import { launchChromium } from './sip-page';
import { pluginData, toneOffer, videoroomHandle } from './janus-peer';

type Handle = Awaited<ReturnType<typeof videoroomHandle>>;
type Pc = { pc: RTCPeerConnection };

/**
 * A browser page publishes a tone into the room through `peer` (already joined) until ICE
 * connects, as a meeting page does: Janus then has the feed's audio stream (mid "0") to moderate.
 */
async function publishTone(page: Page, peer: Handle): Promise<void> {
  const offer = await toneOffer(page);
  const published = await peer.message({ request: 'publish', audio: true }, offer);
  expect(pluginData(published)).toMatchObject({ configured: 'ok' });
  await page.evaluate(async (a) => (globalThis as unknown as Pc).pc.setRemoteDescription(a), published.jsep as RTCSessionDescriptionInit);
  await expect.poll(() => page.evaluate(() => (globalThis as unknown as Pc).pc.connectionState), { timeout: 15_000 }).toBe('connected');
}

/*
 * Issue 25, Janus: with UC_CLUSTER=1 the project runs two Janus instances and the API places each
 * meeting on one of them; everything about that meeting (its room, its participants, the host's
 * moderation, the guests) happens on that one. Both Janus instances are the real ones, started by
 * the project's service definitions with the cluster's configuration.
 */
describe('meetings over two Janus instances (UC_CLUSTER=1)', () => {
  const base = inject('servicesConfig');
  const cfg = { ...base, cluster: true };
  const instances = janusInstances(cfg);
  const urls = instances.map((i) => `ws://127.0.0.1:${i.ws}`);
  const names = instances.map((i) => i.name);
  let api: ServicesApi;
  let alice: string;
  let bob: string;
  let adminKey: string;
  /** Whether janus2 was started here (a run of the whole cluster has it already). */
  let startedJanus2 = false;
  const created: number[] = [];

  beforeAll(async () => {
    // Node 1 is this run's own (started by the global setup, with the whole media range outside a
    // cluster): restarting it from this file's worker would leave an orphan that a SIGKILL later
    // turns into a zombie nobody reaps here (PID 1 of this machine does not), which then reads as
    // running. janus2 comes with the cluster's half; the cluster's half for node 1 is checked in
    // tests/server/janus-placement.test.ts.
    startedJanus2 = (await runningPid(path.join(serviceDirs(base.runtimeDir, 'janus2').run, 'janus2.pid'))) === null;
    await startServices(cfg, ['janus2']);
    api = await startServicesApi({ cluster: true });
    alice = await api.login('alice');
    bob = await api.login('bob');
    adminKey = (await loadOrCreateSecret(base.runtimeDir, SECRET_NAMES.janusRoomAdmin)).toString('base64url');
  });
  afterAll(async () => {
    // The next file's fresh database numbers its meetings from the same ids: no rooms of ours left behind.
    const rooms = janusMeetingRooms(cfg);
    for (const id of created) await rooms.destroy(id).catch(() => undefined);
    await rooms.close();
    await api?.close();
    if (startedJanus2) await stopServices(cfg, ['janus2']);
  });

  let clients = 0;
  const lobbyThenMedia = async (token: string, id: number) => {
    await api.post(`/v1/meetings/${id}/presence`, token, { client_id: `w${Date.now()}n${++clients}` });
    return MeetingMedia.parse(await api.post(`/v1/meetings/${id}/media`, token));
  };
  /** An instant meeting of Alice's that the API places on instance `want` (meeting ids come in turn; placement decides). */
  const meetingOn = async (want: number, over: Record<string, unknown> = {}): Promise<Meeting> => {
    for (let i = 0; i < 40; i++) {
      const m = Meeting.parse(await api.post('/v1/meetings', alice, { meeting_name: `Cluster ${want} ${i}`, instant: true, time_zone: 'Europe/Paris', ...over }));
      created.push(m.id);
      if (placeMeeting(m.id, names) === want) return m;
      await api.app.inject({ method: 'DELETE', url: `/v1/meetings/${m.id}`, headers: { authorization: `Bearer ${alice}` } });
    }
    throw new Error(`no meeting placed on ${names[want]} in 40 tries`);
  };
  /** The rooms one Janus holds, by its own API (private rooms are listed to the admin_key only). */
  const roomsOn = async (instance: number): Promise<number[]> => {
    const peer = await videoroomHandle(urls[instance]!);
    try {
      const list = pluginData(await peer.message({ request: 'list', admin_key: adminKey })).list as { room: number }[];
      return list.map((r) => r.room);
    } finally {
      peer.close();
    }
  };
  const participantsOn = async (instance: number, room: number): Promise<number[]> => {
    const peer = await videoroomHandle(urls[instance]!);
    try {
      const data = pluginData(await peer.message({ request: 'listparticipants', room }));
      return ((data.participants ?? []) as { id: number }[]).map((p) => p.id);
    } finally {
      peer.close();
    }
  };
  const as = (token: string, method: 'POST' | 'DELETE', url: string, payload?: object) =>
    api.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

  it('janus2 runs from the project config, in its own folder, on its own loopback ports and the second half of the media range', async () => {
    for (const url of urls) expect((await janusRequest(url, { janus: 'info' })).janus).toBe('server_info');
    const conf = serviceDirs(base.runtimeDir, 'janus2').conf;
    expect(await readFile(path.join(conf, 'janus.jcfg'), 'utf8')).toContain(`rtp_port_range = "${base.ports.base + 600}-${base.ports.base + 699}"`);
    expect(await readFile(path.join(conf, 'janus.transport.websockets.jcfg'), 'utf8')).toMatch(new RegExp(`ws_ip = "127\\.0\\.0\\.1"\\s+ws_port = ${base.ports.base + 110}\\b[^]*admin_ws_ip = "127\\.0\\.0\\.1"\\s+admin_ws_port = ${base.ports.base + 111}\\b`));
  });

  it('two meetings land on different instances: each Janus lists its own meeting and not the other; both participants of one meet there, a guest too', async () => {
    const first = await meetingOn(0);
    const second = await meetingOn(1);
    const media = [await lobbyThenMedia(alice, first.id), await lobbyThenMedia(alice, second.id)];
    expect(media.map((m) => m.janus_url)).toEqual(urls);
    const lists = [await roomsOn(0), await roomsOn(1)];
    expect(lists[0]).toContain(first.id);
    expect(lists[0]).not.toContain(second.id);
    expect(lists[1]).toContain(second.id);
    expect(lists[1]).not.toContain(first.id);

    // Bob and a guest are sent to the same Janus, into the same room, and meet Alice there.
    const bobs = await lobbyThenMedia(bob, second.id);
    const guest = GuestJoinResponse.parse(
      (await api.app.inject({ method: 'POST', url: '/v1/meetings/guest', remoteAddress: '198.51.100.25', payload: { meeting: second.meeting_access_code, email: 'gil@example.org', name: 'Gil' } })).json(),
    );
    const guests = await lobbyThenMedia(guest.access_token, second.id);
    for (const m of [bobs, guests]) expect(m).toMatchObject({ janus_url: urls[1], room: second.id, pin: media[1]!.pin });
    const peers = [await videoroomHandle(media[1]!.janus_url), await videoroomHandle(bobs.janus_url), await videoroomHandle(guests.janus_url)];
    try {
      const feeds: number[] = [];
      for (const [i, p] of peers.entries()) {
        const joined = pluginData(await p.message({ request: 'join', ptype: 'publisher', room: second.id, pin: media[1]!.pin, display: `P${i}` }));
        expect(joined).toMatchObject({ videoroom: 'joined', room: second.id });
        feeds.push(joined.id as number);
      }
      // The last one in sees the other two (Janus lists publishers only: none has published, so ask the room).
      expect(await participantsOn(1, second.id)).toEqual(expect.arrayContaining(feeds));
    } finally {
      for (const p of peers) p.close();
    }
  });

  it("the host's mute, removal and ending reach the meeting's own instance, for a meeting on either", async () => {
    const chromium = await launchChromium();
    try {
      for (const want of [0, 1]) {
        const m = await meetingOn(want);
        await lobbyThenMedia(alice, m.id);
        const bobMedia = await lobbyThenMedia(bob, m.id);
        expect(bobMedia.janus_url).toBe(urls[want]);
        const bobs = await videoroomHandle(bobMedia.janus_url);
        const page = await chromium.browser.newPage();
        try {
          const feed = pluginData(await bobs.message({ request: 'join', ptype: 'publisher', room: m.id, pin: bobMedia.pin, display: 'Bob' })).id as number;
          await publishTone(page, bobs);
          // Sent anywhere else, Janus has no such room or feed and the API answers 404: 204 means Bob's Janus did it.
          const muted = await as(alice, 'POST', `/v1/meetings/${m.id}/media/moderate`, { feed, mid: '0', mute: true });
          expect(muted.statusCode, muted.body).toBe(204);
          expect((await as(alice, 'POST', `/v1/meetings/${m.id}/media/remove`, { feed })).statusCode).toBe(204);
          await expect.poll(() => participantsOn(want, m.id)).not.toContain(feed);
          expect(await roomsOn(want)).toContain(m.id);
          expect((await as(alice, 'DELETE', `/v1/meetings/${m.id}/media`)).statusCode).toBe(204);
          expect(await roomsOn(want)).not.toContain(m.id);
        } finally {
          await page.close();
          bobs.close();
        }
      }
    } finally {
      await chromium.close();
    }
  });

  it("'only moderators may start' asks the meeting's own Janus whether its host is in", async () => {
    const m = await meetingOn(1, { only_mods: true });
    const hostMedia = await lobbyThenMedia(alice, m.id);
    await expect(lobbyThenMedia(bob, m.id)).rejects.toThrow(/waiting_for_host/);
    const host = await videoroomHandle(hostMedia.janus_url);
    try {
      const display = displayFor({ name: 'Alice', userId: await api.userId('alice'), kind: 'camera' });
      expect(pluginData(await host.message({ request: 'join', ptype: 'publisher', room: m.id, pin: hostMedia.pin, display }))).toMatchObject({ videoroom: 'joined' });
      expect(await lobbyThenMedia(bob, m.id)).toMatchObject({ janus_url: urls[1], room: m.id });
    } finally {
      host.close();
    }
  });

  it("a Janus killed takes its meetings' media with it, not the other's; back, the next join makes the room again there", async () => {
    const kept = await meetingOn(0);
    const lost = await meetingOn(1);
    const keptMedia = await lobbyThenMedia(alice, kept.id);
    const lostMedia = await lobbyThenMedia(alice, lost.id);
    const stays = await videoroomHandle(keptMedia.janus_url);
    try {
      const feed = pluginData(await stays.message({ request: 'join', ptype: 'publisher', room: kept.id, pin: keptMedia.pin, display: 'Alice' })).id as number;
      const pid = await readPid(path.join(serviceDirs(base.runtimeDir, 'janus2').run, 'janus2.pid'));
      process.kill(pid!, 'SIGKILL');
      await expect.poll(() => isAlive(pid!)).toBe(false);

      // No failover: the meeting stays on its Janus, and its media is unavailable while that is down.
      await api.post(`/v1/meetings/${lost.id}/presence`, bob, { client_id: 'bob-lost' });
      const down = await as(bob, 'POST', `/v1/meetings/${lost.id}/media`);
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({ error: 'media_unavailable' });
      // The other Janus's meeting goes on: its room and its participant are still there.
      expect(await participantsOn(0, kept.id)).toContain(feed);

      await startServices(cfg, ['janus2']);
      expect(await roomsOn(1)).not.toContain(lost.id);
      expect(await lobbyThenMedia(bob, lost.id)).toMatchObject({ janus_url: urls[1], room: lost.id, pin: lostMedia.pin });
      expect(await roomsOn(1)).toContain(lost.id);
    } finally {
      stays.close();
    }
  });
});

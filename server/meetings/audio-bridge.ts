import { createHmac } from 'node:crypto';
import { JanusConnection, VideoRoomAdmin, VideoRoomError } from '../services/janus-client';
import { janusInstances, placeMeeting } from '../services/janus-instances';
import { janusRoomKeys } from './janus-keys';
import type { ServicesConfig } from '../services/layout';

/** AudioBridge error codes (janus_audiobridge.c). */
const NO_SUCH_ROOM = 485;
const ROOM_EXISTS = 486;
/**
 * The bridge's groups: each phone has one of its own, so that a forwarder of that group is that
 * phone's voice alone (its own tile); browsers are one group, never forwarded back. Janus 1.1
 * allows 5 groups a room (JANUS_AUDIOBRIDGE_MAX_GROUPS): four phones have a tile each, a fifth
 * and later phone shares the last one's.
 */
const BROWSERS = 'browsers';
export const PHONE_GROUPS = ['phone1', 'phone2', 'phone3', 'phone4'] as const;
/** Janus ends a session after 60 s without a word. */
const KEEPALIVE_MS = 25_000;

/** Where RTP goes: an address and port on loopback. */
export interface RtpAddress {
  ip: string;
  port: number;
}

/** A phone in a meeting's audio: the AudioBridge's own RTP address for it, until it leaves. */
export interface PhoneLeg {
  /** Janus's id of the participant in the bridge. */
  id: number;
  /** Where the phone's RTP must go (the bridge sends its mix to the phone's address from the same port). */
  local: RtpAddress;
  /** The bridge's group the participant is in (a phone's own, or `browsers`). */
  group: string;
  /** Janus went away under the participant (it died or was restarted): the leg is dead and left. */
  lost: Promise<void>;
  leave(): void;
}

/**
 * The audio of meetings for phones: one AudioBridge room per meeting (the meeting's id, on the
 * Janus that holds its videoroom), created by the API server only (admin_key). Each phone is a
 * plain-RTP participant with a Janus session of its own, so that closing it is the phone leaving.
 */
export interface MeetingBridges {
  joinPhone(meetingId: number, o: { display: string; remote: RtpAddress; payloadType: number; codec: 'pcmu' | 'pcma' }): Promise<PhoneLeg>;
  /**
   * A browser's audio in the bridge (group `browsers`): receive-only, fed by the videoroom's
   * forwarder of that publisher's audio (Opus, `payloadType`); it hears nothing back.
   */
  joinBrowser(meetingId: number, o: { display: string; payloadType: number }): Promise<PhoneLeg>;
  /** Creates the meeting's bridge unless it exists. */
  ensure(meetingId: number): Promise<void>;
  /**
   * Sends the mix of one group (a phone's own; Opus, the SSRC and payload type given) to `to`: that
   * phone's feed in the videoroom. Browsers' audio is in the bridge too (group `browsers`) and is
   * left out, so nobody in the videoroom hears themselves back. `codec` 'pcmu' (8 kHz G.711, the
   * payload type 0) is for the API's own talking meter (phone-talking.ts).
   */
  forwardGroup(meetingId: number, group: string, to: RtpAddress, o: { ssrc: number; payloadType: number; codec?: 'opus' | 'pcmu' }): Promise<number>;
  stopForward(meetingId: number, streamId: number): Promise<void>;
  /** Who is in the bridge now (Janus's ids and displays, and whether the bridge mutes them). */
  participants(meetingId: number): Promise<{ id: number; display: string; muted: boolean }[]>;
  /** The host's mute: the bridge drops that participant's audio (everyone else's mix leaves it out) until unmuted. */
  mute(meetingId: number, participantId: number, mute: boolean): Promise<void>;
  close(): Promise<void>;
}

export function janusMeetingBridges(services: Pick<ServicesConfig, 'runtimeDir' | 'ports' | 'cluster'>): MeetingBridges {
  const instances = janusInstances(services);
  const names = instances.map((i) => i.name);
  const urls = instances.map((i) => `ws://127.0.0.1:${i.ws}`);
  const admins = urls.map((u) => new VideoRoomAdmin(u, 'janus.plugin.audiobridge'));
  const open = new Set<JanusConnection>();
  /** Our own close(): the legs end with it, not lost. */
  let closing = false;
  const loadKeys = janusRoomKeys(services.runtimeDir);
  /** Phones in each group of each meeting's bridge: a new phone takes the first empty group. */
  const taken = new Map<number, number[]>();
  const takeGroup = (meetingId: number): { group: string; free(): void } => {
    const counts = taken.get(meetingId) ?? PHONE_GROUPS.map(() => 0);
    taken.set(meetingId, counts);
    const free = counts.indexOf(0);
    const i = free === -1 ? PHONE_GROUPS.length - 1 : free;
    counts[i]!++;
    let freed = false;
    return {
      group: PHONE_GROUPS[i]!,
      free() {
        if (freed) return;
        freed = true;
        counts[i]!--;
        if (counts.every((n) => n === 0)) taken.delete(meetingId);
      },
    };
  };
  // Its own purposes under the videorooms' key: the bridge's PIN keeps browsers (which may attach to
  // any plugin Janus serves) out of the phones' audio.
  const derive = (key: Buffer, purpose: string, id: number) => createHmac('sha256', key).update(`${purpose}:${id}`).digest('base64url').slice(0, 32);

  async function ensure(meetingId: number): Promise<string> {
    const { adminKey, rooms } = await loadKeys();
    const pin = derive(rooms, 'bridge-pin', meetingId);
    try {
      await admins[placeMeeting(meetingId, names)]!.request({ request: 'create', admin_key: adminKey, room: meetingId, pin, secret: derive(rooms, 'bridge-secret', meetingId), is_private: true, sampling_rate: 16000, allow_rtp_participants: true, groups: [BROWSERS, ...PHONE_GROUPS] });
    } catch (err) {
      if (!(err instanceof VideoRoomError && err.code === ROOM_EXISTS)) throw err;
    }
    return pin;
  }

  /** One participant on a Janus session of its own: closing it is the participant leaving. */
  async function join(meetingId: number, o: { display: string; group: string; codec: string; rtp: Record<string, unknown> }, freeGroup = () => undefined as void): Promise<PhoneLeg> {
    const socket = new JanusConnection(urls[placeMeeting(meetingId, names)]!);
    open.add(socket);
    let keepalive: NodeJS.Timeout | undefined;
    let left = false;
    let onLost = () => undefined as void;
    const lost = new Promise<void>((resolve) => (onLost = resolve));
    const leave = () => {
      left = true;
      clearInterval(keepalive);
      freeGroup();
      open.delete(socket);
      // The session ends with its WebSocket: Janus takes the participant out of the room.
      socket.close();
    };
    // Janus's end is the only way the WebSocket closes without our leave().
    socket.onClose(() => {
      if (left || closing) return;
      leave();
      onLost();
    });
    try {
      const pin = await ensure(meetingId);
      const created = await socket.send({ janus: 'create' });
      const session = created.data?.id;
      if (created.janus !== 'success' || !session) throw new Error(`Janus refused a session: ${created.error?.reason ?? created.janus}`);
      const attached = await socket.send({ janus: 'attach', session_id: session, plugin: 'janus.plugin.audiobridge' });
      const handle = attached.data?.id;
      if (attached.janus !== 'success' || !handle) throw new Error(`Janus refused the audiobridge: ${attached.error?.reason ?? attached.janus}`);
      keepalive = setInterval(() => void socket.send({ janus: 'keepalive', session_id: session }).catch(() => undefined), KEEPALIVE_MS);
      keepalive.unref();
      const joined = await socket.send({
        janus: 'message',
        session_id: session,
        handle_id: handle,
        body: { request: 'join', room: meetingId, pin, ...o },
      });
      const data = joined.plugindata?.data ?? {};
      if (typeof data.error_code === 'number') throw new VideoRoomError(data.error_code, String(data.error ?? 'audiobridge error'));
      const rtp = data.rtp as { ip?: unknown; port?: unknown } | undefined;
      if (typeof data.id !== 'number' || typeof rtp?.ip !== 'string' || typeof rtp.port !== 'number') throw new Error('the audiobridge gave no RTP address');
      return { id: data.id, local: { ip: rtp.ip, port: rtp.port }, group: o.group, lost, leave };
    } catch (err) {
      leave();
      throw err;
    }
  }

  return {
    ensure: async (meetingId) => void (await ensure(meetingId)),
    async forwardGroup(meetingId, group, to, o) {
      const { adminKey, rooms } = await loadKeys();
      await ensure(meetingId);
      const data = await admins[placeMeeting(meetingId, names)]!.request({
        request: 'rtp_forward',
        admin_key: adminKey,
        room: meetingId,
        secret: derive(rooms, 'bridge-secret', meetingId),
        group,
        host: to.ip,
        port: to.port,
        codec: o.codec ?? 'opus',
        ptype: o.payloadType,
        ssrc: o.ssrc,
      });
      if (typeof data.stream_id !== 'number') throw new Error('the audiobridge started no forwarder');
      return data.stream_id;
    },
    async stopForward(meetingId, streamId) {
      const { adminKey, rooms } = await loadKeys();
      try {
        await admins[placeMeeting(meetingId, names)]!.request({ request: 'stop_rtp_forward', admin_key: adminKey, room: meetingId, secret: derive(rooms, 'bridge-secret', meetingId), stream_id: streamId });
      } catch (err) {
        if (!(err instanceof VideoRoomError && err.code === NO_SUCH_ROOM)) throw err;
      }
    },
    joinPhone(meetingId, o) {
      const { group, free } = takeGroup(meetingId);
      return join(meetingId, { display: o.display, group, codec: o.codec, rtp: { ip: o.remote.ip, port: o.remote.port, payload_type: o.payloadType } }, free);
    },
    joinBrowser: (meetingId, o) => join(meetingId, { display: o.display, group: BROWSERS, codec: 'opus', rtp: { payload_type: o.payloadType } }),
    async participants(meetingId) {
      try {
        const data = await admins[placeMeeting(meetingId, names)]!.request({ request: 'listparticipants', room: meetingId });
        const list = Array.isArray(data.participants) ? (data.participants as { id?: unknown; display?: unknown; muted?: unknown }[]) : [];
        return list
          .filter((p): p is { id: number; display?: unknown; muted?: unknown } => typeof p.id === 'number')
          .map((p) => ({ id: p.id, display: typeof p.display === 'string' ? p.display : '', muted: p.muted === true }));
      } catch (err) {
        if (err instanceof VideoRoomError && err.code === NO_SUCH_ROOM) return [];
        throw err;
      }
    },
    async mute(meetingId, participantId, mute) {
      const { adminKey, rooms } = await loadKeys();
      await admins[placeMeeting(meetingId, names)]!.request({ request: mute ? 'mute' : 'unmute', admin_key: adminKey, room: meetingId, secret: derive(rooms, 'bridge-secret', meetingId), id: participantId });
    },
    async close() {
      closing = true;
      for (const s of [...open]) s.close();
      open.clear();
      await Promise.all(admins.map((a) => a.close()));
    },
  };
}

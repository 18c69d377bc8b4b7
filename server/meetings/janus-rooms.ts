import { createHmac } from 'node:crypto';
import { VideoRoomAdmin, VideoRoomError } from '../services/janus-client';
import { janusInstances, placeMeeting } from '../services/janus-instances';
import { janusRoomKeys } from './janus-keys';
import { loadOrCreateSecret, SECRET_NAMES, type ServicesConfig } from '../services/layout';

/** Janus videoroom error codes (janus_videoroom.c). */
const NO_SUCH_ROOM = 426;
const ROOM_EXISTS = 427;
const NO_SUCH_FEED = 428;

/** The participant named is not (or no longer) in the room. */
export class NoSuchFeed extends Error {}

/** Janus's per-room limit on publishers when the meeting sets none. */
const DEFAULT_PUBLISHERS = 16;

export interface MeetingRoom {
  /** The videoroom's id: the meeting's own. */
  room: number;
  /** What a participant gives to join; handed only to those the API let in. */
  pin: string;
  /** Which Janus holds it: an index into the configuration's instances (janusInstances); absent: the first. */
  instance?: number;
}

/** The videorooms of meetings, created and destroyed by the API server only (it alone holds the admin_key). */
export interface MeetingRooms {
  /** Creates the meeting's videoroom unless it exists (the first participant's join; again after Janus restarted). */
  ensure(meetingId: number, opts: { title: string; maxParticipants: number | null }): Promise<MeetingRoom>;
  /** Mutes or unmutes one of a participant's streams for everyone (Janus tells the room). */
  moderate(meetingId: number, feed: number, mid: string, mute: boolean): Promise<void>;
  /** Who is in the room now: Janus's participant ids and the `display` each gave. */
  participants(meetingId: number): Promise<{ id: number; display: string }[]>;
  /** Removes a participant from the room. */
  kick(meetingId: number, feed: number): Promise<void>;
  /** Destroys it (Janus tells everyone in it); a room that is not there is no error. */
  destroy(meetingId: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Each room's PIN and moderation secret derive from its id under a key of the runtime folder, so a
 * restarted API server or Janus finds the same ones without storing them: they are random to
 * everyone without the key, and one meeting's PIN says nothing about another's.
 *
 * In a cluster every request about a meeting goes to the one Janus placeMeeting gives it: a room
 * lives on one instance only (Janus shares no state between instances), so its participants must
 * all meet there, and the host's moderation must reach them there.
 */
export function janusMeetingRooms(services: Pick<ServicesConfig, 'runtimeDir' | 'ports' | 'cluster'>): MeetingRooms {
  const instances = janusInstances(services);
  const names = instances.map((i) => i.name);
  const admins = instances.map((i) => new VideoRoomAdmin(`ws://127.0.0.1:${i.ws}`));
  const placed = (meetingId: number) => placeMeeting(meetingId, names);
  const adminOf = (meetingId: number) => admins[placed(meetingId)]!;
  const loadKeys = janusRoomKeys(services.runtimeDir);
  /** A request on one participant: a room or feed that is not there means the participant is not. */
  const feedRequest = async (meetingId: number, body: Record<string, unknown>): Promise<void> => {
    try {
      await adminOf(meetingId).request(body);
    } catch (err) {
      if (err instanceof VideoRoomError && (err.code === NO_SUCH_FEED || err.code === NO_SUCH_ROOM)) throw new NoSuchFeed(err.message);
      throw err;
    }
  };
  const derive = (key: Buffer, purpose: string, id: number) => createHmac('sha256', key).update(`${purpose}:${id}`).digest('base64url').slice(0, 32);

  return {
    async ensure(meetingId, { title, maxParticipants }) {
      const { adminKey, rooms } = await loadKeys();
      const pin = derive(rooms, 'pin', meetingId);
      try {
        await adminOf(meetingId).request({
          request: 'create',
          admin_key: adminKey,
          room: meetingId,
          description: title.slice(0, 100),
          pin,
          secret: derive(rooms, 'secret', meetingId),
          is_private: true,
          publishers: maxParticipants ?? DEFAULT_PUBLISHERS,
          audiolevel_event: true,
          notify_joining: true,
        });
      } catch (err) {
        // Two first participants at once: the other one created it, with the same PIN.
        if (!(err instanceof VideoRoomError && err.code === ROOM_EXISTS)) throw err;
      }
      return { room: meetingId, pin, instance: placed(meetingId) };
    },
    async moderate(meetingId, feed, mid, mute) {
      const { rooms } = await loadKeys();
      await feedRequest(meetingId, { request: 'moderate', room: meetingId, secret: derive(rooms, 'secret', meetingId), id: feed, mid, mute });
    },
    async participants(meetingId) {
      try {
        const data = await adminOf(meetingId).request({ request: 'listparticipants', room: meetingId });
        const list = Array.isArray(data.participants) ? (data.participants as { id?: unknown; display?: unknown }[]) : [];
        return list.filter((p): p is { id: number; display?: unknown } => typeof p.id === 'number').map((p) => ({ id: p.id, display: typeof p.display === 'string' ? p.display : '' }));
      } catch (err) {
        if (err instanceof VideoRoomError && err.code === NO_SUCH_ROOM) return [];
        throw err;
      }
    },
    async kick(meetingId, feed) {
      const { rooms } = await loadKeys();
      await feedRequest(meetingId, { request: 'kick', room: meetingId, secret: derive(rooms, 'secret', meetingId), id: feed });
    },
    async destroy(meetingId) {
      const { rooms } = await loadKeys();
      try {
        await adminOf(meetingId).request({ request: 'destroy', room: meetingId, secret: derive(rooms, 'secret', meetingId) });
      } catch (err) {
        if (!(err instanceof VideoRoomError && err.code === NO_SUCH_ROOM)) throw err;
      }
    },
    close: async () => {
      await Promise.all(admins.map((a) => a.close()));
    },
  };
}

/**
 * The feed of a meeting's phones in its videoroom: a remote publisher (Janus's room cascading) that
 * Janus feeds from plain RTP on loopback, which the AudioBridge sends it (the phones' mix, Opus).
 * Browsers see it as one more publisher and subscribe to it like any other.
 */
export interface PhoneFeeds {
  /** Adds the feed; `port` is where Janus takes its RTP (SSRC REMOTE_FEED_SSRC, Opus). */
  add(meetingId: number, display: string): Promise<{ id: number; port: number }>;
  remove(meetingId: number, id: number): Promise<void>;
  /** The room's publishers now (those sending media). */
  publishers(meetingId: number): Promise<{ id: number; display: string }[]>;
  /**
   * Forwards a publisher's audio (Opus, payload type `payloadType`) to `to`; the forwarder's id,
   * or null when the publisher sends no audio (or is gone).
   */
  forwardAudio(meetingId: number, publisherId: number, to: { ip: string; port: number }, payloadType: number): Promise<number | null>;
  stopForward(meetingId: number, publisherId: number, streamId: number): Promise<void>;
  close(): Promise<void>;
}

/** A publisher's streams are numbered from 0 in its offer; a meeting page has audio, camera and maybe screen audio. */
const MIDS_TRIED = ['0', '1', '2', '3'];
/** Where the probe of a stream's kind sends its packets for the moment it lives: the discard port. */
const PROBE_PORT = 9;

/** The SSRC a remote publisher's first stream (mindex 0) must carry: Janus demultiplexes by it (janus_videoroom.c). */
export const REMOTE_FEED_SSRC = 1000;
/** Opus's payload type in the feed (what Janus offers subscribers for it). */
export const REMOTE_FEED_OPUS_PT = 111;

export function janusPhoneFeeds(services: Pick<ServicesConfig, 'runtimeDir' | 'ports' | 'cluster'>): PhoneFeeds {
  const instances = janusInstances(services);
  const names = instances.map((i) => i.name);
  const admins = instances.map((i) => new VideoRoomAdmin(`ws://127.0.0.1:${i.ws}`));
  const adminOf = (meetingId: number) => admins[placeMeeting(meetingId, names)]!;
  const secretOf = async (meetingId: number) => createHmac('sha256', await loadOrCreateSecret(services.runtimeDir, SECRET_NAMES.janusRooms)).update(`secret:${meetingId}`).digest('base64url').slice(0, 32);
  return {
    async add(meetingId, display) {
      const data = await adminOf(meetingId).request({
        request: 'add_remote_publisher',
        room: meetingId,
        secret: await secretOf(meetingId),
        display,
        iface: '127.0.0.1',
        streams: [{ type: 'audio', mindex: 0, mid: '0', codec: 'opus' }],
      });
      if (typeof data.id !== 'number' || typeof data.port !== 'number') throw new Error('Janus gave the phone feed no port');
      return { id: data.id, port: data.port };
    },
    async remove(meetingId, id) {
      try {
        await adminOf(meetingId).request({ request: 'remove_remote_publisher', room: meetingId, secret: await secretOf(meetingId), id });
      } catch (err) {
        if (!(err instanceof VideoRoomError && (err.code === NO_SUCH_ROOM || err.code === NO_SUCH_FEED))) throw err;
      }
    },
    async publishers(meetingId) {
      try {
        const data = await adminOf(meetingId).request({ request: 'listparticipants', room: meetingId });
        const list = Array.isArray(data.participants) ? (data.participants as { id?: unknown; display?: unknown; publisher?: unknown }[]) : [];
        return list.filter((p): p is { id: number; display?: unknown } => typeof p.id === 'number' && p.publisher === true).map((p) => ({ id: p.id, display: typeof p.display === 'string' ? p.display : '' }));
      } catch (err) {
        if (err instanceof VideoRoomError && err.code === NO_SUCH_ROOM) return [];
        throw err;
      }
    },
    async forwardAudio(meetingId, publisherId, to, payloadType) {
      const adminKey = (await loadOrCreateSecret(services.runtimeDir, SECRET_NAMES.janusRoomAdmin)).toString('base64url');
      const base = { request: 'rtp_forward', admin_key: adminKey, room: meetingId, secret: await secretOf(meetingId), publisher_id: publisherId, host: to.ip };
      const admin = adminOf(meetingId);
      const forwarders = (data: Record<string, unknown>) => (Array.isArray(data.forwarders) ? (data.forwarders as { stream_id?: unknown; type?: unknown }[]) : []);
      // Janus lists no publisher's streams to an outsider: a forwarder's answer says what a mid carries.
      for (const mid of MIDS_TRIED) {
        let probe: Record<string, unknown>;
        try {
          probe = await admin.request({ ...base, streams: [{ mid, port: PROBE_PORT }] });
        } catch (err) {
          if (err instanceof VideoRoomError && (err.code === NO_SUCH_ROOM || err.code === NO_SUCH_FEED)) return null;
          throw err;
        }
        const found = forwarders(probe)[0];
        if (!found) continue;
        if (typeof found.stream_id === 'number') await admin.request({ request: 'stop_rtp_forward', admin_key: adminKey, room: meetingId, secret: base.secret, publisher_id: publisherId, stream_id: found.stream_id });
        if (found.type !== 'audio') continue;
        const made = forwarders(await admin.request({ ...base, streams: [{ mid, port: to.port, pt: payloadType }] }))[0];
        return typeof made?.stream_id === 'number' ? made.stream_id : null;
      }
      return null;
    },
    async stopForward(meetingId, publisherId, streamId) {
      const adminKey = (await loadOrCreateSecret(services.runtimeDir, SECRET_NAMES.janusRoomAdmin)).toString('base64url');
      try {
        await adminOf(meetingId).request({ request: 'stop_rtp_forward', admin_key: adminKey, room: meetingId, secret: await secretOf(meetingId), publisher_id: publisherId, stream_id: streamId });
      } catch (err) {
        // The publisher left: its forwarders went with it.
        if (!(err instanceof VideoRoomError && (err.code === NO_SUCH_ROOM || err.code === NO_SUCH_FEED))) throw err;
      }
    },
    close: async () => {
      await Promise.all(admins.map((a) => a.close()));
    },
  };
}

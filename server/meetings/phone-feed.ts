import type { FastifyBaseLogger } from 'fastify';
import { displayFor } from '../../src/wire/meetingDisplay';
import type { MeetingBridges } from './audio-bridge';
import { REMOTE_FEED_OPUS_PT, REMOTE_FEED_SSRC, type MeetingRooms, type PhoneFeeds } from './janus-rooms';

/**
 * While a meeting has phones in its audio bridge, its videoroom has one feed more: the phones' mix
 * (the bridge's forwarder of group `phones` into a remote publisher), which the meeting page shows
 * as a phone tile. The first phone in adds it, the last one out removes it.
 */
export interface PhoneFeedKeeper {
  joined(meeting: { id: number; name: string; max_participants: number | null }, callerNumber: string): void;
  left(meetingId: number): void;
  close(): Promise<void>;
}

export function phoneFeedKeeper(o: { rooms: MeetingRooms; feeds: PhoneFeeds; bridges: MeetingBridges; log: FastifyBaseLogger }): PhoneFeedKeeper {
  const live = new Map<number, { phones: number; ready: Promise<{ feed: number; stream: number } | null> }>();

  async function open(meeting: { id: number; name: string; max_participants: number | null }, callerNumber: string) {
    try {
      await o.rooms.ensure(meeting.id, { title: meeting.name, maxParticipants: meeting.max_participants });
      const feed = await o.feeds.add(meeting.id, displayFor({ name: callerNumber, userId: null, kind: 'phone' }));
      const stream = await o.bridges.forwardPhones(meeting.id, { ip: '127.0.0.1', port: feed.port }, { ssrc: REMOTE_FEED_SSRC, payloadType: REMOTE_FEED_OPUS_PT });
      return { feed: feed.id, stream };
    } catch (err) {
      // The phone still hears the meeting and is heard by other phones; only the tile is missing.
      o.log.error({ err, meeting: meeting.id }, 'the phones of the meeting have no feed in its videoroom');
      return null;
    }
  }

  async function shut(meetingId: number, ready: Promise<{ feed: number; stream: number } | null>) {
    const made = await ready;
    if (!made) return;
    await o.bridges.stopForward(meetingId, made.stream).catch((err: unknown) => o.log.warn({ err }, 'phone forwarder not stopped'));
    await o.feeds.remove(meetingId, made.feed).catch((err: unknown) => o.log.warn({ err }, 'phone feed not removed'));
  }

  return {
    joined(meeting, callerNumber) {
      const entry = live.get(meeting.id);
      if (entry) entry.phones++;
      else live.set(meeting.id, { phones: 1, ready: open(meeting, callerNumber) });
    },
    left(meetingId) {
      const entry = live.get(meetingId);
      if (!entry || --entry.phones > 0) return;
      live.delete(meetingId);
      void shut(meetingId, entry.ready);
    },
    async close() {
      const all = [...live.entries()];
      live.clear();
      await Promise.all(all.map(([id, e]) => shut(id, e.ready)));
    },
  };
}

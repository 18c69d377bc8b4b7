import type { FastifyBaseLogger } from 'fastify';
import { displayFor, readDisplay } from '../../src/wire/meetingDisplay';
import type { MeetingBridges, PhoneLeg } from './audio-bridge';
import { REMOTE_FEED_OPUS_PT, REMOTE_FEED_SSRC, type MeetingRooms, type PhoneFeeds } from './janus-rooms';

/**
 * While a meeting has phones in its audio bridge, its videoroom and its bridge are joined both ways:
 * - the phones' mix (the bridge's forwarder of group `phones`) is one more feed of the videoroom, a
 *   remote publisher the meeting page shows as a phone tile;
 * - each browser's audio (the videoroom's forwarder of that publisher's audio stream) is a
 *   receive-only participant of the bridge in group `browsers`, so the phones hear the browsers.
 * The first phone in sets this up, the last one out takes it down. Publishers come and go without
 * telling the API, so the browsers are looked at again every SYNC_MS.
 */
export interface PhoneFeedKeeper {
  joined(meeting: { id: number; name: string; max_participants: number | null }, callerNumber: string): void;
  left(meetingId: number): void;
  close(): Promise<void>;
}

const SYNC_MS = 1000;

interface Browser {
  leg: PhoneLeg;
  stream: number;
}

interface Live {
  phones: number;
  ready: Promise<{ feed: number; stream: number } | null>;
  browsers: Map<number, Browser>;
  /** Publishers that send no audio (screen shares without sound): not asked again. */
  silent: Set<number>;
  timer: NodeJS.Timeout | null;
  syncing: boolean;
  closed: boolean;
}

export function phoneFeedKeeper(o: { rooms: MeetingRooms; feeds: PhoneFeeds; bridges: MeetingBridges; log: FastifyBaseLogger }): PhoneFeedKeeper {
  const live = new Map<number, Live>();

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

  /** Brings the bridge's browser participants in line with the videoroom's publishers. */
  async function sync(meetingId: number, entry: Live): Promise<void> {
    const made = await entry.ready;
    if (!made || entry.closed || entry.syncing) return;
    entry.syncing = true;
    try {
      const now = (await o.feeds.publishers(meetingId)).filter((p) => p.id !== made.feed && readDisplay(p.display).kind !== 'phone');
      const ids = new Set(now.map((p) => p.id));
      for (const [id, b] of entry.browsers) {
        if (ids.has(id)) continue;
        b.leg.leave();
        entry.browsers.delete(id);
      }
      for (const p of now) {
        if (entry.closed) return;
        if (entry.browsers.has(p.id) || entry.silent.has(p.id)) continue;
        const leg = await o.bridges.joinBrowser(meetingId, { display: p.display, payloadType: REMOTE_FEED_OPUS_PT });
        const stream = await o.feeds.forwardAudio(meetingId, p.id, leg.local, REMOTE_FEED_OPUS_PT).catch((err: unknown) => {
          leg.leave();
          throw err;
        });
        if (stream === null) {
          leg.leave();
          entry.silent.add(p.id);
        } else entry.browsers.set(p.id, { leg, stream });
      }
    } catch (err) {
      o.log.warn({ err, meeting: meetingId }, "browsers' audio not bridged to the phones (tried again shortly)");
    } finally {
      entry.syncing = false;
    }
  }

  async function shut(meetingId: number, entry: Live) {
    entry.closed = true;
    if (entry.timer) clearInterval(entry.timer);
    const made = await entry.ready;
    for (const [publisher, b] of entry.browsers) {
      b.leg.leave();
      await o.feeds.stopForward(meetingId, publisher, b.stream).catch((err: unknown) => o.log.warn({ err }, 'browser forwarder not stopped'));
    }
    entry.browsers.clear();
    if (!made) return;
    await o.bridges.stopForward(meetingId, made.stream).catch((err: unknown) => o.log.warn({ err }, 'phone forwarder not stopped'));
    await o.feeds.remove(meetingId, made.feed).catch((err: unknown) => o.log.warn({ err }, 'phone feed not removed'));
  }

  return {
    joined(meeting, callerNumber) {
      const existing = live.get(meeting.id);
      if (existing) {
        existing.phones++;
        return;
      }
      const entry: Live = { phones: 1, ready: open(meeting, callerNumber), browsers: new Map(), silent: new Set(), timer: null, syncing: false, closed: false };
      live.set(meeting.id, entry);
      void sync(meeting.id, entry);
      entry.timer = setInterval(() => void sync(meeting.id, entry), SYNC_MS);
      entry.timer.unref();
    },
    left(meetingId) {
      const entry = live.get(meetingId);
      if (!entry || --entry.phones > 0) return;
      live.delete(meetingId);
      void shut(meetingId, entry);
    },
    async close() {
      const all = [...live.entries()];
      live.clear();
      await Promise.all(all.map(([id, e]) => shut(id, e)));
    },
  };
}

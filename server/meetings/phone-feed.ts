import type { FastifyBaseLogger } from 'fastify';
import { displayFor, readDisplay } from '../../src/wire/meetingDisplay';
import type { MeetingBridges, PhoneLeg } from './audio-bridge';
import type { TalkMeter } from './phone-talking';
import { REMOTE_FEED_OPUS_PT, REMOTE_FEED_SSRC, type MeetingRooms, type PhoneFeeds } from './janus-rooms';

/**
 * While a meeting has phones in its audio bridge, its videoroom and its bridge are joined both ways:
 * - each phone's voice (the bridge's forwarder of that phone's own group) is one more feed of the
 *   videoroom, a remote publisher the meeting page shows as that phone's tile;
 * - each browser's audio (the videoroom's forwarder of that publisher's audio stream) is a
 *   receive-only participant of the bridge in group `browsers`, so the phones hear the browsers.
 * The first phone in sets up the browsers' side, the last one out takes it down. Publishers come
 * and go without telling the API, so the browsers are looked at again every SYNC_MS.
 */
export interface PhoneFeedKeeper {
  /** A phone is in the bridge (in `group`, its own unless there are more phones than groups): its tile appears. */
  joined(meeting: { id: number; name: string; max_participants: number | null }, phone: { key: string; number: string; group: string }): void;
  /** That phone left the bridge: its tile goes once no other phone shares its group. */
  left(meetingId: number, key: string): void;
  /** Whether the phone(s) of that group speak now (the API's meter of the group's voice, phone-talking.ts). */
  talking(meetingId: number, group: string): boolean;
  close(): Promise<void>;
}

const SYNC_MS = 1000;

interface Browser {
  leg: PhoneLeg;
  stream: number;
}

interface Metered {
  stream: number;
  talking(): boolean;
  stop(): void;
}

interface Group {
  phones: Set<string>;
  ready: Promise<{ feed: number; stream: number } | null>;
  /** The group's µ-law forwarder to the talking meter, once it runs. */
  metered: Promise<Metered | null>;
  meter: Metered | null;
}

interface Live {
  /** The videoroom exists (the phones' feeds and the browsers' forwarders need it). */
  room: Promise<boolean>;
  groups: Map<string, Group>;
  browsers: Map<number, Browser>;
  /** Publishers that send no audio (screen shares without sound): not asked again. */
  silent: Set<number>;
  timer: NodeJS.Timeout | null;
  syncing: boolean;
  closed: boolean;
}

export function phoneFeedKeeper(o: {
  rooms: MeetingRooms;
  feeds: PhoneFeeds;
  bridges: MeetingBridges;
  log: FastifyBaseLogger;
  /** Where each group's voice is measured, and who is told when a group starts or stops talking. */
  meter?: TalkMeter;
  talkingChanged?: (meetingId: number) => void;
}): PhoneFeedKeeper {
  const live = new Map<number, Live>();

  async function room(meeting: { id: number; name: string; max_participants: number | null }): Promise<boolean> {
    try {
      await o.rooms.ensure(meeting.id, { title: meeting.name, maxParticipants: meeting.max_participants });
      return true;
    } catch (err) {
      // The phones still hear each other; only the tiles and the browsers' side are missing.
      o.log.error({ err, meeting: meeting.id }, 'the phones of the meeting have no videoroom to show in');
      return false;
    }
  }

  async function openGroup(meetingId: number, entry: Live, group: string, callerNumber: string) {
    if (!(await entry.room)) return null;
    try {
      const feed = await o.feeds.add(meetingId, displayFor({ name: callerNumber, userId: null, kind: 'phone' }));
      const stream = await o.bridges.forwardGroup(meetingId, group, { ip: '127.0.0.1', port: feed.port }, { ssrc: REMOTE_FEED_SSRC, payloadType: REMOTE_FEED_OPUS_PT });
      return { feed: feed.id, stream };
    } catch (err) {
      o.log.error({ err, meeting: meetingId, group }, 'a phone of the meeting has no feed in its videoroom');
      return null;
    }
  }

  /** The group's voice to the talking meter too (without the videoroom: the phones' list shows it). */
  async function meterGroup(meetingId: number, group: string): Promise<Metered | null> {
    const meter = o.meter;
    if (!meter) return null;
    try {
      const to = await meter.address();
      const ssrc = meter.nextSsrc();
      const m = meter.meter(ssrc, () => o.talkingChanged?.(meetingId));
      try {
        const stream = await o.bridges.forwardGroup(meetingId, group, to, { ssrc, payloadType: 0, codec: 'pcmu' });
        return { stream, ...m };
      } catch (err) {
        m.stop();
        throw err;
      }
    } catch (err) {
      o.log.warn({ err, meeting: meetingId, group }, "a phone's talking is not measured (its tile shows no speaking)");
      return null;
    }
  }

  async function shutGroup(meetingId: number, g: Group) {
    const metered = await g.metered;
    if (metered) {
      metered.stop();
      await o.bridges.stopForward(meetingId, metered.stream).catch((err: unknown) => o.log.warn({ err }, 'phone talking forwarder not stopped'));
    }
    const made = await g.ready;
    if (!made) return;
    await o.bridges.stopForward(meetingId, made.stream).catch((err: unknown) => o.log.warn({ err }, 'phone forwarder not stopped'));
    await o.feeds.remove(meetingId, made.feed).catch((err: unknown) => o.log.warn({ err }, 'phone feed not removed'));
  }

  /** Brings the bridge's browser participants in line with the videoroom's publishers. */
  async function sync(meetingId: number, entry: Live): Promise<void> {
    if (!(await entry.room) || entry.closed || entry.syncing) return;
    entry.syncing = true;
    try {
      const now = (await o.feeds.publishers(meetingId)).filter((p) => readDisplay(p.display).kind !== 'phone');
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
    const groups = [...entry.groups.values()];
    entry.groups.clear();
    await Promise.all(groups.map((g) => shutGroup(meetingId, g)));
    for (const [publisher, b] of entry.browsers) {
      b.leg.leave();
      await o.feeds.stopForward(meetingId, publisher, b.stream).catch((err: unknown) => o.log.warn({ err }, 'browser forwarder not stopped'));
    }
    entry.browsers.clear();
  }

  return {
    joined(meeting, phone) {
      let entry = live.get(meeting.id);
      if (!entry) {
        const fresh: Live = { room: room(meeting), groups: new Map(), browsers: new Map(), silent: new Set(), timer: null, syncing: false, closed: false };
        live.set(meeting.id, fresh);
        void sync(meeting.id, fresh);
        fresh.timer = setInterval(() => void sync(meeting.id, fresh), SYNC_MS);
        fresh.timer.unref();
        entry = fresh;
      }
      const existing = entry.groups.get(phone.group);
      if (existing) existing.phones.add(phone.key);
      else {
        const g: Group = { phones: new Set([phone.key]), ready: openGroup(meeting.id, entry, phone.group, phone.number), metered: meterGroup(meeting.id, phone.group), meter: null };
        void g.metered.then((m) => (g.meter = m));
        entry.groups.set(phone.group, g);
      }
    },
    left(meetingId, key) {
      const entry = live.get(meetingId);
      if (!entry) return;
      for (const [name, g] of entry.groups) {
        if (!g.phones.delete(key) || g.phones.size > 0) continue;
        entry.groups.delete(name);
        void shutGroup(meetingId, g);
      }
      if (entry.groups.size > 0) return;
      live.delete(meetingId);
      void shut(meetingId, entry);
    },
    talking: (meetingId, group) => live.get(meetingId)?.groups.get(group)?.meter?.talking() ?? false,
    async close() {
      const all = [...live.entries()];
      live.clear();
      await Promise.all(all.map(([id, e]) => shut(id, e)));
    },
  };
}

import type { FastifyInstance } from 'fastify';
import { JOB_LOCKS, runAlone } from '../db/job-lock';
import type { Db } from '../db/types';
import { downloadFeed, FeedError, feedHttpUrl, feedSource, parseFeed, type FeedLimits } from './feeds';
import * as repo from './repository';

const DAY = 86_400_000;
/** What is kept of a feed: a month back (the list's "last week" and more) and a year ahead. */
const windowAt = (now: number) => ({ from: new Date(now - 31 * DAY), to: new Date(now + 366 * DAY) });

async function read(url: string, limits: FeedLimits, now: number) {
  const { from, to } = windowAt(now);
  return parseFeed(await downloadFeed(url, limits), from, to, limits.maxEvents);
}

/** Reads the feed first: an address that gives no calendar is refused, not kept. Null: already subscribed. */
export async function subscribeFeed(db: Db, userId: number, url: string, name: string, limits: FeedLimits, now: number): Promise<number | null> {
  const source = feedSource(feedHttpUrl(url));
  const parsed = await read(url, limits, now);
  return db.transaction(async (tx) => {
    const id = await repo.insertFeed(tx, userId, url, name, source);
    if (id !== null) await repo.storeFeedEvents(tx, id, parsed.events, parsed.name, new Date(now));
    return id;
  });
}

/** Reads a feed again; a failure keeps the events of the last good read and says why on the feed. */
export async function refreshFeed(db: Db, feedId: number, limits: FeedLimits, now: number): Promise<void> {
  const feed = await repo.feedById(db, feedId);
  if (!feed) return;
  try {
    const parsed = await read(feed.url, limits, now);
    await db.transaction((tx) => repo.storeFeedEvents(tx, feedId, parsed.events, parsed.name, new Date(now)));
  } catch (err) {
    await repo.feedFailed(db, feedId, err instanceof FeedError ? err.message : 'The calendar could not be read', new Date(now));
  }
}

/**
 * Every few minutes, the feeds not read for an interval are read again, a few at a time. Of several
 * API processes on one database only one reads at a time, and it picks the due feeds under the
 * lock: a feed read by one is no longer due for the next (each calendar is asked once per interval).
 */
export function startFeedRefresh(app: FastifyInstance, db: Db, limits: FeedLimits, intervalMs: number, now: () => number): void {
  let running = false;
  let closed = false;
  const tick = async () => {
    if (running || closed) return;
    running = true;
    try {
      await runAlone(db, JOB_LOCKS.feedRefresh, async () => {
        for (const id of await repo.dueFeeds(db, new Date(now() - intervalMs), 20)) {
          if (closed) break;
          await refreshFeed(db, id, limits, now());
        }
      });
    } catch (err) {
      app.log.warn({ err }, 'calendar feed refresh failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), Math.min(intervalMs, 5 * 60_000));
  timer.unref();
  app.addHook('onClose', async () => {
    closed = true;
    clearInterval(timer);
  });
}

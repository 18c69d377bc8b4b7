import type { FastifyInstance } from 'fastify';
import { IdParam } from '../../src/wire/common';
import { CALENDAR_FEEDS_MAX, CalendarFeedInput, type CalendarFeed } from '../../src/wire/meetings';
import type { RouteContext } from '../context';
import { ApiError, notFound, parseOrThrow } from '../errors';
import { FeedError } from './feeds';
import { refreshFeed, startFeedRefresh, subscribeFeed } from './feed-refresh';
import * as repo from './repository';
import type { MeetingsShared } from './routes';
import { parseMeetingInput } from './service';

const toWire = (f: repo.FeedRow): CalendarFeed => ({
  id: f.id,
  url: f.url,
  name: f.name,
  source: f.source,
  last_fetched_at: f.last_fetched_at === null ? null : new Date(f.last_fetched_at).toISOString(),
  last_error: f.last_error,
  event_count: f.event_count,
});

const STATUS: Record<FeedError['code'], number> = { feed_address: 400, feed_unreachable: 422, feed_invalid: 422 };
const asApiError = (err: unknown) => (err instanceof FeedError ? new ApiError(STATUS[err.code], err.code, err.message) : err);

/**
 * External calendars (the meetings list's `e` filter): `GET/POST /v1/calendar-feeds`,
 * `DELETE /v1/calendar-feeds/{id}`, `POST /v1/calendar-feeds/{id}/refresh`. A feed is its user's
 * alone. It is read when subscribed (an address that gives no calendar is refused) and again
 * every refresh interval.
 */
export function registerFeedRoutes(app: FastifyInstance, { db, requireViewer }: RouteContext, shared: MeetingsShared): void {
  const { feedLimits } = shared;
  if (shared.refreshIntervalMs > 0) startFeedRefresh(app, db, feedLimits, shared.refreshIntervalMs, shared.cfg.now);

  app.get('/v1/calendar-feeds', async (request) => {
    const viewer = await requireViewer(request);
    return { feeds: (await repo.feedsOf(db, viewer.userId)).map(toWire) };
  });

  app.post('/v1/calendar-feeds', async (request, reply) => {
    const viewer = await requireViewer(request);
    const input = parseMeetingInput(CalendarFeedInput, request.body, 'calendar feed');
    if ((await repo.countFeeds(db, viewer.userId)) >= CALENDAR_FEEDS_MAX) throw new ApiError(409, 'too_many_feeds', `At most ${CALENDAR_FEEDS_MAX} calendars can be added`);
    try {
      const id = await subscribeFeed(db, viewer.userId, input.url, input.name, feedLimits, shared.cfg.now());
      if (id === null) throw new ApiError(409, 'feed_exists', 'This calendar is already added');
      return reply.code(201).send(toWire((await repo.ownFeed(db, viewer.userId, id))!));
    } catch (err) {
      throw asApiError(err);
    }
  });

  app.post('/v1/calendar-feeds/:id/refresh', async (request) => {
    const viewer = await requireViewer(request);
    const { id } = parseOrThrow(IdParam, request.params, 'calendar feed id');
    if (!(await repo.ownFeed(db, viewer.userId, id))) throw notFound(`Calendar ${id} not found`);
    await refreshFeed(db, id, feedLimits, shared.cfg.now());
    return toWire((await repo.ownFeed(db, viewer.userId, id))!);
  });

  app.delete('/v1/calendar-feeds/:id', async (request, reply) => {
    const viewer = await requireViewer(request);
    const { id } = parseOrThrow(IdParam, request.params, 'calendar feed id');
    if (!(await repo.deleteOwnFeed(db, viewer.userId, id))) throw notFound(`Calendar ${id} not found`);
    return reply.code(204).send();
  });
}

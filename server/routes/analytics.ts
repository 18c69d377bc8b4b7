import type { FastifyInstance } from 'fastify';
import { AnalyticsEvent } from '../../src/wire/analytics';
import { parseOrThrow } from '../errors';
import type { RouteContext } from './context';

export function registerAnalyticsRoutes(app: FastifyInstance, { db, requireUserId }: RouteContext): void {
  app.post('/v1/analytics', async (request, reply) => {
    const userId = await requireUserId(request);
    const event = parseOrThrow(AnalyticsEvent, request.body, 'analytics event');
    await db.query('INSERT INTO analytics_events (user_id, action_type, session_id) VALUES ($1, $2, $3)', [
      userId,
      event.action_type,
      event.session_id,
    ]);
    reply.code(204);
  });
}

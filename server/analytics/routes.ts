import type { FastifyInstance } from 'fastify';
import { AnalyticsEvent } from '../../src/wire/analytics';
import type { RouteContext } from '../context';
import { parseOrThrow } from '../errors';
import { recordAnalyticsEvent } from './repository';

export function registerAnalyticsRoutes(app: FastifyInstance, { db, requireUserId }: RouteContext): void {
  app.post('/v1/analytics', async (request, reply) => {
    const userId = await requireUserId(request);
    const event = parseOrThrow(AnalyticsEvent, request.body, 'analytics event');
    await recordAnalyticsEvent(db, userId, event);
    reply.code(204);
  });
}

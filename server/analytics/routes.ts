import type { FastifyInstance } from 'fastify';
import { AnalyticsEvent, AnalyticsSummaryQuery, type AnalyticsSummary } from '../../src/wire/analytics';
import { ROLE } from '../../src/wire/roles';
import type { RouteContext } from '../context';
import { forbidden, parseOrThrow } from '../errors';
import { analyticsCounts, recordAnalyticsEvent } from './repository';

const DEFAULT_DAYS = 30;

export function registerAnalyticsRoutes(app: FastifyInstance, { db, requireViewer }: RouteContext): void {
  app.post('/v1/analytics', async (request, reply) => {
    const viewer = await requireViewer(request);
    const event = parseOrThrow(AnalyticsEvent, request.body, 'analytics event');
    await recordAnalyticsEvent(db, viewer, event);
    reply.code(204);
  });

  // The account owner's view of their own organisation's usage; nobody reads another's.
  app.get('/v1/analytics/summary', async (request): Promise<AnalyticsSummary> => {
    const viewer = await requireViewer(request);
    if (viewer.roleId !== ROLE.ACCOUNT_OWNER) throw forbidden('Only the account owner reads the usage counts');
    const { days = DEFAULT_DAYS } = parseOrThrow(AnalyticsSummaryQuery, request.query, 'summary query');
    return { days, counts: await analyticsCounts(db, viewer.organizationId, days) };
  });
}

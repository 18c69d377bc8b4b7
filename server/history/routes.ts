import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HistoryQueryV1, HistoryQueryV2, type HistoryPageWire } from '../../src/wire/history';
import { forbidden, parseOrThrow } from '../errors';
import { dayRange, parseCallTypes, parseSortBy, parseSortDirection } from './filters';
import { findHistory } from './repository';
import type { RouteContext } from '../context';
import { IdParam } from '../../src/wire/common';

/** `?call_type=a&call_type=b` arrives as an array; it means the same as `a,b`. */
function joinRepeatedCallType(query: unknown): unknown {
  const q = (query ?? {}) as Record<string, unknown>;
  return Array.isArray(q.call_type) ? { ...q, call_type: q.call_type.join(',') } : q;
}

export function registerHistoryRoutes(app: FastifyInstance, { db, requireUserId }: RouteContext): void {
  // Call history is personal: not even an account owner reads a colleague's.
  const requireSelf = async (request: FastifyRequest) => {
    const me = await requireUserId(request);
    const { id } = parseOrThrow(IdParam, request.params, 'user id');
    if (id !== me) throw forbidden("You are not authorized to read another user's call history");
    return me;
  };

  app.get('/v1/users/:id/call-history/primary', async (request): Promise<HistoryPageWire> => {
    const userId = await requireSelf(request);
    const q = parseOrThrow(HistoryQueryV1, request.query, 'history query');
    return findHistory(db, {
      userId,
      primaryOnly: true,
      direction: parseSortBy(q.sort_by),
      offset: q.offset,
      limit: q.limit,
      term: q.search_terms,
    });
  });

  app.get('/v2/users/:id/call-history', async (request): Promise<HistoryPageWire> => {
    const userId = await requireSelf(request);
    const q = parseOrThrow(HistoryQueryV2, joinRepeatedCallType(request.query), 'history query');
    return findHistory(db, {
      userId,
      primaryOnly: false,
      direction: parseSortDirection(q.sort),
      offset: q.offset,
      limit: q.limit,
      term: q.term,
      callTypes: parseCallTypes(q.call_type),
      ...dayRange(q.start_date, q.end_date, q.tz),
    });
  });
}

import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createViewerLoader } from '../../server/auth/viewer';
import type { Queryable } from '../../server/db/types';
import { ApiError } from '../../server/errors';

/** A database that knows one user and counts the queries it answers. */
function fakeDb(rows: Array<{ organization_id: number; role_id: number; username: string }>) {
  const queries: unknown[][] = [];
  const db = {
    query: async (_sql: string, params: unknown[] = []) => {
      queries.push(params);
      return { rows, rowCount: rows.length };
    },
  } as unknown as Queryable;
  return { db, queries };
}

describe('requireViewer', () => {
  it('loads the caller once per request, however many helpers ask', async () => {
    const { db, queries } = fakeDb([{ organization_id: 7, role_id: 3, username: 'alice' }]);
    let guarded = 0;
    const requireViewer = createViewerLoader(async () => (guarded++, 42), db);
    const request = {} as FastifyRequest;

    const [a, b] = await Promise.all([requireViewer(request), requireViewer(request)]);
    const c = await requireViewer(request);

    expect(a).toEqual({ userId: 42, organizationId: 7, roleId: 3, username: 'alice' });
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(queries).toEqual([[42]]);
    expect(guarded).toBe(1);

    // Another request is another caller: loaded afresh.
    await requireViewer({} as FastifyRequest);
    expect(queries).toHaveLength(2);
  });

  it('answers 401 when the user behind a live token is gone', async () => {
    const { db } = fakeDb([]);
    const requireViewer = createViewerLoader(async () => 42, db);
    const failure = await requireViewer({} as FastifyRequest).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).statusCode).toBe(401);
  });
});

import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/types';
import { unauthorized } from '../errors';
import type { RequireUserId } from './guard';

/** Who is calling: what most routes need to decide what the caller may see or change. */
export interface Viewer {
  userId: number;
  organizationId: number;
  roleId: number;
  username: string;
}

/**
 * `requireViewer(request)`: the authenticated caller's user row, read once per request however
 * many helpers ask for it (the promise is kept on the request, so a failure is also answered once).
 */
export function createViewerLoader(requireUserId: RequireUserId, db: Queryable) {
  const loaded = new WeakMap<FastifyRequest, Promise<Viewer>>();
  async function load(request: FastifyRequest): Promise<Viewer> {
    const userId = await requireUserId(request);
    const { rows } = await db.query<{ organization_id: number; role_id: number; username: string }>(
      'SELECT organization_id, role_id, username FROM users WHERE id = $1',
      [userId],
    );
    // Sessions go with their user, so this is a user deleted while its access token was in flight.
    if (!rows[0]) throw unauthorized('User no longer exists');
    return { userId, organizationId: rows[0].organization_id, roleId: rows[0].role_id, username: rows[0].username };
  }
  return function requireViewer(request: FastifyRequest): Promise<Viewer> {
    let viewer = loaded.get(request);
    if (!viewer) {
      viewer = load(request);
      loaded.set(request, viewer);
    }
    return viewer;
  };
}
export type RequireViewer = ReturnType<typeof createViewerLoader>;

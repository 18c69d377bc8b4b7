import type { FastifyInstance } from 'fastify';
import { canEditUsers } from '../../src/wire/roles';
import { AvailabilityRegionQuery, E911Query, type AvailabilityRegionList, type E911Address } from '../../src/wire/profileExtras';
import { forbidden, notFound, parseOrThrow } from '../errors';
import type { RouteContext } from '../context';
import { e911Of, organizationOf, regionIdOf, regionsOf } from './repository';

/**
 * `GET /v1/e911` and `GET /v1/availability_regions`: read-only parts of the profile panel, scoped to
 * the caller's organisation (the addresses and regions are provisioned by the platform, not the user).
 */
export function registerE911Routes(app: FastifyInstance, { db, requireViewer }: RouteContext): void {
  app.get('/v1/e911', async (request): Promise<E911Address> => {
    const viewer = await requireViewer(request);
    const { user_id: asked } = parseOrThrow(E911Query, request.query ?? {}, 'E911 query');
    const userId = asked ?? viewer.userId;
    if (userId !== viewer.userId) {
      // Another organisation's users are as if absent: their existence is not the caller's to learn.
      if ((await organizationOf(db, userId)) !== viewer.organizationId) throw notFound('No such user');
      if (!canEditUsers(viewer.roleId)) throw forbidden('Only account owners and administrators may see a colleague\'s emergency address');
    }
    const address = await e911Of(db, userId);
    if (!address) throw notFound('No emergency address on file');
    return address;
  });

  app.get('/v1/availability_regions', async (request): Promise<AvailabilityRegionList> => {
    const viewer = await requireViewer(request);
    const { status } = parseOrThrow(AvailabilityRegionQuery, request.query ?? {}, 'availability regions query');
    const [items, user_region_id] = await Promise.all([regionsOf(db, viewer.organizationId, status), regionIdOf(db, viewer.userId)]);
    return { items, user_region_id };
  });
}

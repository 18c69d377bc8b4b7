import type { FastifyInstance } from 'fastify';
import { ANNOUNCEMENT_IDS, AnnouncementIdParam, type MaintenanceStatus, type PendingAnnouncements } from '../../src/wire/frame';
import type { RouteContext } from '../context';
import { ApiError, parseOrThrow } from '../errors';
import { readMaintenance } from './maintenance';
import { confirmAnnouncement, confirmedAnnouncements } from './repository';

/** The frame's calls: the maintenance check and the feature announcements. */
export function registerFrameRoutes(app: FastifyInstance, { db, requireUserId, runtimeDir, clientBuild }: RouteContext): void {
  // Signed-in only: a 503 here is what sends a client to /logout.
  app.get('/v1/maintenance', async (request): Promise<MaintenanceStatus> => {
    await requireUserId(request);
    const state = await readMaintenance(runtimeDir);
    if (state) throw new ApiError(503, 'maintenance', state.message);
    return { maintenance: false, client_build: await clientBuild() };
  });

  app.get('/v1/announcements', async (request): Promise<PendingAnnouncements> => {
    const userId = await requireUserId(request);
    const confirmed = new Set(await confirmedAnnouncements(db, userId));
    return { pending: ANNOUNCEMENT_IDS.filter((id) => !confirmed.has(id)) };
  });

  app.post('/v1/announcements/:id/confirm', async (request, reply) => {
    const userId = await requireUserId(request);
    const { id } = parseOrThrow(AnnouncementIdParam, request.params, 'announcement', () => new ApiError(404, 'not_found', 'No such announcement'));
    await confirmAnnouncement(db, userId, id);
    reply.code(204);
  });
}

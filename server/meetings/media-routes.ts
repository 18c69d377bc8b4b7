import type { FastifyInstance } from 'fastify';
import { IdParam } from '../../src/wire/common';
import type { MeetingMedia } from '../../src/wire/meetings';
import type { RouteContext } from '../context';
import { ApiError, notFound, parseOrThrow } from '../errors';
import { turnIssuer } from '../turn/routes';
import type { MeetingRooms } from './janus-rooms';
import * as presence from './presence-repository';
import * as repo from './repository';
import type { MeetingsShared } from './routes';

/**
 * `POST /v1/meetings/{id}/media`: the way into the meeting's media for whoever came through the
 * lobby (`POST /v1/meetings/{id}/presence` checked the join window and the PIN): the videoroom,
 * created on the first such call, its PIN, and TURN credentials.
 */
export function registerMediaRoutes(app: FastifyInstance, ctx: RouteContext, { cfg }: MeetingsShared, rooms: MeetingRooms): void {
  const { db, requireViewer, settings } = ctx;
  const turn = turnIssuer(ctx);

  app.post('/v1/meetings/:id/media', async (request, reply): Promise<MeetingMedia> => {
    const viewer = await requireViewer(request);
    const { id } = parseOrThrow(IdParam, request.params, 'meeting id');
    const row = await repo.meetingInOrg(db, viewer.organizationId, id);
    if (!row) throw notFound(`Meeting ${id} not found`);
    if (!(await presence.holdsPlace(db, row.id, viewer.userId, new Date(cfg.now())))) throw new ApiError(403, 'not_in_lobby', 'Join the meeting through its lobby first');
    let room;
    try {
      room = await rooms.ensure(row.id, { title: row.name, maxParticipants: row.max_participants });
    } catch (err) {
      request.log.error({ err }, 'Janus videoroom not created');
      throw new ApiError(503, 'media_unavailable', 'The meeting media server is not available');
    }
    reply.header('cache-control', 'no-store');
    return { janus_url: settings.janusWsUrl, room: room.room, pin: room.pin, turn: await turn(viewer.userId) };
  });
}

import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import { IdParam } from '../../src/wire/common';
import { LOBBY_PRESENCE_TTL_MS, LobbyJoin, MEETING_ERRORS, type Lobby } from '../../src/wire/meetings';
import type { Viewer } from '../auth/viewer';
import type { RouteContext } from '../context';
import { ApiError, notFound, parseOrThrow } from '../errors';
import * as presence from './presence-repository';
import * as repo from './repository';
import type { MeetingsShared } from './routes';
import { checkPin, openOccurrence } from './service';

const ClientParam = z.object({ id: IdParam.shape.id, client: LobbyJoin.shape.client_id });

/**
 * The meeting window's lobby: `POST /v1/meetings/{id}/presence` takes (or, as the heartbeat, renews)
 * the window's place, `GET` lists who is in, `DELETE /v1/meetings/{id}/presence/{client}` leaves.
 * Any meeting or room of the caller's organisation, as the join popup allows, with the same checks:
 * the join window and the PIN (asked once: a renewal of a live place needs none). Another
 * organisation's ids answer 404.
 */
export function registerPresenceRoutes(app: FastifyInstance, { db, requireViewer }: RouteContext, { cfg }: MeetingsShared): void {
  async function meetingOf(viewer: Viewer, raw: unknown): Promise<repo.MeetingRow> {
    const { id } = parseOrThrow(IdParam, raw, 'meeting id');
    const row = await repo.meetingInOrg(db, viewer.organizationId, id);
    if (!row) throw notFound(`Meeting ${id} not found`);
    return row;
  }
  const lobbyOf = async (row: repo.MeetingRow, viewer: Viewer, at: Date): Promise<Lobby> => ({
    meeting_id: row.id,
    occupants: (await presence.occupants(db, row.id, at)).map((o) => ({ ...o, is_self: o.user_id === viewer.userId })),
  });

  app.post('/v1/meetings/:id/presence', async (request): Promise<Lobby> => {
    const viewer = await requireViewer(request);
    const row = await meetingOf(viewer, request.params);
    const input = parseOrThrow(LobbyJoin, request.body, 'lobby presence');
    const now = cfg.now();
    const at = new Date(now);
    const { end } = openOccurrence(row, now);
    if (!(await presence.holdsPlace(db, row.id, viewer.userId, at))) checkPin(row, await repo.inviteesOf(db, [row.id]), viewer, input.pin || null);
    // A place never outlives its occurrence: "in a meeting" ends with the meeting.
    const expires = end === null ? now + LOBBY_PRESENCE_TTL_MS : Math.min(now + LOBBY_PRESENCE_TTL_MS, end);
    await presence.holdPlace(db, row.id, viewer.userId, input.client_id, input.state, at, new Date(expires));
    return lobbyOf(row, viewer, at);
  });

  app.get('/v1/meetings/:id/presence', async (request): Promise<Lobby> => {
    const viewer = await requireViewer(request);
    const row = await meetingOf(viewer, request.params);
    const at = new Date(cfg.now());
    // Who is in a PIN-protected meeting is for those who came in.
    if (!(await presence.holdsPlace(db, row.id, viewer.userId, at))) throw new ApiError(403, 'not_in_lobby', MEETING_ERRORS.notInLobby);
    return lobbyOf(row, viewer, at);
  });

  app.delete('/v1/meetings/:id/presence/:client', async (request, reply) => {
    const viewer = await requireViewer(request);
    const { client } = parseOrThrow(ClientParam, request.params, 'lobby place');
    const row = await meetingOf(viewer, request.params);
    await presence.leavePlace(db, row.id, viewer.userId, client);
    return reply.code(204).send();
  });
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import { IdParam } from '../../src/wire/common';
import { LOBBY_PRESENCE_TTL_MS, LobbyJoin, MEETING_ERRORS, type Lobby } from '../../src/wire/meetings';
import type { RouteContext } from '../context';
import { ApiError, parseOrThrow } from '../errors';
import { meetingAccess, occupantId, type MeetingCaller } from './guest-access';
import * as guests from './guest-repository';
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
 * organisation's ids answer 404. A guest (guest-access.ts) has the lobby of its own meeting.
 */
export function registerPresenceRoutes(app: FastifyInstance, ctx: RouteContext, { cfg }: MeetingsShared): void {
  const { db } = ctx;
  const meetingFor = meetingAccess(ctx);
  async function meetingOf(request: FastifyRequest): Promise<{ caller: MeetingCaller; row: repo.MeetingRow }> {
    const { id } = parseOrThrow(IdParam, request.params, 'meeting id');
    return meetingFor(request, id);
  }
  const holds = (caller: MeetingCaller, row: repo.MeetingRow, at: Date) =>
    caller.kind === 'user' ? presence.holdsPlace(db, row.id, caller.viewer.userId, at) : guests.guestHoldsPlace(db, row.id, caller.guestId, at);
  const lobbyOf = async (row: repo.MeetingRow, caller: MeetingCaller, at: Date): Promise<Lobby> => {
    const self = occupantId(caller);
    const users = (await presence.occupants(db, row.id, at)).map((o) => ({ ...o, is_self: o.user_id === self }));
    const visitors = (await guests.guestOccupants(db, row.id, at)).map((g) => ({ user_id: -g.guest_id, name: g.name, state: null, is_self: -g.guest_id === self, is_guest: true }));
    return { meeting_id: row.id, occupants: [...users, ...visitors] };
  };

  app.post('/v1/meetings/:id/presence', async (request): Promise<Lobby> => {
    const { caller, row } = await meetingOf(request);
    const input = parseOrThrow(LobbyJoin, request.body, 'lobby presence');
    const now = cfg.now();
    const at = new Date(now);
    const { end } = openOccurrence(row, now);
    // A guest gave the PIN for the token.
    if (caller.kind === 'user' && !(await holds(caller, row, at))) checkPin(row, await repo.inviteesOf(db, [row.id]), caller.viewer, input.pin || null);
    // A place never outlives its occurrence: "in a meeting" ends with the meeting.
    const expires = new Date(end === null ? now + LOBBY_PRESENCE_TTL_MS : Math.min(now + LOBBY_PRESENCE_TTL_MS, end));
    if (caller.kind === 'user') await presence.holdPlace(db, row.id, caller.viewer.userId, input.client_id, input.state, at, expires);
    else await guests.holdGuestPlace(db, row.id, caller.guestId, input.client_id, at, expires);
    return lobbyOf(row, caller, at);
  });

  app.get('/v1/meetings/:id/presence', async (request): Promise<Lobby> => {
    const { caller, row } = await meetingOf(request);
    const at = new Date(cfg.now());
    // Who is in a PIN-protected meeting is for those who came in.
    if (!(await holds(caller, row, at))) throw new ApiError(403, 'not_in_lobby', MEETING_ERRORS.notInLobby);
    return lobbyOf(row, caller, at);
  });

  app.delete('/v1/meetings/:id/presence/:client', async (request, reply) => {
    const { client } = parseOrThrow(ClientParam, request.params, 'lobby place');
    const { caller, row } = await meetingOf(request);
    if (caller.kind === 'user') await presence.leavePlace(db, row.id, caller.viewer.userId, client);
    else await guests.leaveGuestPlace(db, row.id, caller.guestId, client);
    return reply.code(204).send();
  });
}

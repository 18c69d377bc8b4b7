import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IdParam } from '../../src/wire/common';
import { MEETING_ERRORS, ROOM_REFRESH_INTERVAL_MS, RoomInput, type Meeting, type RoomsResponse } from '../../src/wire/meetings';
import type { Viewer } from '../auth/viewer';
import type { RouteContext } from '../context';
import type { Queryable } from '../db/types';
import { ApiError, forbidden, notFound, parseOrThrow } from '../errors';
import { newAccessCode } from './model';
import * as repo from './repository';
import type { MeetingsShared } from './routes';
import { byMeeting, canBookRooms, parseMeetingInput, resolveInvitees, toWire } from './service';

/**
 * Rooms: `GET/POST /v1/rooms`, `GET/PUT/DELETE /v1/rooms/{id}`. Every colleague sees the
 * organisation's rooms; booking, changing and removing them is for administrators and, with web
 * meeting management, video administrators (the specification's rooms booking area).
 */
export function registerRoomRoutes(app: FastifyInstance, { db, requireViewer }: RouteContext, { cfg, destroyRoom }: MeetingsShared): void {
  async function room(q: Queryable, viewer: Viewer, id: number): Promise<repo.MeetingRow> {
    const row = await repo.meetingInOrg(q, viewer.organizationId, id);
    if (!row || row.meeting_type !== 'room') throw notFound(`Room ${id} not found`);
    return row;
  }

  async function booker(request: FastifyRequest): Promise<Viewer> {
    const viewer = await requireViewer(request);
    if (!(await canBookRooms(db, cfg, viewer))) throw forbidden(MEETING_ERRORS.roomsNotAllowed);
    return viewer;
  }

  function fieldsOf(input: ReturnType<typeof RoomInput.parse>): repo.MeetingFields {
    return {
      name: input.meeting_name,
      description: input.meeting_description,
      startsAt: null,
      durationMs: null,
      timeZone: 'UTC',
      occurs: null,
      dayInWeek: 0,
      recurrenceUntil: null,
      bookmarks: [...new Set(input.bookmarks)],
      pin: input.pin || null,
      password: input.password || null,
      waitingRoom: input.waiting_room,
      memberBypass: input.member_bypass,
      onlyMods: input.only_mods,
      isPrivate: false,
      maxParticipants: input.max_participants,
    };
  }

  const moderators = (viewer: Viewer, q: Queryable, ids: readonly number[]) =>
    resolveInvitees(q, viewer, ids.map((user_id) => ({ user_id, is_moderator: true })));

  app.get('/v1/rooms', async (request): Promise<RoomsResponse> => {
    const viewer = await requireViewer(request);
    const rows = await repo.roomsOf(db, viewer.organizationId);
    const invitees = byMeeting(await repo.inviteesOf(db, rows.map((r) => r.id)));
    const mayBookRooms = await canBookRooms(db, cfg, viewer);
    return { rooms: rows.map((r) => toWire(cfg, r, invitees.get(r.id) ?? [], viewer, { mayBookRooms })), refresh_interval_ms: ROOM_REFRESH_INTERVAL_MS };
  });

  app.get('/v1/rooms/:id', async (request): Promise<Meeting> => {
    const viewer = await requireViewer(request);
    const { id } = parseOrThrow(IdParam, request.params, 'room id');
    const row = await room(db, viewer, id);
    return toWire(cfg, row, await repo.inviteesOf(db, [id]), viewer, { mayBookRooms: await canBookRooms(db, cfg, viewer) });
  });

  app.post('/v1/rooms', async (request, reply) => {
    const viewer = await booker(request);
    const input = parseMeetingInput(RoomInput, request.body, 'room');
    const result = await db.transaction(async (tx) => {
      const mods = await moderators(viewer, tx, input.moderators);
      let id = 0;
      for (let attempt = 0; attempt < 5 && !id; attempt++) id = await repo.insertMeeting(tx, viewer.organizationId, viewer.userId, 'room', newAccessCode(), fieldsOf(input));
      if (!id) throw new ApiError(503, 'busy', 'No room ID was free; try again');
      await repo.replaceInvitees(tx, id, mods);
      return toWire(cfg, (await room(tx, viewer, id)), await repo.inviteesOf(tx, [id]), viewer, { mayBookRooms: true });
    });
    return reply.code(201).send(result);
  });

  app.put('/v1/rooms/:id', async (request): Promise<Meeting> => {
    const viewer = await booker(request);
    const { id } = parseOrThrow(IdParam, request.params, 'room id');
    const input = parseMeetingInput(RoomInput, request.body, 'room');
    return db.transaction(async (tx) => {
      await room(tx, viewer, id);
      await repo.updateMeeting(tx, id, fieldsOf(input));
      await repo.replaceInvitees(tx, id, await moderators(viewer, tx, input.moderators));
      return toWire(cfg, await room(tx, viewer, id), await repo.inviteesOf(tx, [id]), viewer, { mayBookRooms: true });
    });
  });

  app.delete('/v1/rooms/:id', async (request, reply) => {
    const viewer = await booker(request);
    const { id } = parseOrThrow(IdParam, request.params, 'room id');
    await db.transaction(async (tx) => {
      await room(tx, viewer, id);
      await repo.deleteMeeting(tx, id);
    });
    destroyRoom(request, id);
    return reply.code(204).send();
  });
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IdParam } from '../../src/wire/common';
import { AdmitInput, MeetingPhonesQuery, ModerateInput, PHONES_WAIT_MS, PhoneMuteInput, PhoneRemoveInput, RemoveInput, WAITING_FRESH_MS, type MeetingMedia, type MeetingPhones, type WaitingRoom } from '../../src/wire/meetings';
import { hostIsIn } from './admission-rules';
import * as admissions from './admissions-repository';
import type { RouteContext } from '../context';
import { ApiError, notFound, parseOrThrow } from '../errors';
import { turnIssuer } from '../turn/routes';
import { NoSuchFeed, type MeetingRooms } from './janus-rooms';
import * as presence from './presence-repository';
import { meetingAccess, occupantId } from './guest-access';
import * as guests from './guest-repository';
import * as repo from './repository';
import type { MeetingsShared } from './routes';

/**
 * `POST /v1/meetings/{id}/media`: the way into the meeting's media for whoever came through the
 * lobby (`POST /v1/meetings/{id}/presence` checked the join window and the PIN): the videoroom,
 * created on the first such call, its PIN, and TURN credentials. A guest of the meeting too.
 */
export function registerMediaRoutes(app: FastifyInstance, ctx: RouteContext, { cfg, hangUpPhones, phones, phoneChanges }: MeetingsShared, rooms: MeetingRooms): void {
  const { db, settings } = ctx;
  const meetingFor = meetingAccess(ctx);
  const turn = turnIssuer(ctx);

  /** The meeting and whether the caller hosts it; refused unless the caller came through its lobby. */
  const participant = async (request: FastifyRequest) => {
    const { id } = parseOrThrow(IdParam, request.params, 'meeting id');
    const { caller, row } = await meetingFor(request, id);
    const at = new Date(cfg.now());
    const inLobby = caller.kind === 'user' ? await presence.holdsPlace(db, row.id, caller.viewer.userId, at) : await guests.guestHoldsPlace(db, row.id, caller.guestId, at);
    if (!inLobby) throw new ApiError(403, 'not_in_lobby', 'Join the meeting through its lobby first');
    // A guest is never the host.
    const isHost = caller.kind === 'user' && (row.booked_by_id === caller.viewer.userId || (await repo.isModerator(db, row.id, caller.viewer.userId)));
    return { caller, row, isHost };
  };
  const host = async (request: FastifyRequest) => {
    const p = await participant(request);
    if (!p.isHost) throw new ApiError(403, 'not_host', "Only the meeting's host or a moderator may do this");
    return p;
  };
  /** Janus's answer on one participant, as the API's. */
  const onFeed = async (request: FastifyRequest, work: () => Promise<void>): Promise<void> => {
    try {
      await work();
    } catch (err) {
      if (err instanceof NoSuchFeed) throw notFound('That participant is not in the meeting');
      request.log.error({ err }, 'Janus moderation failed');
      throw new ApiError(503, 'media_unavailable', 'The meeting media server is not available');
    }
  };

  app.post('/v1/meetings/:id/media/moderate', async (request, reply) => {
    const { row } = await host(request);
    const body = parseOrThrow(ModerateInput, request.body, 'moderation');
    await onFeed(request, () => rooms.moderate(row.id, body.feed, body.mid, body.mute));
    return reply.code(204).send();
  });

  app.post('/v1/meetings/:id/media/remove', async (request, reply) => {
    const { row } = await host(request);
    const body = parseOrThrow(RemoveInput, request.body, 'participant');
    await onFeed(request, () => rooms.kick(row.id, body.feed));
    return reply.code(204).send();
  });

  /**
   * The phones dialled in, one by one (the page shows them all on one tile): anyone in the meeting
   * may list them, the host mutes, unmutes and removes them. Known to the process that answers the
   * phones (see routes.ts); elsewhere there are none to list and none to act on.
   */
  app.get('/v1/meetings/:id/media/phones', async (request, reply): Promise<MeetingPhones> => {
    const { row } = await participant(request);
    const { wait } = parseOrThrow(MeetingPhonesQuery, request.query, 'phones query');
    reply.header('cache-control', 'no-store');
    if (wait !== undefined) {
      // Until the list changes (or the page goes away): a phone's speaking shows as it starts.
      const gone = new AbortController();
      const stop = () => gone.abort();
      reply.raw.once('close', stop);
      try {
        await phoneChanges.after(row.id, wait, PHONES_WAIT_MS, gone.signal);
      } finally {
        reply.raw.off('close', stop);
      }
    }
    try {
      const state = phoneChanges.state(row.id);
      return { phones: phones ? await phones.phones(row.id) : [], state };
    } catch (err) {
      request.log.error({ err }, 'phones of the meeting not listed');
      throw new ApiError(503, 'media_unavailable', 'The meeting media server is not available');
    }
  });

  app.post('/v1/meetings/:id/media/phones/mute', async (request, reply) => {
    const { row } = await host(request);
    const body = parseOrThrow(PhoneMuteInput, request.body, 'phone');
    let found = false;
    await onFeed(request, async () => void (found = phones ? await phones.mute(row.id, body.phone, body.mute) : false));
    if (!found) throw notFound('That phone is not in the meeting');
    return reply.code(204).send();
  });

  app.post('/v1/meetings/:id/media/phones/remove', async (request, reply) => {
    const { row } = await host(request);
    const body = parseOrThrow(PhoneRemoveInput, request.body, 'phone');
    if (!phones?.remove(row.id, body.phone)) throw notFound('That phone is not in the meeting');
    return reply.code(204).send();
  });

  /** Ends the meeting for everyone: Janus tells each participant the room is gone. */
  app.delete('/v1/meetings/:id/media', async (request, reply) => {
    const { row } = await host(request);
    hangUpPhones(row.id);
    await onFeed(request, () => rooms.destroy(row.id));
    return reply.code(204).send();
  });

  /** The host's waiting room: who asked to come in lately. */
  app.get('/v1/meetings/:id/media/waiting', async (request, reply): Promise<WaitingRoom> => {
    const { row } = await host(request);
    reply.header('cache-control', 'no-store');
    return { waiting: await admissions.waiting(db, row.id, new Date(cfg.now() - WAITING_FRESH_MS)) };
  });

  app.post('/v1/meetings/:id/media/admit', async (request, reply) => {
    const { row } = await host(request);
    const body = parseOrThrow(AdmitInput, request.body, 'admission');
    if (!(await admissions.decide(db, row.id, body.occupant, body.admit, new Date(cfg.now())))) throw notFound('That person is not waiting');
    return reply.code(204).send();
  });

  app.post('/v1/meetings/:id/media', async (request, reply): Promise<MeetingMedia> => {
    const { caller, row, isHost } = await participant(request);
    if (!isHost) {
      // "Only moderators may start": nobody else comes into the media before a host is in it.
      if (row.only_mods && !(await hostIsIn(db, rooms, row.id))) throw new ApiError(403, 'waiting_for_host', 'The meeting starts when its host joins');
      // The waiting room: the host lets each in; with member bypass, colleagues come straight in.
      if (row.waiting_room && !(row.member_bypass && caller.kind === 'user')) {
        const occupant = occupantId(caller);
        const status = await admissions.admissionOf(db, row.id, occupant);
        if (status === 'denied') throw new ApiError(403, 'denied', 'The host did not let you in');
        if (status !== 'admitted') {
          const name = caller.kind === 'user' ? await admissions.userName(db, caller.viewer.userId) : caller.name;
          await admissions.wait(db, row.id, occupant, name, new Date(cfg.now()));
          throw new ApiError(403, 'waiting', 'Waiting for the host to let you in');
        }
      }
    }
    let room;
    try {
      room = await rooms.ensure(row.id, { title: row.name, maxParticipants: row.max_participants });
    } catch (err) {
      request.log.error({ err }, 'Janus videoroom not created');
      throw new ApiError(503, 'media_unavailable', 'The meeting media server is not available');
    }
    reply.header('cache-control', 'no-store');
    return { janus_url: settings.janusWsUrls[room.instance ?? 0] ?? settings.janusWsUrls[0]!, room: room.room, pin: room.pin, turn: await turn(caller.kind === 'user' ? caller.viewer.userId : `guest-${caller.guestId}`), is_host: isHost };
  });
}

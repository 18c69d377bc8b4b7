import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import { ChatRoomsResponse, CreateChatRoomRequest, ROOMS_CHANGED_SUBJECT, UpdateChatRoomRequest, type ChatRoom } from '../../src/wire/chatRooms';
import { ROLE } from '../../src/wire/profile';
import type { Viewer } from '../auth/viewer';
import type { Queryable } from '../db/types';
import { ApiError, forbidden, notFound, parseOrThrow } from '../errors';
import { mucHost } from '../services/layout';
import { xmppApi, XmppApiError } from '../services/xmpp-api';
import { ensureRoom } from '../services/xmpp-provision';
import { xmppJid } from '../services/xmpp-token';
import type { RouteContext } from '../context';
import * as repo from './repository';

const JidParam = z.object({ jid: z.string() });

/** Provisioning off (`UC_XMPP_PROVISIONING=off`, as in API tests without ejabberd): rows only. */
const ejabberdOff = () => process.env.UC_XMPP_PROVISIONING === 'off';

/**
 * Group chats: `GET/POST /v1/chat/rooms`, `PUT /v1/chat/rooms/{jid}`, `DELETE /v1/chat/rooms/{jid}/members/me`.
 * The database is the record; each change is made in ejabberd inside the same transaction (a room
 * ejabberd refused is not kept), then every client of every user concerned is told to re-read.
 */
export function registerChatRoomRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const { db, requireViewer, services } = ctx;
  const service = mucHost(services);

  async function me(request: FastifyRequest): Promise<Viewer> {
    const viewer = await requireViewer(request);
    if (viewer.roleId === ROLE.LIMITED_ACCESS) throw forbidden('Chat is not available for your role');
    return viewer;
  }

  async function roomsWire(q: Queryable, userId: number, roomId?: number): Promise<ChatRoom[]> {
    return (await repo.roomsOf(q, userId, roomId)).map((r) => ({
      jid: `${r.jid_local}@${service}`,
      subject: r.subject,
      members: r.members.map((m) => ({ user_id: m.user_id, jid: xmppJid(services, m.username), name: m.name, affiliation: 'owner' as const })),
      created_at: new Date(r.created_at).toISOString(),
    }));
  }

  /** The room of this JID if the caller belongs to it; 404 otherwise (another organisation's room looks absent). */
  async function roomFor(q: Queryable, caller: Viewer, jid: string): Promise<repo.RoomRow> {
    const [local, host] = jid.toLowerCase().split('@');
    if (!local || host !== service) throw notFound('No such group');
    const room = await repo.memberRoomForUpdate(q, local, caller.userId, caller.organizationId);
    if (!room) throw notFound('No such group');
    return room;
  }

  /** Colleagues one may put in a group: same organisation, chat allowed, not oneself. */
  async function checkMembers(q: Queryable, caller: Viewer, ids: readonly number[]): Promise<void> {
    const unique = [...new Set(ids)];
    if (unique.length !== ids.length) throw new ApiError(400, 'validation_failed', 'Invalid group', [{ path: 'member_ids', message: 'duplicate_member' }]);
    if (unique.includes(caller.userId)) throw new ApiError(400, 'validation_failed', 'Invalid group', [{ path: 'member_ids', message: 'self_member' }]);
    if ((await repo.countChatUsers(q, unique, caller.organizationId)) !== unique.length) throw new ApiError(400, 'validation_failed', 'Invalid group', [{ path: 'member_ids', message: 'not_a_colleague' }]);
  }

  /** Makes ejabberd match the room's rows (owners + MucSub subscriptions); a failure aborts the transaction. */
  async function sync(q: Queryable, room: { id: number; jid_local: string; subject: string }, request: FastifyRequest): Promise<void> {
    if (ejabberdOff()) return;
    try {
      await ensureRoom(services, { jidLocal: room.jid_local, subject: room.subject, members: await repo.memberUsernames(q, room.id) });
    } catch (err) {
      if (err instanceof XmppApiError) {
        request.log.error({ err }, 'ejabberd refused the group change');
        throw new ApiError(502, 'xmpp_provisioning_failed', 'Chat server refused to change the group');
      }
      request.log.warn({ err }, 'ejabberd not reachable');
      throw new ApiError(503, 'xmpp_unavailable', 'Chat server is not reachable');
    }
  }

  /** Every client of these users re-reads its groups (best effort: a client also re-reads at each connect). */
  async function tell(jids: readonly string[], roomJid: string, request: FastifyRequest): Promise<void> {
    if (ejabberdOff()) return;
    const api = xmppApi(services);
    await Promise.all(
      [...new Set(jids)].map((to) =>
        api
          .call('send_message', { type: 'headline', from: services.domain, to, subject: ROOMS_CHANGED_SUBJECT, body: JSON.stringify({ room: roomJid }) })
          .catch((err: unknown) => request.log.warn({ err }, 'could not tell a client about a group change')),
      ),
    );
  }

  app.get('/v1/chat/rooms', async (request): Promise<ChatRoomsResponse> => {
    const caller = await me(request);
    return { rooms: await roomsWire(db, caller.userId) };
  });

  app.post('/v1/chat/rooms', async (request, reply): Promise<ChatRoom> => {
    const caller = await me(request);
    const body = parseOrThrow(CreateChatRoomRequest, request.body, 'group');
    const room = await db.transaction(async (tx) => {
      await checkMembers(tx, caller, body.member_ids);
      const jidLocal = `g-${randomBytes(6).toString('hex')}`;
      const id = await repo.createRoom(tx, caller.organizationId, body.subject, jidLocal, [caller.userId, ...body.member_ids]);
      await sync(tx, { id, jid_local: jidLocal, subject: body.subject }, request);
      return (await roomsWire(tx, caller.userId, id))[0]!;
    });
    await tell(room.members.map((m) => m.jid), room.jid, request);
    reply.code(201);
    return room;
  });

  app.put('/v1/chat/rooms/:jid', async (request): Promise<ChatRoom> => {
    const caller = await me(request);
    const { jid } = parseOrThrow(JidParam, request.params, 'group');
    const body = parseOrThrow(UpdateChatRoomRequest, request.body, 'group');
    let before: string[] = [];
    const room = await db.transaction(async (tx) => {
      const r = await roomFor(tx, caller, jid);
      before = await repo.memberUsernames(tx, r.id);
      if (body.subject !== undefined) {
        await repo.setSubject(tx, r.id, body.subject);
        r.subject = body.subject;
      }
      if (body.member_ids) {
        await checkMembers(tx, caller, body.member_ids);
        await repo.setMembers(tx, r.id, [caller.userId, ...body.member_ids]);
      }
      await sync(tx, r, request);
      if (body.subject !== undefined && !ejabberdOff()) {
        await xmppApi(services).call('change_room_option', { name: r.jid_local, service, option: 'title', value: body.subject }).catch(() => undefined);
      }
      return (await roomsWire(tx, caller.userId, r.id))[0]!;
    });
    await tell([...before.map((u) => xmppJid(services, u)), ...room.members.map((m) => m.jid)], room.jid, request);
    return room;
  });

  // Leaving: the caller's affiliation becomes none. The last one out deletes the group.
  app.delete('/v1/chat/rooms/:jid/members/me', async (request, reply) => {
    const caller = await me(request);
    let before: string[] = [];
    const roomJid = parseOrThrow(JidParam, request.params, 'group').jid.toLowerCase();
    await db.transaction(async (tx) => {
      const r = await roomFor(tx, caller, roomJid);
      before = await repo.memberUsernames(tx, r.id);
      await repo.removeMember(tx, r.id, caller.userId);
      const left = await repo.memberUsernames(tx, r.id);
      if (left.length === 0) {
        await repo.deleteRoom(tx, r.id);
        if (!ejabberdOff()) await xmppApi(services).call('destroy_room', { name: r.jid_local, service }).catch((err: unknown) => request.log.warn({ err }, 'could not destroy the room'));
      } else await sync(tx, r, request);
      if (!ejabberdOff()) {
        await xmppApi(services)
          .call('unsubscribe_room', { user: xmppJid(services, caller.username), room: roomJid })
          .catch(() => undefined);
      }
    });
    await tell(before.map((u) => xmppJid(services, u)), roomJid, request);
    reply.code(204);
  });
}

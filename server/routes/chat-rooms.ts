import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ChatRoomsResponse, CreateChatRoomRequest, ROOMS_CHANGED_SUBJECT, UpdateChatRoomRequest, type ChatRoom } from '../../src/wire/chatRooms';
import { ROLE } from '../../src/wire/profile';
import type { Viewer } from '../auth/viewer';
import type { Queryable } from '../db/types';
import { ApiError, forbidden, notFound, parseOrThrow } from '../errors';
import { mucHost } from '../services/layout';
import { xmppApi, XmppApiError } from '../services/xmpp-api';
import { ensureRoom } from '../services/xmpp-provision';
import { xmppJid } from '../services/xmpp-token';
import type { RouteContext } from './context';

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

  async function roomsOf(q: Queryable, userId: number, roomId?: number): Promise<ChatRoom[]> {
    const { rows } = await q.query<{ id: number; jid_local: string; subject: string; created_at: Date | string; members: Array<{ user_id: number; username: string; name: string }> }>(
      `SELECT r.id, r.jid_local, r.subject, r.created_at,
              json_agg(json_build_object('user_id', u.id, 'username', u.username,
                       'name', coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username))
                       ORDER BY lower(u.first_name || ' ' || u.last_name), u.id) AS members
         FROM chat_rooms r
         JOIN chat_room_members mine ON mine.room_id = r.id AND mine.user_id = $1
         JOIN chat_room_members m ON m.room_id = r.id
         JOIN users u ON u.id = m.user_id AND u.role_id <> $2
        WHERE ($3::int IS NULL OR r.id = $3)
        GROUP BY r.id ORDER BY r.id`,
      [userId, ROLE.LIMITED_ACCESS, roomId ?? null],
    );
    return rows.map((r) => ({
      jid: `${r.jid_local}@${service}`,
      subject: r.subject,
      members: r.members.map((m) => ({ user_id: m.user_id, jid: xmppJid(services, m.username), name: m.name, affiliation: 'owner' as const })),
      created_at: new Date(r.created_at).toISOString(),
    }));
  }

  /** The room of this JID if the caller belongs to it; 404 otherwise (another organisation's room looks absent). */
  async function roomFor(q: Queryable, caller: Viewer, jid: string): Promise<{ id: number; jid_local: string; subject: string }> {
    const [local, host] = jid.toLowerCase().split('@');
    if (!local || host !== service) throw notFound('No such group');
    const { rows } = await q.query<{ id: number; jid_local: string; subject: string }>(
      `SELECT r.id, r.jid_local, r.subject FROM chat_rooms r JOIN chat_room_members m ON m.room_id = r.id AND m.user_id = $2
        WHERE r.jid_local = $1 AND r.organization_id = $3 FOR UPDATE OF r`,
      [local, caller.userId, caller.organizationId],
    );
    if (!rows[0]) throw notFound('No such group');
    return rows[0];
  }

  /** Colleagues one may put in a group: same organisation, chat allowed, not oneself. */
  async function checkMembers(q: Queryable, caller: Viewer, ids: readonly number[]): Promise<void> {
    const unique = [...new Set(ids)];
    if (unique.length !== ids.length) throw new ApiError(400, 'validation_failed', 'Invalid group', [{ path: 'member_ids', message: 'duplicate_member' }]);
    if (unique.includes(caller.userId)) throw new ApiError(400, 'validation_failed', 'Invalid group', [{ path: 'member_ids', message: 'self_member' }]);
    const { rows } = await q.query<{ id: number }>('SELECT id FROM users WHERE id = ANY($1::int[]) AND organization_id = $2 AND role_id <> $3', [
      unique,
      caller.organizationId,
      ROLE.LIMITED_ACCESS,
    ]);
    if (rows.length !== unique.length) throw new ApiError(400, 'validation_failed', 'Invalid group', [{ path: 'member_ids', message: 'not_a_colleague' }]);
  }

  async function usernames(q: Queryable, roomId: number): Promise<string[]> {
    const { rows } = await q.query<{ username: string }>(
      'SELECT u.username FROM chat_room_members m JOIN users u ON u.id = m.user_id WHERE m.room_id = $1 AND u.role_id <> $2 ORDER BY u.id',
      [roomId, ROLE.LIMITED_ACCESS],
    );
    return rows.map((r) => r.username);
  }

  /** Makes ejabberd match the room's rows (owners + MucSub subscriptions); a failure aborts the transaction. */
  async function sync(q: Queryable, room: { id: number; jid_local: string; subject: string }, request: FastifyRequest): Promise<void> {
    if (ejabberdOff()) return;
    try {
      await ensureRoom(services, { jidLocal: room.jid_local, subject: room.subject, members: await usernames(q, room.id) });
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
    return { rooms: await roomsOf(db, caller.userId) };
  });

  app.post('/v1/chat/rooms', async (request, reply): Promise<ChatRoom> => {
    const caller = await me(request);
    const body = parseOrThrow(CreateChatRoomRequest, request.body, 'group');
    const room = await db.transaction(async (tx) => {
      await checkMembers(tx, caller, body.member_ids);
      const jidLocal = `g-${randomBytes(6).toString('hex')}`;
      const { rows } = await tx.query<{ id: number }>('INSERT INTO chat_rooms (organization_id, subject, jid_local) VALUES ($1, $2, $3) RETURNING id', [
        caller.organizationId,
        body.subject,
        jidLocal,
      ]);
      const id = rows[0]!.id;
      await tx.query('INSERT INTO chat_room_members (room_id, user_id) SELECT $1, unnest($2::int[])', [id, [caller.userId, ...body.member_ids]]);
      await sync(tx, { id, jid_local: jidLocal, subject: body.subject }, request);
      return (await roomsOf(tx, caller.userId, id))[0]!;
    });
    await tell(room.members.map((m) => m.jid), room.jid, request);
    reply.code(201);
    return room;
  });

  app.put<{ Params: { jid: string } }>('/v1/chat/rooms/:jid', async (request): Promise<ChatRoom> => {
    const caller = await me(request);
    const body = parseOrThrow(UpdateChatRoomRequest, request.body, 'group');
    let before: string[] = [];
    const room = await db.transaction(async (tx) => {
      const r = await roomFor(tx, caller, request.params.jid);
      before = await usernames(tx, r.id);
      if (body.subject !== undefined) {
        await tx.query('UPDATE chat_rooms SET subject = $2 WHERE id = $1', [r.id, body.subject]);
        r.subject = body.subject;
      }
      if (body.member_ids) {
        await checkMembers(tx, caller, body.member_ids);
        const keep = [caller.userId, ...body.member_ids];
        await tx.query('DELETE FROM chat_room_members WHERE room_id = $1 AND NOT (user_id = ANY($2::int[]))', [r.id, keep]);
        await tx.query('INSERT INTO chat_room_members (room_id, user_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING', [r.id, keep]);
      }
      await sync(tx, r, request);
      if (body.subject !== undefined && !ejabberdOff()) {
        await xmppApi(services).call('change_room_option', { name: r.jid_local, service, option: 'title', value: body.subject }).catch(() => undefined);
      }
      return (await roomsOf(tx, caller.userId, r.id))[0]!;
    });
    await tell([...before.map((u) => xmppJid(services, u)), ...room.members.map((m) => m.jid)], room.jid, request);
    return room;
  });

  // Leaving: the caller's affiliation becomes none. The last one out deletes the group.
  app.delete<{ Params: { jid: string } }>('/v1/chat/rooms/:jid/members/me', async (request, reply) => {
    const caller = await me(request);
    let before: string[] = [];
    const roomJid = request.params.jid.toLowerCase();
    await db.transaction(async (tx) => {
      const r = await roomFor(tx, caller, roomJid);
      before = await usernames(tx, r.id);
      await tx.query('DELETE FROM chat_room_members WHERE room_id = $1 AND user_id = $2', [r.id, caller.userId]);
      const left = await usernames(tx, r.id);
      if (left.length === 0) {
        await tx.query('DELETE FROM chat_rooms WHERE id = $1', [r.id]);
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

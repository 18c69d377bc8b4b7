import * as z from 'zod/mini';
import { DbId } from './common';

/** Group chats (MUC rooms with MucSub) as the API keeps them: who belongs, and the subject. */

export const ROOM_SUBJECT_MAX = 200;
/** Members besides the creator; a room is a group of colleagues, not a mailing list. */
export const ROOM_MEMBERS_MAX = 50;

/** Everyone in a group is an owner ("group members added get owner affiliation; removed get none"). */
export const ChatRoomMember = z.object({
  user_id: z.int(),
  jid: z.string(),
  name: z.string(),
  affiliation: z.enum(['owner', 'admin', 'member', 'outcast', 'none']),
});
export type ChatRoomMember = z.infer<typeof ChatRoomMember>;

export const ChatRoom = z.object({
  /** Bare JID of the room (`<local>@conference.<domain>`): the chat session's id. */
  jid: z.string(),
  subject: z.string(),
  /** Every member, the caller included. */
  members: z.array(ChatRoomMember),
  created_at: z.string(),
});
export type ChatRoom = z.infer<typeof ChatRoom>;

/** `GET /v1/chat/rooms`: the caller's groups. */
export const ChatRoomsResponse = z.object({ rooms: z.array(ChatRoom) });
export type ChatRoomsResponse = z.infer<typeof ChatRoomsResponse>;

const subject = z.string().check(z.trim(), z.minLength(1, 'subject_required'), z.maxLength(ROOM_SUBJECT_MAX, 'subject_too_long'));
const memberIds = z.array(DbId).check(z.minLength(1, 'members_required'), z.maxLength(ROOM_MEMBERS_MAX, 'too_many_members'));

/** `POST /v1/chat/rooms`: a new group of the caller and these colleagues (user ids, oneself not among them). */
export const CreateChatRoomRequest = z.object({ subject, member_ids: memberIds });
export type CreateChatRoomRequest = z.infer<typeof CreateChatRoomRequest>;

/** `PUT /v1/chat/rooms/{jid}`: a member renames the group or changes who else belongs (the caller stays). */
export const UpdateChatRoomRequest = z.object({ subject: z.optional(subject), member_ids: z.optional(memberIds) });
export type UpdateChatRoomRequest = z.infer<typeof UpdateChatRoomRequest>;

/**
 * A headline the API sends (from the chat domain) to every client of each user whose groups changed,
 * so they re-read `GET /v1/chat/rooms`: ejabberd itself tells a MucSub subscriber nothing when
 * their affiliation becomes none or the room is destroyed.
 */
export const ROOMS_CHANGED_SUBJECT = 'urn:uc:rooms:0';

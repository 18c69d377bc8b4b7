import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/types';
import type { MessagingDid, TextConversation, TextMedia, TextMessage } from '../../src/wire/texts';
import { conversationJid, conversationKind } from './addresses';

interface ConversationRow {
  id: number;
  jid: string;
  kind: 'sms' | 'group_sms';
  did: string;
  members: string[];
  read_at: Date | string | null;
}

interface MessageRow {
  message_id: string;
  direction: 'in' | 'out';
  sender: string;
  body: string;
  media: TextMedia[] | string;
  status: TextMessage['status'];
  sent_at: Date | string;
}

const iso = (v: Date | string) => new Date(v).toISOString();

export function toMessage(r: MessageRow): TextMessage {
  return {
    id: r.message_id,
    direction: r.direction,
    from: r.sender,
    body: r.body,
    media: typeof r.media === 'string' ? (JSON.parse(r.media) as TextMedia[]) : r.media,
    status: r.status,
    sent_at: iso(r.sent_at),
  };
}

function toConversation(r: ConversationRow, unread: number, last: TextMessage | null): TextConversation {
  return { jid: r.jid, kind: r.kind, did: r.did, members: r.members, unread, read_at: r.read_at ? iso(r.read_at) : null, last };
}

/** Message ids as the clients make them (ucc-V1-…), for texts that did not come from a client. */
export const serverMessageId = () => `ucc-V1-${Date.now().toString(36)}-${randomBytes(5).toString('hex')}`;

export async function didsOf(db: Queryable, userId: number): Promise<MessagingDid[]> {
  const { rows } = await db.query<MessagingDid>('SELECT number, label, mms_enabled FROM messaging_dids WHERE user_id = $1 ORDER BY id', [userId]);
  return rows;
}

export async function bannedOf(db: Queryable, organizationId: number): Promise<string[]> {
  const { rows } = await db.query<{ number: string }>('SELECT number FROM text_banned_numbers WHERE organization_id = $1 ORDER BY number', [organizationId]);
  return rows.map((r) => r.number);
}

/** The organisation's carrier account, made (with a fresh secret) the first time it is asked for. */
export async function carrierAccount(db: Queryable, organizationId: number): Promise<{ carrier: string; secret: string }> {
  await db.query(`INSERT INTO text_carrier_accounts (organization_id, secret) VALUES ($1, $2) ON CONFLICT (organization_id) DO NOTHING`, [
    organizationId,
    randomBytes(24).toString('base64url'),
  ]);
  const { rows } = await db.query<{ carrier: string; secret: string }>('SELECT carrier, secret FROM text_carrier_accounts WHERE organization_id = $1', [organizationId]);
  return rows[0]!;
}

export async function organizationBySecret(db: Queryable, secret: string): Promise<number | null> {
  const { rows } = await db.query<{ organization_id: number }>('SELECT organization_id FROM text_carrier_accounts WHERE secret = $1', [secret]);
  return rows[0]?.organization_id ?? null;
}

/** The user's conversation with these members from this number, made when it is the first text. */
export async function ensureConversation(db: Queryable, domain: string, userId: number, did: string, members: readonly string[], at: Date): Promise<ConversationRow> {
  const sorted = [...new Set(members)].sort();
  const jid = conversationJid(domain, did, sorted);
  const { rows } = await db.query<ConversationRow>(
    `INSERT INTO text_conversations (user_id, jid, kind, did, members, last_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (user_id, jid) DO UPDATE SET last_at = GREATEST(text_conversations.last_at, EXCLUDED.last_at)
     RETURNING id, jid, kind, did, members, read_at`,
    [userId, jid, conversationKind(sorted), did, sorted, at],
  );
  return rows[0]!;
}

/** Stores a text once per conversation (a repeated id returns the stored one). */
export async function addMessage(db: Queryable, conversationId: number, m: TextMessage): Promise<TextMessage> {
  await db.query(
    `INSERT INTO text_messages (conversation_id, message_id, direction, sender, body, media, status, sent_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (conversation_id, message_id) DO NOTHING`,
    [conversationId, m.id, m.direction, m.from, m.body, JSON.stringify(m.media), m.status, m.sent_at],
  );
  const { rows } = await db.query<MessageRow>(
    'SELECT message_id, direction, sender, body, media, status, sent_at FROM text_messages WHERE conversation_id = $1 AND message_id = $2',
    [conversationId, m.id],
  );
  return toMessage(rows[0]!);
}

export async function conversationWire(db: Queryable, userId: number, jid: string): Promise<TextConversation | null> {
  const list = await listConversations(db, userId, jid);
  return list[0] ?? null;
}

/** The user's conversations, newest first, each with its last text and unread count. */
export async function listConversations(db: Queryable, userId: number, onlyJid?: string): Promise<TextConversation[]> {
  const { rows } = await db.query<ConversationRow & MessageRow & { unread: number | string; has_last: boolean }>(
    `SELECT c.id, c.jid, c.kind, c.did, c.members, c.read_at,
            (SELECT count(*) FROM text_messages u WHERE u.conversation_id = c.id AND u.direction = 'in' AND (c.read_at IS NULL OR u.sent_at > c.read_at)) AS unread,
            m.message_id IS NOT NULL AS has_last, m.message_id, m.direction, m.sender, m.body, m.media, m.status, m.sent_at
       FROM text_conversations c
       LEFT JOIN LATERAL (SELECT * FROM text_messages x WHERE x.conversation_id = c.id ORDER BY x.sent_at DESC, x.id DESC LIMIT 1) m ON true
      WHERE c.user_id = $1 AND ($2::text IS NULL OR c.jid = $2)
      ORDER BY c.last_at DESC, c.id DESC
      LIMIT 500`,
    [userId, onlyJid ?? null],
  );
  return rows.map((r) => toConversation(r, Number(r.unread), r.has_last ? toMessage(r) : null));
}

export async function conversationRow(db: Queryable, userId: number, jid: string): Promise<ConversationRow | null> {
  const { rows } = await db.query<ConversationRow>('SELECT id, jid, kind, did, members, read_at FROM text_conversations WHERE user_id = $1 AND jid = $2', [userId, jid]);
  return rows[0] ?? null;
}

/** A page of texts older than `before` (a message id), oldest first. */
export async function messagesPage(db: Queryable, conversationId: number, before: string | null, limit: number): Promise<{ messages: TextMessage[]; complete: boolean }> {
  const { rows } = await db.query<MessageRow & { id: string }>(
    `SELECT id, message_id, direction, sender, body, media, status, sent_at FROM text_messages
      WHERE conversation_id = $1 AND ($2::text IS NULL OR id < (SELECT id FROM text_messages WHERE conversation_id = $1 AND message_id = $2))
      ORDER BY id DESC LIMIT $3`,
    [conversationId, before, limit + 1],
  );
  const complete = rows.length <= limit;
  return { messages: rows.slice(0, limit).reverse().map(toMessage), complete };
}

export async function setRead(db: Queryable, userId: number, jid: string, at: Date): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE text_conversations SET read_at = GREATEST(coalesce(read_at, $3), $3) WHERE user_id = $1 AND jid = $2 RETURNING id`,
    [userId, jid, at],
  );
  return rows.length > 0;
}

export interface StoredAttachment {
  id: string;
  user_id: number;
  file_name: string;
  ext: string;
  content_type: string;
  size: number;
  bytes?: Buffer | Uint8Array;
}

export async function addAttachment(db: Queryable, a: Omit<StoredAttachment, 'id'> & { bytes: Buffer }): Promise<StoredAttachment> {
  const id = randomBytes(16).toString('base64url');
  await db.query(`INSERT INTO text_attachments (id, user_id, file_name, ext, content_type, size, bytes) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
    id,
    a.user_id,
    a.file_name,
    a.ext,
    a.content_type,
    a.size,
    a.bytes,
  ]);
  return { id, user_id: a.user_id, file_name: a.file_name, ext: a.ext, content_type: a.content_type, size: a.size };
}

export async function attachmentsOf(db: Queryable, userId: number, ids: readonly string[], withBytes = false): Promise<StoredAttachment[]> {
  if (!ids.length) return [];
  const { rows } = await db.query<StoredAttachment>(
    `SELECT id, user_id, file_name, ext, content_type, size${withBytes ? ', bytes' : ''} FROM text_attachments WHERE user_id = $1 AND id = ANY($2::text[])`,
    [userId, [...ids]],
  );
  return ids.map((id) => rows.find((r) => r.id === id)).filter((r): r is StoredAttachment => !!r);
}

/** The users who own any of these numbers (of one organisation, or of any when null), with the number they own. */
export async function numberOwners(db: Queryable, numbers: readonly string[], organizationId: number | null): Promise<Array<{ user_id: number; username: string; number: string; mms_enabled: boolean }>> {
  const { rows } = await db.query<{ user_id: number; username: string; number: string; mms_enabled: boolean }>(
    `SELECT d.user_id, u.username, d.number, d.mms_enabled FROM messaging_dids d JOIN users u ON u.id = d.user_id
      WHERE d.number = ANY($1::text[]) AND ($2::int IS NULL OR d.organization_id = $2) ORDER BY d.id`,
    [[...numbers], organizationId],
  );
  return rows;
}

/** Which of these numbers are messaging numbers of the organisation. */
export async function organizationNumbers(db: Queryable, organizationId: number, numbers: readonly string[]): Promise<Array<{ number: string; mms_enabled: boolean }>> {
  const { rows } = await db.query<{ number: string; mms_enabled: boolean }>('SELECT number, mms_enabled FROM messaging_dids WHERE organization_id = $1 AND number = ANY($2::text[])', [
    organizationId,
    numbers,
  ]);
  return rows;
}

/** Records a carrier's message id; false when it was seen before (a provider's retry). */
export async function firstSeenInbound(db: Queryable, organizationId: number, carrierId: string): Promise<boolean> {
  const { rows } = await db.query('INSERT INTO text_inbound_seen (organization_id, carrier_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING carrier_id', [organizationId, carrierId]);
  return rows.length > 0;
}

export interface LoopbackMessageRow {
  carrier_id: string;
  from_number: string;
  to_numbers: string[];
  body: string;
  media: unknown;
  created_at: Date | string;
}

/** What the loopback carrier sent for the organisation, newest first. */
export async function loopbackMessages(db: Queryable, organizationId: number, f: { to?: string; from?: string; limit: number }): Promise<LoopbackMessageRow[]> {
  const { rows } = await db.query<LoopbackMessageRow>(
    `SELECT carrier_id, from_number, to_numbers, body, media, created_at FROM loopback_carrier_messages
      WHERE organization_id = $1 AND ($2::text IS NULL OR $2 = ANY(to_numbers)) AND ($3::text IS NULL OR from_number = $3)
      ORDER BY id DESC LIMIT $4`,
    [organizationId, f.to ?? null, f.from ?? null, f.limit],
  );
  return rows;
}

/** The organisation's webhook secret, or null when it has no carrier account. */
export async function webhookSecret(db: Queryable, organizationId: number): Promise<string | null> {
  const { rows } = await db.query<{ secret: string }>('SELECT secret FROM text_carrier_accounts WHERE organization_id = $1', [organizationId]);
  return rows[0]?.secret ?? null;
}

/** Voicemail as stored: a user's mailbox, messages and their audio; only the owner's rows are ever touched. */
import type { VoiceMessageV1 } from '../../src/wire/voicemail';
import type { Queryable } from '../db/types';

export interface VoicemailRow {
  id: number;
  mailbox: string;
  caller_number: string;
  caller_name: string | null;
  received_at: Date | string;
  duration: number;
  status: 'UNREAD' | 'READ';
  transcript_state: VoiceMessageV1['vm_text_state'];
  transcript: string | null;
}

const COLUMNS = 'v.id, v.mailbox, v.caller_number, v.caller_name, v.received_at, v.duration, v.status, v.transcript_state, v.transcript';

/** The user's mailbox (their extension), or null when they have none. */
export async function mailboxOf(db: Queryable, userId: number): Promise<string | null> {
  const { rows } = await db.query<{ extension: string | null }>('SELECT extension FROM users WHERE id = $1', [userId]);
  return rows[0]?.extension || null;
}

export async function listFor(db: Queryable, userId: number): Promise<VoicemailRow[]> {
  const { rows } = await db.query<VoicemailRow>(`SELECT ${COLUMNS} FROM voicemails v WHERE v.user_id = $1 ORDER BY v.received_at DESC, v.id DESC`, [userId]);
  return rows;
}

/** The caller's own message, or null: another user's id looks exactly like one that does not exist. */
export async function ownMessage(db: Queryable, userId: number, id: number): Promise<VoicemailRow | null> {
  const { rows } = await db.query<VoicemailRow>(`SELECT ${COLUMNS} FROM voicemails v WHERE v.id = $1 AND v.user_id = $2`, [id, userId]);
  return rows[0] ?? null;
}

export async function setStatus(db: Queryable, userId: number, id: number, status: 'UNREAD' | 'READ'): Promise<VoicemailRow | null> {
  const { rows } = await db.query<VoicemailRow>(
    `UPDATE voicemails v SET status = $3 WHERE v.id = $1 AND v.user_id = $2 RETURNING ${COLUMNS}`,
    [id, userId, status],
  );
  return rows[0] ?? null;
}

/** Deletes those of `ids` that are the user's; the ids deleted. */
export async function deleteOwn(db: Queryable, userId: number, ids: readonly number[]): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>('DELETE FROM voicemails WHERE user_id = $1 AND id = ANY($2::int[]) RETURNING id', [userId, ids]);
  return rows.map((r) => r.id);
}

export interface VoicemailAudio {
  bytes: Buffer;
  contentType: string;
  callerNumber: string;
  receivedAt: Date;
}

export async function audioOf(db: Queryable, userId: number, id: number): Promise<VoicemailAudio | null> {
  const { rows } = await db.query<{ bytes: Uint8Array; content_type: string; caller_number: string; received_at: Date | string }>(
    `SELECT b.bytes, b.content_type, v.caller_number, v.received_at FROM voicemails v JOIN media_blobs b ON b.id = v.media_id
     WHERE v.id = $1 AND v.user_id = $2`,
    [id, userId],
  );
  const r = rows[0];
  return r ? { bytes: Buffer.from(r.bytes), contentType: r.content_type, callerNumber: r.caller_number, receivedAt: new Date(r.received_at) } : null;
}

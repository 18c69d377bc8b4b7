import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  TranscriptionV2,
  VoiceMessagesDeleteRequest,
  VoiceMessageStatusRequest,
  type VoiceMessageV1,
  type VoiceMessagesV1,
  type VoicemailsV2,
  type VoicemailV2,
  voicemailFileName,
} from '../../src/wire/voicemail';

export { voicemailFileName };
import type { Db } from '../db/types';
import { forbidden, notFound, parseOrThrow } from '../errors';
import { sendMedia } from '../media/send';
import type { RouteContext } from './context';
import { IdParam } from '../../src/wire/common';

interface VoicemailRow {
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
const iso = (d: Date | string) => new Date(d).toISOString();

function toV1(r: VoicemailRow): VoiceMessageV1 {
  return {
    vm_id: r.id,
    vmb_id: Number(r.mailbox) || 0,
    status: r.status,
    caller_number: r.caller_number,
    caller_name: r.caller_name,
    duration: r.duration,
    vm_timestamp: iso(r.received_at),
    vm_text: r.transcript_state === 'Succeeded' ? (r.transcript ?? '') : null,
    vm_text_state: r.transcript_state,
  };
}

/** The v2 list leaves the text out: a client shows it when asked, from `…/transcription`. */
function toV2(r: VoicemailRow, withText: boolean): VoicemailV2 {
  return {
    msg_id: String(r.id),
    caller_id_name: r.caller_name,
    caller_id_number: r.caller_number,
    origtime: Math.floor(new Date(r.received_at).getTime() / 1000),
    mailbox: r.mailbox,
    status: r.status === 'UNREAD' ? 'Unread' : 'Read',
    duration: r.duration,
    transcription: { state: r.transcript_state, text: withText && r.transcript_state === 'Succeeded' ? (r.transcript ?? '') : null },
  };
}


async function mailboxOf(db: Db, userId: number): Promise<string> {
  const { rows } = await db.query<{ extension: string | null }>('SELECT extension FROM users WHERE id = $1', [userId]);
  if (!rows[0]?.extension) throw notFound('No voicemail box is configured for this user');
  return rows[0].extension;
}

async function listFor(db: Db, userId: number): Promise<VoicemailRow[]> {
  const { rows } = await db.query<VoicemailRow>(`SELECT ${COLUMNS} FROM voicemails v WHERE v.user_id = $1 ORDER BY v.received_at DESC, v.id DESC`, [userId]);
  return rows;
}

/** The caller's own message, or 404: another user's id looks exactly like one that does not exist. */
async function ownMessage(db: Db, userId: number, id: number): Promise<VoicemailRow> {
  const { rows } = await db.query<VoicemailRow>(`SELECT ${COLUMNS} FROM voicemails v WHERE v.id = $1 AND v.user_id = $2`, [id, userId]);
  if (!rows[0]) throw notFound(`Voicemail ${id} not found`);
  return rows[0];
}

async function setStatus(db: Db, userId: number, id: number, status: 'UNREAD' | 'READ'): Promise<VoicemailRow> {
  const { rows } = await db.query<VoicemailRow>(
    `UPDATE voicemails v SET status = $3 WHERE v.id = $1 AND v.user_id = $2 RETURNING ${COLUMNS}`,
    [id, userId, status],
  );
  if (!rows[0]) throw notFound(`Voicemail ${id} not found`);
  return rows[0];
}

async function deleteOwn(db: Db, userId: number, ids: readonly number[]): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>('DELETE FROM voicemails WHERE user_id = $1 AND id = ANY($2::int[]) RETURNING id', [userId, ids]);
  return rows.map((r) => r.id);
}

async function audioOf(db: Db, userId: number, id: number) {
  const { rows } = await db.query<{ bytes: Uint8Array; content_type: string; caller_number: string; received_at: Date | string }>(
    `SELECT b.bytes, b.content_type, v.caller_number, v.received_at FROM voicemails v JOIN media_blobs b ON b.id = v.media_id
     WHERE v.id = $1 AND v.user_id = $2`,
    [id, userId],
  );
  if (!rows[0]) throw notFound(`Voicemail ${id} not found`);
  const r = rows[0];
  return { bytes: Buffer.from(r.bytes), contentType: r.content_type, callerNumber: r.caller_number, receivedAt: new Date(r.received_at) };
}

/**
 * Voicemail, both API generations (v1 under /v1/voice-messages, v2 under /v2/user/{id}/voicemails
 * and /v2/voicemail/{id}; the client's voicemail2 feature flag picks one). Only the mailbox's owner reaches a
 * message: a colleague's id answers 404 as if it did not exist, another user's list 403.
 */
export function registerVoicemailRoutes(app: FastifyInstance, { db, requireUserId }: RouteContext): void {
  // v2 message ids are strings on the wire, but the same positive integers as v1's.
  const withId = async (request: FastifyRequest) => {
    const userId = await requireUserId(request);
    const { id } = parseOrThrow(IdParam, request.params, 'voicemail id');
    return { userId, id };
  };

  // ---- first generation ------------------------------------------------------------------------
  app.get('/v1/voice-messages', async (request): Promise<VoiceMessagesV1> => {
    const userId = await requireUserId(request);
    await mailboxOf(db, userId);
    // primary_extension=1 (the only mailbox a user has here) is accepted and changes nothing.
    return { items: (await listFor(db, userId)).map(toV1) };
  });

  app.put('/v1/voice-messages/:id/status', async (request): Promise<VoiceMessageV1> => {
    const { userId, id } = await withId(request);
    const { status } = parseOrThrow(VoiceMessageStatusRequest, request.body, 'voicemail status');
    return toV1(await setStatus(db, userId, id, status));
  });

  app.delete('/v1/voice-messages/:id', async (request, reply) => {
    const { userId, id } = await withId(request);
    if (!(await deleteOwn(db, userId, [id])).length) throw notFound(`Voicemail ${id} not found`);
    return reply.code(204).send();
  });

  // Bulk delete: every id must be the caller's, or nothing is deleted.
  app.delete('/v1/voice-messages', async (request, reply) => {
    const userId = await requireUserId(request);
    const { messages } = parseOrThrow(VoiceMessagesDeleteRequest, request.body, 'voicemail delete request');
    const ids = [...new Set(messages)];
    await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: number }>('DELETE FROM voicemails WHERE user_id = $1 AND id = ANY($2::int[]) RETURNING id', [userId, ids]);
      if (rows.length !== ids.length) {
        const found = new Set(rows.map((r) => r.id));
        throw notFound(`Voicemail ${ids.find((i) => !found.has(i))} not found`);
      }
    });
    return reply.code(204).send();
  });

  app.get('/v1/voice-messages/:id/media', async (request, reply) => {
    const { userId, id } = await withId(request);
    const a = await audioOf(db, userId, id);
    return sendMedia(request, reply, { bytes: a.bytes, contentType: a.contentType });
  });

  // ---- second generation -----------------------------------------------------------------------
  app.get('/v2/user/:id/voicemails', async (request): Promise<VoicemailsV2> => {
    const me = await requireUserId(request);
    const { id } = parseOrThrow(IdParam, request.params, 'user id');
    if (id !== me) throw forbidden("You are not authorized to read another user's voicemail");
    await mailboxOf(db, me);
    return { voicemails: (await listFor(db, me)).map((r) => toV2(r, false)) };
  });

  app.get('/v2/voicemail/:id', async (request): Promise<VoicemailV2> => {
    const { userId, id } = await withId(request);
    return toV2(await ownMessage(db, userId, id), true);
  });

  app.delete('/v2/voicemail/:id', async (request, reply) => {
    const { userId, id } = await withId(request);
    if (!(await deleteOwn(db, userId, [id])).length) throw notFound(`Voicemail ${id} not found`);
    return reply.code(204).send();
  });

  app.post('/v2/voicemail/:id/new', async (request): Promise<VoicemailV2> => {
    const { userId, id } = await withId(request);
    return toV2(await setStatus(db, userId, id, 'UNREAD'), false);
  });

  app.post('/v2/voicemail/:id/old', async (request): Promise<VoicemailV2> => {
    const { userId, id } = await withId(request);
    return toV2(await setStatus(db, userId, id, 'READ'), false);
  });

  app.get('/v2/voicemail/:id/transcription', async (request): Promise<TranscriptionV2> => {
    const { userId, id } = await withId(request);
    const r = await ownMessage(db, userId, id);
    return toV2(r, true).transcription;
  });

  app.get('/v2/voicemail/:id/download', async (request, reply) => {
    const { userId, id } = await withId(request);
    const a = await audioOf(db, userId, id);
    return sendMedia(request, reply, { bytes: a.bytes, contentType: a.contentType, downloadName: voicemailFileName(a.receivedAt, a.callerNumber) });
  });
}

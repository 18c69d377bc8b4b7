import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IdParam } from '../../src/wire/common';
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

import type { Queryable } from '../db/types';
import { forbidden, notFound, parseOrThrow } from '../errors';
import { sendMedia } from '../media/send';
import type { RouteContext } from '../context';
import * as repo from './repository';
import type { VoicemailRow } from './repository';

export { voicemailFileName };

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


function throwMissing(id: number): never {
  throw notFound(`Voicemail ${id} not found`);
}

async function requireMailbox(db: Queryable, userId: number): Promise<string> {
  const mailbox = await repo.mailboxOf(db, userId);
  if (!mailbox) throw notFound('No voicemail box is configured for this user');
  return mailbox;
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
    await requireMailbox(db, userId);
    // primary_extension=1 (the only mailbox a user has here) is accepted and changes nothing.
    return { items: (await repo.listFor(db, userId)).map(toV1) };
  });

  app.put('/v1/voice-messages/:id/status', async (request): Promise<VoiceMessageV1> => {
    const { userId, id } = await withId(request);
    const { status } = parseOrThrow(VoiceMessageStatusRequest, request.body, 'voicemail status');
    return toV1((await repo.setStatus(db, userId, id, status)) ?? throwMissing(id));
  });

  app.delete('/v1/voice-messages/:id', async (request, reply) => {
    const { userId, id } = await withId(request);
    if (!(await repo.deleteOwn(db, userId, [id])).length) throw notFound(`Voicemail ${id} not found`);
    return reply.code(204).send();
  });

  // Bulk delete: every id must be the caller's, or nothing is deleted.
  app.delete('/v1/voice-messages', async (request, reply) => {
    const userId = await requireUserId(request);
    const { messages } = parseOrThrow(VoiceMessagesDeleteRequest, request.body, 'voicemail delete request');
    const ids = [...new Set(messages)];
    await db.transaction(async (tx) => {
      const deleted = await repo.deleteOwn(tx, userId, ids);
      if (deleted.length !== ids.length) {
        const found = new Set(deleted);
        throw notFound(`Voicemail ${ids.find((i) => !found.has(i))} not found`);
      }
    });
    return reply.code(204).send();
  });

  app.get('/v1/voice-messages/:id/media', async (request, reply) => {
    const { userId, id } = await withId(request);
    const a = (await repo.audioOf(db, userId, id)) ?? throwMissing(id);
    return sendMedia(request, reply, { bytes: a.bytes, contentType: a.contentType });
  });

  // ---- second generation -----------------------------------------------------------------------
  app.get('/v2/user/:id/voicemails', async (request): Promise<VoicemailsV2> => {
    const me = await requireUserId(request);
    const { id } = parseOrThrow(IdParam, request.params, 'user id');
    if (id !== me) throw forbidden("You are not authorized to read another user's voicemail");
    await requireMailbox(db, me);
    return { voicemails: (await repo.listFor(db, me)).map((r) => toV2(r, false)) };
  });

  app.get('/v2/voicemail/:id', async (request): Promise<VoicemailV2> => {
    const { userId, id } = await withId(request);
    return toV2((await repo.ownMessage(db, userId, id)) ?? throwMissing(id), true);
  });

  app.delete('/v2/voicemail/:id', async (request, reply) => {
    const { userId, id } = await withId(request);
    if (!(await repo.deleteOwn(db, userId, [id])).length) throw notFound(`Voicemail ${id} not found`);
    return reply.code(204).send();
  });

  app.post('/v2/voicemail/:id/new', async (request): Promise<VoicemailV2> => {
    const { userId, id } = await withId(request);
    return toV2((await repo.setStatus(db, userId, id, 'UNREAD')) ?? throwMissing(id), false);
  });

  app.post('/v2/voicemail/:id/old', async (request): Promise<VoicemailV2> => {
    const { userId, id } = await withId(request);
    return toV2((await repo.setStatus(db, userId, id, 'READ')) ?? throwMissing(id), false);
  });

  app.get('/v2/voicemail/:id/transcription', async (request): Promise<TranscriptionV2> => {
    const { userId, id } = await withId(request);
    const r = (await repo.ownMessage(db, userId, id)) ?? throwMissing(id);
    return toV2(r, true).transcription;
  });

  app.get('/v2/voicemail/:id/download', async (request, reply) => {
    const { userId, id } = await withId(request);
    const a = (await repo.audioOf(db, userId, id)) ?? throwMissing(id);
    return sendMedia(request, reply, { bytes: a.bytes, contentType: a.contentType, downloadName: voicemailFileName(a.receivedAt, a.callerNumber) });
  });
}

import * as z from 'zod/mini';
import { DbId } from './common';

/** A transcript's states; both voicemail API generations use these four. */
export const TRANSCRIPT_STATES = ['None', 'In Progress', 'Failed', 'Succeeded'] as const;
export const TranscriptState = z.enum(TRANSCRIPT_STATES);
export type TranscriptState = z.infer<typeof TranscriptState>;

export const VoicemailStatusV1 = z.enum(['UNREAD', 'READ']);

/** First generation: one message of `GET /v1/voice-messages?primary_extension=1`. `vm_timestamp` is UTC ISO 8601. */
export const VoiceMessageV1 = z.object({
  vm_id: z.int(),
  vmb_id: z.int(),
  status: VoicemailStatusV1,
  caller_number: z.string(),
  caller_name: z.nullable(z.string()),
  duration: z.int().check(z.gte(0)),
  vm_timestamp: z.string(),
  vm_text: z.nullable(z.string()),
  vm_text_state: TranscriptState,
});
export type VoiceMessageV1 = z.infer<typeof VoiceMessageV1>;

export const VoiceMessagesV1 = z.object({ items: z.array(VoiceMessageV1) });
export type VoiceMessagesV1 = z.infer<typeof VoiceMessagesV1>;

/** `PUT /v1/voice-messages/{id}/status` */
export const VoiceMessageStatusRequest = z.object({ status: VoicemailStatusV1 });

/** `DELETE /v1/voice-messages` (bulk): the ids of the messages. */
export const VoiceMessagesDeleteRequest = z.object({
  messages: z.array(DbId).check(z.minLength(1), z.maxLength(1000)),
});

/** Second generation: the transcription of a message; the list leaves `text` null (fetched by `…/transcription`). */
export const TranscriptionV2 = z.object({ state: TranscriptState, text: z.nullable(z.string()) });
export type TranscriptionV2 = z.infer<typeof TranscriptionV2>;

/** Second generation: `GET /v2/user/{id}/voicemails`, `GET /v2/voicemail/{id}`. `origtime` is Unix seconds. */
export const VoicemailV2 = z.object({
  msg_id: z.string(),
  caller_id_name: z.nullable(z.string()),
  caller_id_number: z.string(),
  origtime: z.int(),
  mailbox: z.string(),
  status: z.enum(['Unread', 'Read']),
  duration: z.int().check(z.gte(0)),
  transcription: TranscriptionV2,
});
export type VoicemailV2 = z.infer<typeof VoicemailV2>;

export const VoicemailsV2 = z.object({ voicemails: z.array(VoicemailV2) });
export type VoicemailsV2 = z.infer<typeof VoicemailsV2>;

/** `voicemail-20260320-1412-14155550116.wav`: a download is named by its UTC time and the caller's number. */
export function voicemailFileName(receivedAt: Date, callerNumber: string): string {
  const stamp = receivedAt.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  const number = callerNumber.replace(/[^\d+]/g, '').replace(/^\+/, '') || 'unknown';
  return `voicemail-${stamp.slice(0, 8)}-${stamp.slice(9)}-${number}.wav`;
}

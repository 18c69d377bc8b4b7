/**
 * The dashboard's server calls: the same endpoints the voicemail and history plugins read (the
 * dashboard shows a summary and links into them; it does not share their in-memory lists, which
 * load only with their screens).
 */
import { Api, Session, type ServiceLookup } from '../../kernel';
import { ContactsApi } from '../../contracts';
import { HistoryPageWire } from '../../wire/bootResponses';
import { VoiceMessagesV1, VoicemailsV2 } from '../../wire/voicemail';
import { callsSince, FEED_CALL_LIMIT, type CallItem, type VoicemailItem } from './model';

export async function fetchVoicemail(services: ServiceLookup, generation: 1 | 2, signal?: AbortSignal): Promise<VoicemailItem[]> {
  const api = services.get(Api);
  if (generation === 1) {
    const r = await api.get('/v1/voice-messages', { primary_extension: 1 }, VoiceMessagesV1, signal);
    return r.items.map((w) => voicemailItem(String(w.vm_id), w.caller_name, w.caller_number, Date.parse(w.vm_timestamp), w.status === 'UNREAD'));
  }
  const r = await api.get(`/v2/user/${services.get(Session).userId}/voicemails`, undefined, VoicemailsV2, signal);
  return r.voicemails.map((w) => voicemailItem(w.msg_id, w.caller_id_name, w.caller_id_number, w.origtime * 1000, w.status === 'Unread'));
}

const voicemailItem = (id: string, name: string | null, number: string, at: number, unread: boolean): VoicemailItem => ({ kind: 'voicemail', key: `voicemail:${id}`, id, name: name?.trim() || number, at, unread });

/** The last 7 days' calls, newest first, at most 50 (the specification's dashboard figures). */
export async function fetchCalls(services: ServiceLookup, now: Date, signal?: AbortSignal): Promise<CallItem[]> {
  const api = services.get(Api);
  const contacts = services.maybe(ContactsApi);
  const page = await api.get(
    `/v2/users/${services.get(Session).userId}/call-history`,
    { offset: 0, limit: FEED_CALL_LIMIT, sort: 'desc', start_date: isoDay(new Date(callsSince(now.getTime()))), tz: -now.getTimezoneOffset() || 0 },
    HistoryPageWire,
    signal,
  );
  return page.items.map((r): CallItem => {
    const inbound = r.direction === 'inbound';
    const number = inbound ? r.source_phone : r.dest_phone;
    const name = (inbound ? r.cnam || r.caller_id : null) || contacts?.lookupNumber(number)?.name || number;
    return { kind: 'call', key: `call:${r.id}`, id: String(r.id), name, at: Date.parse(utcIso(r.call_time)), direction: !inbound ? 'out' : r.disposition === 'ANSWERED' ? 'in' : 'missed' };
  });
}

/** The local calendar day (the API's dates are days in the user's zone). */
const isoDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The API's call times may come without a zone ("2026-03-20 14:12:00"): they are UTC. */
function utcIso(callTime: string): string {
  let text = callTime.trim();
  if (/^\d{4}-\d{2}-\d{2} \d/.test(text)) text = text.replace(' ', 'T');
  if (text.includes('T') && !/(?:Z|[+-]\d{2}:?\d{2})$/i.test(text)) text += 'Z';
  return text;
}

import { Api, ApiError, Dialogs, Navigation, Notifications, Preferences, Session, type ServiceLookup } from '../../kernel';
import { desktopNotices, type DesktopNotices } from '../../kernel/lazy';
import { TelephonyApi } from '../../contracts';
import type { ApiClient } from '../../kernel';
import { VoicemailNotice } from '../../wire/frame';
import { TranscriptionV2, VoiceMessagesV1, VoicemailsV2, voicemailFileName } from '../../wire/voicemail';
import { fromV1, fromV2, needsTranscriptFetch, rateLimited, REFRESH_MS } from './model';
import { player } from './player';
import { vmState, VOICEMAIL_PATH, type Voicemail } from './state';
import { log } from './log';

export const DELETE_CONFIRM_PREF = 'voicemail-delete-confirm-modal' as const;

/** The calls of one API generation (the voicemail2 feature picks which). */
export interface VoicemailBackend {
  list(signal?: AbortSignal): Promise<Voicemail[]>;
  setRead(id: string, read: boolean): Promise<void>;
  remove(ids: readonly string[]): Promise<void>;
  audio(id: string): Promise<Blob>;
  transcript(id: string): Promise<TranscriptionV2>;
}

async function blobOf(api: ApiClient, path: string): Promise<Blob> {
  const res = await api.raw('GET', path);
  return res.blob();
}

export function backendFor(api: ApiClient, generation: 1 | 2, userId: number): VoicemailBackend {
  if (generation === 1) {
    return {
      list: async (signal) => (await api.get('/v1/voice-messages', { primary_extension: 1 }, VoiceMessagesV1, signal)).items.map(fromV1),
      setRead: (id, read) => api.put(`/v1/voice-messages/${id}/status`, { status: read ? 'READ' : 'UNREAD' }),
      // v1 deletes one message by its path, several in one call.
      remove: (ids) => (ids.length === 1 ? api.delete(`/v1/voice-messages/${ids[0]}`) : api.request('DELETE', '/v1/voice-messages', { body: { messages: ids.map(Number) } })),
      audio: (id) => blobOf(api, `/v1/voice-messages/${id}/media`),
      // v1 carries the transcript in the list; there is nothing more to fetch.
      transcript: async (id) => {
        const v = vmState.items?.find((i) => i.id === id);
        return { state: v?.transcriptState ?? 'None', text: v?.transcript ?? null };
      },
    };
  }
  return {
    list: async (signal) => (await api.get(`/v2/user/${userId}/voicemails`, undefined, VoicemailsV2, signal)).voicemails.map(fromV2),
    // The v2 status update takes an unread flag: `new` marks unread, `old` read.
    setRead: (id, read) => api.post(`/v2/voicemail/${id}/${read ? 'old' : 'new'}`, undefined),
    // v2 has no bulk delete: one call per message.
    remove: async (ids) => void (await Promise.all(ids.map((id) => api.delete(`/v2/voicemail/${id}`)))),
    audio: (id) => blobOf(api, `/v2/voicemail/${id}/download`),
    transcript: (id) => api.get(`/v2/voicemail/${id}/transcription`, undefined, TranscriptionV2),
  };
}

let backend: VoicemailBackend | null = null;
let services: ServiceLookup | null = null;

function ensure(s: ServiceLookup): VoicemailBackend {
  if (!backend || services !== s) {
    services = s;
    backend = backendFor(s.get(Api), vmState.generation, s.get(Session).userId);
  }
  return backend;
}

/** A new array on every change: the badge, the palette and the list compare by identity. */
const patch = (id: string, change: Partial<Voicemail>) => {
  if (vmState.items?.some((v) => v.id === id)) vmState.items = vmState.items.map((v) => (v.id === id ? { ...v, ...change } : v));
};

let inFlight: Promise<void> | null = null;

/** Reads the mailbox again; the player stays on its message if that message is still there. */
export function refresh(s: ServiceLookup): Promise<void> {
  inFlight ??= (async () => {
    try {
      // Asked before the list: the switches are read by then, when a new message is to be told of.
      const notices = desktopNotices(s);
      const items = await ensure(s).list();
      const before = vmState.items;
      // Keep transcripts fetched earlier (the v2 list leaves them out).
      const known = new Map((before ?? []).map((v) => [v.id, v]));
      vmState.items = items.map((v) => (v.transcript === null && known.get(v.id)?.transcript ? { ...v, transcript: known.get(v.id)!.transcript } : v));
      vmState.loadFailed = false;
      vmState.checked = vmState.checked.filter((id) => items.some((v) => v.id === id));
      if (vmState.player.id && !items.some((v) => v.id === vmState.player.id)) player.reset();
      // The first read is what was there at sign-in, not news.
      if (before) noticeNew(s, notices, items.filter((v) => v.status === 'UNREAD' && !known.has(v.id)));
    } catch (err) {
      vmState.loadFailed = vmState.items === null;
      log.error('list failed', err);
    } finally {
      inFlight = null;
    }
  })();
  return inFlight;
}

/**
 * A message that came in since the last read: a desktop notice of the "voicemail" kind (the
 * Messages preferences switch it off), which opens that message when clicked.
 */
function noticeNew(s: ServiceLookup, notices: DesktopNotices, fresh: readonly Voicemail[]): void {
  for (const v of fresh)
    if (!told.delete(v.id))
      notices.show('voicemail', {
      tag: `voicemail:${v.id}`,
      title: translate('voicemail:notice.title'),
      body: translate('voicemail:notice.body', { name: v.callerName ?? v.callerNumber }),
      open: () => s.get(Navigation).navigate(`${VOICEMAIL_PATH}/${v.id}`),
    });
}

/** Messages the server's push has already told of: the next read does not tell of them again. */
const told = new Set<string>();

/**
 * The server's notice of a new message (the specification's vm_id and caller_name, an XMPP headline
 * on the chat connection): told at once, as a chat message is, and the list read again.
 */
export function onVoicemailPush(s: ServiceLookup, body: string): void {
  let parsed: ReturnType<typeof VoicemailNotice.safeParse>;
  try {
    parsed = VoicemailNotice.safeParse(JSON.parse(body));
  } catch {
    parsed = VoicemailNotice.safeParse(null);
  }
  if (!parsed.success) return log.warn('voicemail notice not understood');
  const { vm_id, caller_name } = parsed.data;
  if (!vmState.items?.some((v) => v.id === vm_id)) told.add(vm_id);
  desktopNotices(s).show('voicemail', {
    tag: `voicemail:${vm_id}`,
    title: translate('voicemail:notice.title'),
    body: caller_name ? translate('voicemail:notice.body', { name: caller_name }) : translate('voicemail:notice.unknownCaller'),
    open: () => s.get(Navigation).navigate(`${VOICEMAIL_PATH}/${vm_id}`),
  });
  void refresh(s);
}

/** Every 60 s, and when asked (rate limited to one per 3000 ms). */
export function startRefreshing(s: ServiceLookup): () => void {
  const tick = rateLimited(() => void refresh(s));
  tick();
  const timer = setInterval(tick, REFRESH_MS);
  refreshNow = tick;
  return () => {
    clearInterval(timer);
    refreshNow = null;
    backend = null;
    services = null;
    player.reset();
  };
}
let refreshNow: (() => boolean) | null = null;
export const requestRefresh = (): boolean => refreshNow?.() ?? false;

/** Optimistic: the status changes at once and reverts when the server refuses. */
export async function setRead(s: ServiceLookup, ids: readonly string[], read: boolean): Promise<void> {
  const wanted = read ? 'READ' : 'UNREAD';
  const changing = ids.filter((id) => vmState.items?.find((v) => v.id === id && v.status !== wanted));
  for (const id of changing) patch(id, { status: wanted });
  await Promise.all(
    changing.map(async (id) => {
      try {
        await ensure(s).setRead(id, read);
      } catch (err) {
        patch(id, { status: read ? 'UNREAD' : 'READ' });
        log.error('mark failed', err);
      }
    }),
  );
}

export const toggleRead = (s: ServiceLookup, id: string) => {
  const v = vmState.items?.find((i) => i.id === id);
  return v ? setRead(s, [id], v.status === 'UNREAD') : Promise.resolve();
};

export const markAllRead = (s: ServiceLookup) =>
  setRead(s, vmState.checked.length ? vmState.checked : (vmState.items ?? []).filter((v) => v.status === 'UNREAD').map((v) => v.id), true);

/** Expanding the transcript marks the message read, and on v2 fetches a text the list left out. */
export async function expandTranscript(s: ServiceLookup, id: string, open: boolean): Promise<void> {
  vmState.expanded = open ? [...new Set([...vmState.expanded, id])] : vmState.expanded.filter((e) => e !== id);
  if (!open) return;
  const v = vmState.items?.find((i) => i.id === id);
  if (!v) return;
  if (v.status === 'UNREAD') void setRead(s, [id], true);
  if (needsTranscriptFetch(v, vmState.generation)) {
    try {
      const t = await ensure(s).transcript(id);
      patch(id, t.state === 'Succeeded' && t.text === null ? { transcriptState: 'Failed' } : { transcriptState: t.state, transcript: t.text });
    } catch (err) {
      // Specification: a transcription failure sets the state to failed.
      patch(id, { transcriptState: 'Failed' });
      log.error('transcription failed', err);
    }
  }
}

/** Plays (loading the audio first) or pauses; playing marks the message read. */
export async function playPause(s: ServiceLookup, id: string): Promise<void> {
  const notify = s.get(Notifications);
  if (vmState.player.id === id && vmState.player.audio === 'ready') {
    player.toggle();
    return;
  }
  const v = vmState.items?.find((i) => i.id === id);
  if (!v) return;
  await player.load(id, () => ensure(s).audio(id), (key, values) => notify.announce(translate(key, values)));
  if (vmState.player.audio === 'ready' && v.status === 'UNREAD') void setRead(s, [id], true);
}

let translate: (key: string, values?: Record<string, unknown>) => string = (k) => k;
export function setTranslator(t: typeof translate): void {
  translate = t;
}

/** Deletes after the confirmation, unless the user asked not to be asked again. */
export async function deleteVoicemails(s: ServiceLookup, ids: readonly string[]): Promise<boolean> {
  if (!ids.length) return false;
  const prefs = s.get(Preferences);
  const skip = (await prefs.get<boolean>(DELETE_CONFIRM_PREF).catch(() => false)) === true;
  if (!skip) {
    const answer = await s.get(Dialogs).confirm({
      titleKey: 'voicemail:delete.title',
      messageKey: ids.length === 1 ? 'voicemail:delete.messageOne' : 'voicemail:delete.messageMany',
      values: { count: ids.length },
      confirmLabelKey: 'voicemail:delete.confirm',
      cancelLabelKey: 'voicemail:delete.cancel',
      tone: 'danger',
      rememberLabelKey: 'voicemail:delete.remember',
    });
    if (!answer.confirmed) return false;
    if (answer.remember) await prefs.set(DELETE_CONFIRM_PREF, true).catch((err: unknown) => log.error('saving the preference failed', err));
  }
  try {
    await ensure(s).remove(ids);
  } catch (err) {
    // Some of a v2 bulk delete may have gone through: the list says which.
    s.get(Notifications).toast({ tone: 'error', titleKey: 'voicemail:SERVICE_VOICEMAIL.DELETE_ERROR_TITLE', message: err instanceof ApiError ? err.body.message : undefined });
    void refresh(s);
    return false;
  }
  if (vmState.player.id && ids.includes(vmState.player.id)) player.reset();
  vmState.items = (vmState.items ?? []).filter((v) => !ids.includes(v.id));
  vmState.checked = vmState.checked.filter((id) => !ids.includes(id));
  vmState.expanded = vmState.expanded.filter((id) => !ids.includes(id));
  s.get(Notifications).announce(translate('voicemail:delete.done', { count: ids.length }));
  return true;
}

/** Saves the message as `voicemail-<date>-<time>-<number>.wav`. */
export async function download(s: ServiceLookup, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    const v = vmState.items?.find((i) => i.id === id);
    if (!v) continue;
    try {
      const blob = await ensure(s).audio(id);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = voicemailFileName(new Date(v.timestamp), v.callerNumber);
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      s.get(Notifications).toast({ tone: 'error', titleKey: 'voicemail:errors.download' });
      log.error('download failed', err);
    }
  }
}

export async function callBack(s: ServiceLookup, id: string): Promise<void> {
  const v = vmState.items?.find((i) => i.id === id);
  const telephony = s.maybe(TelephonyApi);
  if (!v || !telephony) return;
  try {
    await telephony.call(v.callerNumber, { displayName: v.callerName ?? undefined });
  } catch (err) {
    log.error('call back failed', err);
  }
}

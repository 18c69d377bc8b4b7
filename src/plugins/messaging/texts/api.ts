/*
 * Texts' server calls (numbers, conversations, messages, attachments) and the live texts the chat
 * connection brings, written into the `texts` store. Part of the lazy chunk.
 */
import i18next from 'i18next';
import { Strophe } from 'strophe.js';
import { Analytics, Api, Notifications, Preferences, type ServiceLookup, ApiError } from '../../../kernel';
import {
  CUTOFF_KINDS,
  type Cutoffs,
  MessagingDidsResponse,
  SendTextResponse,
  TextConversationsResponse,
  TextMedia,
  TextMessagesResponse,
  type TextConversation,
  type TextMessage,
} from '../../../wire/texts';
import { chatAlerts } from '../alerts';
import { newMessageId } from '../model/chat';
import { errorKey, formatNumber, textBody } from './rules';
import { textPath, texts, type PendingFile, type TextConversationState } from './state';
import { log } from '../log';

const TEXTS_NS = 'urn:uc:texts:0';
const PAGE = 25;

interface Deps {
  services: ServiceLookup;
  tr(key: string, values?: Record<string, unknown>): string;
}
let deps: Deps | null = null;

const api = () => deps!.services.get(Api);
const visible = () => typeof document === 'undefined' || document.visibilityState === 'visible';

/**
 * Texts reach every client of the user as XMPP headlines on the chat connection (see
 * server/texts/delivery.ts); this Strophe connection plugin listens for them on every connection the
 * chat engine makes, and reloads the list from the API after each (re)connect so nothing sent
 * meanwhile is missed.
 */
type Conn = InstanceType<typeof Strophe.Connection>;
const plugin: { conn: Conn | null; init(conn: Conn): void; statusChanged(status: number): void } = {
  conn: null,
  init(conn) {
    this.conn = conn;
  },
  statusChanged(status) {
    if (status !== Strophe.Status.CONNECTED || !this.conn) return;
    this.conn.addHandler(
      (el: Element) => {
        onHeadline(el);
        return true;
      },
      null,
      'message',
      'headline',
    );
    if (deps) void refresh();
  },
};
Strophe.addConnectionPlugin('ucTexts', plugin);

/** A headline from the chat connection: the text it carries, if any, into the store. */
export function onHeadline(el: Element): void {
  for (let n = el.firstChild; n; n = n.nextSibling) {
    const e = n as Element;
    if (n.nodeType !== 1 || e.localName !== 'text' || e.namespaceURI !== TEXTS_NS) continue;
    try {
      const raw = JSON.parse(e.textContent ?? '') as { conversation: unknown; message: unknown };
      const { conversation, message } = SendTextResponse.parse(raw);
      ingest(conversation, message, true);
    } catch (err) {
      log.error('unreadable text', err);
    }
  }
}

function conversationOf(c: TextConversation): TextConversationState {
  let s = texts.conversations[c.jid];
  if (!s) {
    texts.conversations[c.jid] = {
      jid: c.jid,
      kind: c.kind,
      did: c.did,
      members: c.members,
      messages: [],
      unread: c.unread,
      complete: false,
      loaded: false,
      pending: false,
      lastActivity: c.last ? Date.parse(c.last.sent_at) : 0,
      input: '',
      files: [],
      error: null,
      sending: false,
    };
    s = texts.conversations[c.jid]!;
  }
  return s;
}

function merge(s: TextConversationState, incoming: readonly TextMessage[]): TextMessage[] {
  const known = new Set(s.messages.map((m) => m.id));
  const fresh = incoming.filter((m) => !known.has(m.id));
  if (fresh.length) s.messages = [...s.messages, ...fresh].sort((a, b) => Date.parse(a.sent_at) - Date.parse(b.sent_at));
  const newest = s.messages.at(-1);
  if (newest) s.lastActivity = Math.max(s.lastActivity, Date.parse(newest.sent_at));
  return fresh;
}

function ingest(c: TextConversation, m: TextMessage, live: boolean): void {
  const s = conversationOf(c);
  const fresh = merge(s, [m]);
  if (!fresh.length || m.direction !== 'in' || !live) return;
  if (texts.open === s.jid && visible()) void markRead(s.jid);
  else {
    s.unread++;
    if (!deps || texts.muted.includes(s.jid)) return;
    const name = s.members.map(formatNumber).join(', ');
    const body = m.body.trim().slice(0, 140);
    deps.services.maybe(Notifications)?.announce(deps.tr('announce', { name, body }), 'polite');
    chatAlerts(deps.services).newMessage({ kind: 'texts', tag: `text:${s.jid}`, title: name, body, to: textPath(s.jid) });
  }
}

/** Numbers, banned list and conversations from the API: at start and after every chat (re)connect. */
export async function refresh(): Promise<void> {
  if (!deps) return;
  if (texts.status === 'off') texts.status = 'loading';
  try {
    const [dids, list] = await Promise.all([
      api().get('/v1/p1/messaging-dids', undefined, MessagingDidsResponse),
      api().get('/v1/texts/conversations', undefined, TextConversationsResponse),
    ]);
    texts.dids = dids.dids;
    texts.banned = dids.banned_numbers;
    if (!texts.draft.from) texts.draft.from = dids.dids[0]?.number ?? '';
    for (const c of list.conversations) {
      const s = conversationOf(c);
      if (c.last) merge(s, [c.last]);
      s.unread = texts.open === c.jid && visible() ? 0 : c.unread;
      // A conversation on screen catches up with what arrived while disconnected.
      if (s.loaded && texts.open === c.jid) void loadNewest(c.jid);
    }
    texts.status = 'ready';
  } catch {
    if (texts.status !== 'ready') texts.status = 'error';
  }
}

let userCutoffs: Cutoffs = {};
/** The user's message cut-off per kind (preference `uc-messages-cut-off`); missing kinds default to 90 days. */
export const cutoffs = (): Cutoffs => userCutoffs;

/** The saved preference read as cut-offs: what is not a positive number of days is left to the default. */
export function readCutoffs(v: unknown): Cutoffs {
  const out: Cutoffs = {};
  if (!v || typeof v !== 'object') return out;
  const saved = v as Record<string, unknown>;
  for (const k of CUTOFF_KINDS) {
    const days = saved[k];
    if (typeof days === 'number' && days > 0) out[k] = days;
  }
  return out;
}

let cutoffsWatch: { dispose(): void } | undefined;
async function loadCutoffs(services: ServiceLookup): Promise<void> {
  const prefs = services.maybe(Preferences);
  let changed = false;
  // Saved in Preferences ▸ Messages: taken at once, the conversations shown next follow it.
  cutoffsWatch?.dispose();
  cutoffsWatch = prefs?.onChange?.('uc-messages-cut-off', (v) => ((changed = true), (userCutoffs = readCutoffs(v))));
  const v = await prefs?.get<unknown>('uc-messages-cut-off').catch(() => false);
  if (!changed) userCutoffs = readCutoffs(v);
}

const MUTED = 'uc-texts-muted';

async function loadMuted(services: ServiceLookup): Promise<void> {
  const v = await services.maybe(Preferences)?.get<unknown>(MUTED).catch(() => false);
  if (Array.isArray(v)) texts.muted = v.filter((j): j is string => typeof j === 'string');
}

/** Mutes or unmutes a conversation, for every device; put back when the server refuses. */
export async function toggleTextMute(jid: string): Promise<void> {
  const before = [...texts.muted];
  texts.muted = before.includes(jid) ? before.filter((j) => j !== jid) : [...before, jid];
  try {
    await deps?.services.get(Preferences).set(MUTED, texts.muted);
  } catch (err) {
    texts.muted = before;
    log.error('text mute not saved', err);
  }
}

/** Resolves once the user's messaging numbers and conversations are in (or could not be had). */
export function startTexts(services: ServiceLookup, tr: Deps['tr'] = (key, values) => i18next.getFixedT(null, 'messaging', 'texts')(key, values)): Promise<void> {
  if (deps) return Promise.resolve();
  deps = { services, tr };
  void loadCutoffs(services);
  void loadMuted(services);
  return refresh();
}

export function stopTexts(): void {
  deps = null;
  cutoffsWatch?.dispose();
  cutoffsWatch = undefined;
}

async function loadNewest(jid: string): Promise<void> {
  const page = await api().get(`/v1/texts/conversations/${encodeURIComponent(jid)}/messages`, { limit: PAGE }, TextMessagesResponse);
  const s = texts.conversations[jid];
  if (!s) return;
  merge(s, page.messages);
  if (!s.loaded) s.complete = page.complete;
  s.loaded = true;
}

/** Opens a conversation: its newest page, read. */
export async function openConversation(jid: string | null): Promise<void> {
  texts.open = jid;
  if (!jid) return;
  const s = texts.conversations[jid];
  if (!s) return;
  if (!s.loaded) await loadNewest(jid).catch(() => undefined);
  if (s.unread) await markRead(jid);
}

export async function loadOlder(jid: string): Promise<void> {
  const s = texts.conversations[jid];
  if (!s || s.pending || s.complete) return;
  s.pending = true;
  try {
    const page = await api().get(`/v1/texts/conversations/${encodeURIComponent(jid)}/messages`, { limit: PAGE, before: s.messages[0]?.id }, TextMessagesResponse);
    merge(s, page.messages);
    s.complete = page.complete;
  } finally {
    s.pending = false;
  }
}

export async function markRead(jid: string): Promise<void> {
  const s = texts.conversations[jid];
  if (!s) return;
  s.unread = 0;
  await api().put(`/v1/texts/conversations/${encodeURIComponent(jid)}/read`, {}).catch(() => undefined);
}

export function markAllRead(): void {
  for (const s of Object.values(texts.conversations)) if (s.unread) void markRead(s.jid);
}

async function upload(files: readonly PendingFile[]): Promise<string[]> {
  const ids: string[] = [];
  for (const f of files) {
    const body = new FormData();
    body.append('file', f.file, f.file.name);
    ids.push((await api().request('POST', '/v1/texts/attachments', { body, schema: TextMedia })).id);
  }
  return ids;
}

/**
 * Sends a text (uploading its files first). Refusals come back as the screen's error key; the
 * caller keeps the draft then.
 */
export async function sendText(from: string, to: readonly string[], input: string, files: readonly PendingFile[]): Promise<{ jid: string } | { error: string }> {
  const body = textBody(input, files.length > 0);
  if (body === null) return { error: 'messageRequired' };
  try {
    const media = await upload(files);
    const res = await api().post('/v1/texts/messages', { id: newMessageId(), from, to, body, media }, SendTextResponse);
    ingest(res.conversation, res.message, false);
    deps?.services.maybe(Analytics)?.track('text_sent');
    return { jid: res.conversation.jid };
  } catch (err) {
    return { error: errorKey(err instanceof ApiError ? err.body.error : undefined) };
  }
}

/** Sends the conversation's draft; on success the draft is cleared, on a refusal it stays with the error. */
export async function sendInConversation(jid: string): Promise<boolean> {
  const s = texts.conversations[jid];
  if (!s || s.sending) return false;
  s.sending = true;
  s.error = null;
  const res = await sendText(s.did, s.members, s.input, s.files);
  s.sending = false;
  if ('error' in res) {
    s.error = res.error;
    return false;
  }
  s.input = '';
  s.files = [];
  return true;
}

/** An attachment as a blob URL (served to its owner only, with the bearer token). */
export async function mediaUrl(url: string): Promise<string> {
  const res = await api().raw('GET', url);
  return URL.createObjectURL(await res.blob());
}

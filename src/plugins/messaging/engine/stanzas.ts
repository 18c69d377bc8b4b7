/** Reading XMPP stanzas into plain objects (no connection needed; unit-tested on their own). */
import { isComposingState, type ComposingState } from '../model/chat';
import type { ChatMedia } from '../model/media';
import type { WirePresence, WireShow } from '../model/presence';
import type { ChatPayload } from '../../../contracts';
import { isPayloadNamespace } from '../payloads';
import { readMedia } from './mediaStanzas';

export const NS = {
  mam: 'urn:xmpp:mam:2',
  rsm: 'http://jabber.org/protocol/rsm',
  forward: 'urn:xmpp:forward:0',
  delay: 'urn:xmpp:delay',
  sid: 'urn:xmpp:sid:0',
  receipts: 'urn:xmpp:receipts',
  chatStates: 'http://jabber.org/protocol/chatstates',
  carbons: 'urn:xmpp:carbons:2',
  ping: 'urn:xmpp:ping',
  private: 'jabber:iq:private',
  /** Our own private-storage element: read positions and muted chats, shared by the user's devices. */
  chats: 'urn:uc:chats:0',
} as const;

export function child(el: Element | null | undefined, name: string, ns?: string): Element | null {
  if (!el) return null;
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).localName === name && (!ns || (n as Element).namespaceURI === ns)) return n as Element;
  }
  return null;
}

export const bare = (jid: string | null | undefined): string => (jid ?? '').split('/')[0]!.toLowerCase();

export interface ParsedMessage {
  id: string;
  from: string;
  to: string;
  type: string;
  body: string | null;
  stanzaId: string | null;
  /** From a delay stamp, if any. */
  stamp: number | null;
  composing: ComposingState | null;
  receiptRequested: boolean;
  /** The id a delivery receipt confirms. */
  receiptFor: string | null;
  error: boolean;
  /** A carbon copy: `sent` (we sent it from another device) or `received` (another device got it). */
  carbon: 'sent' | 'received' | null;
  /** A file (XEP-0066 URL and our description), if the message carries one. */
  media: ChatMedia | null;
  /** Another plugin's element (a namespace subscribed to), if the message carries one. */
  payload: ChatPayload | null;
}

/** The first child in a subscribed namespace, its attributes as fields. */
export function readPayload(el: Element): ChatPayload | null {
  for (let n = el.firstChild; n; n = n.nextSibling) {
    const e = n as Element;
    if (n.nodeType !== 1 || !isPayloadNamespace(e.namespaceURI)) continue;
    const attrs: Record<string, string> = {};
    for (const a of Array.from(e.attributes)) if (a.name !== 'xmlns') attrs[a.name] = a.value;
    return { ns: e.namespaceURI!, name: e.localName, attrs };
  }
  return null;
}

/** A message stanza, carbon copies unwrapped; `me` picks our own stanza-id among several. */
export function parseMessage(stanza: Element, me: string): ParsedMessage | null {
  let el = stanza;
  let carbon: ParsedMessage['carbon'] = null;
  for (const kind of ['sent', 'received'] as const) {
    const wrap = child(stanza, kind, NS.carbons);
    if (wrap) {
      // Only our own server may send carbons (from our bare JID), never a peer.
      if (bare(stanza.getAttribute('from')) !== me) return null;
      const inner = child(child(wrap, 'forwarded', NS.forward), 'message');
      if (!inner) return null;
      el = inner;
      carbon = kind;
    }
  }
  return readMessage(el, me, carbon, child(child(stanza, 'forwarded', NS.forward), 'delay', NS.delay));
}

function readMessage(el: Element, me: string, carbon: ParsedMessage['carbon'], outerDelay: Element | null): ParsedMessage {
  let stanzaId: string | null = null;
  for (let n = el.firstChild; n; n = n.nextSibling) {
    const e = n as Element;
    if (n.nodeType === 1 && e.localName === 'stanza-id' && e.namespaceURI === NS.sid && bare(e.getAttribute('by')) === me) stanzaId = e.getAttribute('id');
  }
  const delay = child(el, 'delay', NS.delay) ?? outerDelay;
  const stamp = delay?.getAttribute('stamp');
  let composing: ComposingState | null = null;
  for (let n = el.firstChild; n; n = n.nextSibling) {
    const e = n as Element;
    if (n.nodeType === 1 && e.namespaceURI === NS.chatStates && isComposingState(e.localName)) composing = e.localName as ComposingState;
  }
  const body = child(el, 'body');
  return {
    id: el.getAttribute('id') ?? '',
    from: bare(el.getAttribute('from')),
    to: bare(el.getAttribute('to')),
    type: el.getAttribute('type') ?? 'normal',
    body: body ? (body.textContent ?? '') : null,
    stanzaId,
    stamp: stamp ? Date.parse(stamp) : null,
    composing,
    receiptRequested: !!child(el, 'request', NS.receipts),
    receiptFor: child(el, 'received', NS.receipts)?.getAttribute('id') ?? null,
    error: el.getAttribute('type') === 'error',
    carbon,
    media: readMedia(el),
    payload: readPayload(el),
  };
}

export interface MamResult {
  queryid: string;
  /** The archive id. */
  id: string;
  message: ParsedMessage;
}

/** One `<result/>` of a MAM query, or null for any other message. */
export function parseMamResult(stanza: Element, me: string): MamResult | null {
  const result = child(stanza, 'result', NS.mam);
  if (!result) return null;
  const fwd = child(result, 'forwarded', NS.forward);
  const inner = child(fwd, 'message');
  if (!inner) return null;
  const message = readMessage(inner, me, null, child(fwd, 'delay', NS.delay));
  const id = result.getAttribute('id') ?? '';
  return { queryid: result.getAttribute('queryid') ?? '', id, message: { ...message, stanzaId: id } };
}

export interface MamFin {
  complete: boolean;
  first: string | null;
  last: string | null;
  count: number | null;
}

export function parseMamFin(iq: Element): MamFin {
  const fin = child(iq, 'fin', NS.mam);
  const set = child(fin, 'set', NS.rsm);
  const text = (name: string) => child(set, name)?.textContent ?? null;
  const count = text('count');
  return { complete: fin?.getAttribute('complete') === 'true', first: text('first'), last: text('last'), count: count === null ? null : Number(count) };
}

export function parsePresence(stanza: Element): { from: string; resource: string; wire: WirePresence; error: boolean } {
  const from = stanza.getAttribute('from') ?? '';
  const type = stanza.getAttribute('type');
  const show = child(stanza, 'show')?.textContent?.trim();
  const status = child(stanza, 'status')?.textContent ?? undefined;
  const wire: WirePresence = {};
  if (type === 'unavailable') wire.type = 'unavailable';
  if (show === 'chat' || show === 'away' || show === 'xa' || show === 'dnd') wire.show = show as WireShow;
  if (status) wire.status = status;
  return { from: bare(from), resource: from.split('/').slice(1).join('/'), wire, error: type === 'error' };
}

/** Read positions and muted chats as kept in private XML storage (a JSON text inside our element). */
export interface StoredChats {
  [jid: string]: { read?: number; muted?: boolean; group?: 'pin' | 'recent' | 'closed' };
}

export function parseStoredChats(iq: Element): StoredChats {
  const el = child(child(iq, 'query', NS.private), 'chats', NS.chats);
  try {
    const v: unknown = JSON.parse(el?.textContent || '{}');
    return v && typeof v === 'object' ? (v as StoredChats) : {};
  } catch {
    return {};
  }
}

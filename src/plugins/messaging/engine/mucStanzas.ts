/** Reading group-chat (MUC, MucSub) stanzas into plain objects; unit-tested on their own. */
import type { ChatMedia } from '../model/media';
import { readMedia } from './mediaStanzas';
import { bare, child, NS } from './stanzas';

export const MUC_NS = {
  pubsubEvent: 'http://jabber.org/protocol/pubsub#event',
  mucsubMessages: 'urn:xmpp:mucsub:nodes:messages',
  stanzas: 'urn:ietf:params:xml:ns:xmpp-stanzas',
} as const;

export interface RoomMessage {
  /** Bare JID of the room. */
  room: string;
  /** The author's nickname in the room (the provisioning subscribes everyone with their JID's local part). */
  nick: string;
  id: string;
  body: string | null;
  /** The room's archive id (stanza-id by the room, or the MAM result id). */
  stanzaId: string | null;
  stamp: number | null;
  /** An error from the room and its condition (`forbidden`, `item-not-found`…). */
  error: string | null;
  /** A file (XEP-0066 URL and our description), if the message carries one. */
  media: ChatMedia | null;
}

const isRoom = (jid: string, mucDomain: string) => bare(jid).endsWith(`@${mucDomain}`);

function read(el: Element, room: string, outerDelay: Element | null, archiveId: string | null): RoomMessage {
  const from = el.getAttribute('from') ?? '';
  let stanzaId = archiveId;
  for (let n = el.firstChild; n && !stanzaId; n = n.nextSibling) {
    const e = n as Element;
    if (n.nodeType === 1 && e.localName === 'stanza-id' && e.namespaceURI === NS.sid && bare(e.getAttribute('by')) === room) stanzaId = e.getAttribute('id');
  }
  const stamp = (child(el, 'delay', NS.delay) ?? outerDelay)?.getAttribute('stamp');
  const body = child(el, 'body');
  let error: string | null = null;
  if (el.getAttribute('type') === 'error') {
    const err = child(el, 'error');
    error = 'undefined-condition';
    for (let n = err?.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 1 && (n as Element).namespaceURI === MUC_NS.stanzas && (n as Element).localName !== 'text') {
        error = (n as Element).localName;
        break;
      }
    }
  }
  return {
    room,
    nick: from.includes('/') ? from.slice(from.indexOf('/') + 1) : '',
    id: el.getAttribute('id') ?? '',
    body: body ? (body.textContent ?? '') : null,
    stanzaId,
    stamp: stamp ? Date.parse(stamp) : null,
    error,
    media: error ? null : readMedia(el),
  };
}

/**
 * A room message as it reaches a member: wrapped in a MucSub pubsub event (subscribers who have not
 * joined, also from offline storage), or a plain groupchat message or error from the room. Null
 * for anything else.
 */
export function parseRoomMessage(stanza: Element, mucDomain: string): RoomMessage | null {
  const from = stanza.getAttribute('from') ?? '';
  if (!isRoom(from, mucDomain)) return null;
  const room = bare(from);
  const items = child(child(stanza, 'event', MUC_NS.pubsubEvent), 'items', MUC_NS.pubsubEvent);
  if (items) {
    if (items.getAttribute('node') !== MUC_NS.mucsubMessages) return null;
    const inner = child(child(items, 'item', MUC_NS.pubsubEvent), 'message');
    return inner ? read(inner, room, child(stanza, 'delay', NS.delay), null) : null;
  }
  const type = stanza.getAttribute('type');
  if (type !== 'groupchat' && type !== 'error') return null;
  return read(stanza, room, null, null);
}

/** One `<result/>` of a MAM query to a room's archive. */
export function parseRoomMamResult(stanza: Element, room: string): { queryid: string; message: RoomMessage } | null {
  const result = child(stanza, 'result', NS.mam);
  if (!result || bare(stanza.getAttribute('from')) !== room) return null;
  const fwd = child(result, 'forwarded', NS.forward);
  const inner = child(fwd, 'message');
  if (!inner) return null;
  return { queryid: result.getAttribute('queryid') ?? '', message: read(inner, room, child(fwd, 'delay', NS.delay), result.getAttribute('id')) };
}

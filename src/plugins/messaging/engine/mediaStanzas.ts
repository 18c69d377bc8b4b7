/**
 * Media messages on the wire: XEP-0066 out-of-band data (`<x xmlns='jabber:x:oob'><url/><desc/>`,
 * which any XMPP client shows as a link) plus our own element with what a chat message's media
 * holds (url, type, ext, ogName, bytes), and XEP-0363 upload slots. Pure functions over elements and builders, unit-tested on their own.
 */
import { $iq } from 'strophe.js';
import { extensionOf, mediaKindOf, type MediaKind } from '../../../wire/media';
import { isWebUrl, nameFromUrl, type ChatMedia } from '../model/media';
import { child } from './stanzas';

export const MEDIA_NS = {
  oob: 'jabber:x:oob',
  /** Ours: type, ext, ogName and bytes of the file the OOB URL points at. */
  media: 'urn:uc:media:0',
  upload: 'urn:xmpp:http:upload:0',
} as const;

type Builder = ReturnType<typeof $iq>;

/** Appends the media description to a message being built (at its top level); the builder is returned there. */
export function appendMedia<B extends Builder>(msg: B, media: ChatMedia): B {
  msg.c('x', { xmlns: MEDIA_NS.oob }).c('url').t(media.url).up().c('desc').t(media.ogName).up().up();
  const attrs: Record<string, string> = { xmlns: MEDIA_NS.media, type: media.type, ext: media.ext, ogName: media.ogName };
  if (media.bytes !== null) attrs.bytes = String(media.bytes);
  msg.c('media', attrs).up();
  return msg;
}

const KINDS: readonly MediaKind[] = ['image', 'video', 'file'];

/**
 * The media of a received or archived message, or null. An OOB URL alone (another client's) is
 * enough: name, extension and kind then come from the URL. Only http(s) URLs count.
 */
export function readMedia(message: Element): ChatMedia | null {
  const x = child(message, 'x', MEDIA_NS.oob);
  const url = child(x, 'url')?.textContent?.trim() ?? '';
  if (!url || !isWebUrl(url)) return null;
  const ours = child(message, 'media', MEDIA_NS.media);
  const ogName = ours?.getAttribute('ogName')?.trim() || child(x, 'desc')?.textContent?.trim() || nameFromUrl(url);
  const claimed = ours?.getAttribute('type') as MediaKind | null | undefined;
  const type = claimed && KINDS.includes(claimed) ? claimed : (mediaKindOf(ogName) ?? 'file');
  const ext = (ours?.getAttribute('ext') || extensionOf(ogName)).toLowerCase();
  const raw = ours?.getAttribute('bytes');
  const bytes = raw && /^\d+$/.test(raw) ? Number(raw) : null;
  return { url, type, ext, ogName, bytes };
}

/** XEP-0363: asks the upload service for a place to put this file. */
export function slotRequest(service: string, file: { name: string; size: number; type: string }): Builder {
  return $iq({ type: 'get', to: service }).c('request', { xmlns: MEDIA_NS.upload, filename: file.name, size: String(file.size), 'content-type': file.type || 'application/octet-stream' });
}

export interface UploadSlot {
  put: string;
  get: string;
  /** Headers the PUT must carry (the XEP allows Authorization, Cookie and Expires only). */
  headers: Record<string, string>;
}

const PUT_HEADERS = new Set(['authorization', 'cookie', 'expires']);

/** The slot in the service's answer, or null when it has none or its URLs are not web addresses. */
export function parseSlot(iq: Element): UploadSlot | null {
  const slot = child(iq, 'slot', MEDIA_NS.upload);
  const put = child(slot, 'put', MEDIA_NS.upload);
  const get = child(slot, 'get', MEDIA_NS.upload);
  const putUrl = put?.getAttribute('url') ?? '';
  const getUrl = get?.getAttribute('url') ?? '';
  if (!isWebUrl(putUrl) || !isWebUrl(getUrl)) return null;
  const headers: Record<string, string> = {};
  for (let n = put!.firstChild; n; n = n.nextSibling) {
    const e = n as Element;
    const name = n.nodeType === 1 && e.localName === 'header' ? (e.getAttribute('name') ?? '') : '';
    if (PUT_HEADERS.has(name.toLowerCase())) headers[name] = (e.textContent ?? '').replace(/[\r\n]/g, '');
  }
  return { put: putUrl, get: getUrl, headers };
}

/*
 * Who a feed of a meeting's videoroom belongs to: the publisher's Janus `display`, which Janus
 * hands everyone in the room (and the API server reads to know whether a host is in).
 */

/** What a feed carries: a person's microphone and camera, their shared screen, or the phones dialled in (audio only). */
export type FeedKind = 'camera' | 'screen' | 'phone';

export interface FeedIdentity {
  name: string;
  userId: number | null;
  kind: FeedKind;
}

const MAX_NAME = 120;

/** A publisher's `display`: JSON, so a name with any characters survives; read back by `readDisplay`. */
export function displayFor(who: FeedIdentity): string {
  return JSON.stringify({ n: who.name.slice(0, MAX_NAME), u: who.userId, k: who.kind });
}

/** Another client's display may be plain text (a Janus demo page, a phone bridge): it is then the name. */
export function readDisplay(display: unknown): FeedIdentity {
  if (typeof display !== 'string') return { name: '', userId: null, kind: 'camera' };
  try {
    const v = JSON.parse(display) as { n?: unknown; u?: unknown; k?: unknown };
    if (v && typeof v === 'object' && typeof v.n === 'string') {
      return { name: v.n.slice(0, MAX_NAME), userId: typeof v.u === 'number' && Number.isSafeInteger(v.u) ? v.u : null, kind: v.k === 'screen' || v.k === 'phone' ? v.k : 'camera' };
    }
  } catch {
    // not ours: plain text
  }
  return { name: display.slice(0, MAX_NAME), userId: null, kind: 'camera' };
}


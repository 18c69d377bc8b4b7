/*
 * What participants tell each other beside their media. Janus relays each publisher's data channel
 * to its subscribers, so a participant's state (muted, camera, hand) and chat lines travel there;
 * who a feed belongs to travels in the publisher's `display`, which Janus gives everyone in the room.
 */

/** What a feed carries: a person's microphone and camera, or their shared screen. */
export type FeedKind = 'camera' | 'screen';

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
      return { name: v.n.slice(0, MAX_NAME), userId: typeof v.u === 'number' && Number.isSafeInteger(v.u) ? v.u : null, kind: v.k === 'screen' ? 'screen' : 'camera' };
    }
  } catch {
    // not ours: plain text
  }
  return { name: display.slice(0, MAX_NAME), userId: null, kind: 'camera' };
}

export interface MediaState {
  muted: boolean;
  camera: boolean;
  hand: boolean;
}

export const CHAT_MAX = 2000;

export type Signal =
  | ({ t: 'state' } & MediaState)
  | { t: 'chat'; id: string; text: string };

/** A data-channel message, or null for anything malformed (a peer is not trusted to send sense). */
export function readSignal(raw: unknown): Signal | null {
  if (typeof raw !== 'string' || raw.length > CHAT_MAX * 4) return null;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  if (o.t === 'state' && typeof o.muted === 'boolean' && typeof o.camera === 'boolean' && typeof o.hand === 'boolean') {
    return { t: 'state', muted: o.muted, camera: o.camera, hand: o.hand };
  }
  if (o.t === 'chat' && typeof o.id === 'string' && o.id.length <= 64 && typeof o.text === 'string' && o.text.trim() && o.text.length <= CHAT_MAX) {
    return { t: 'chat', id: o.id, text: o.text };
  }
  return null;
}

export const writeSignal = (s: Signal): string => JSON.stringify(s);

/** The person shown large: the one speaking now, else the last who spoke, else the first who shares a screen. */
export function activeSpeaker(feeds: readonly { feed: number; talking: boolean; spokeAt: number; kind: FeedKind }[]): number | null {
  const screen = feeds.find((f) => f.kind === 'screen');
  if (screen) return screen.feed;
  let best: { feed: number; spokeAt: number } | null = null;
  for (const f of feeds) {
    if (f.talking) return f.feed;
    if (f.spokeAt > 0 && (!best || f.spokeAt > best.spokeAt)) best = f;
  }
  return best?.feed ?? null;
}

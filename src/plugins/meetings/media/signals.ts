/*
 * What participants tell each other beside their media. Janus relays each publisher's data channel
 * to its subscribers, so a participant's state (muted, camera, hand) and chat lines travel there;
 * who a feed belongs to travels in the publisher's `display`, which Janus gives everyone in the room.
 */

import type { FeedKind } from '../../../wire/meetingDisplay';

export { displayFor, readDisplay, type FeedIdentity, type FeedKind } from '../../../wire/meetingDisplay';

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

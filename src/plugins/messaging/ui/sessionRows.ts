import type { ChatMessage } from '../model/chat';
import type { RosterGroup } from '../model/sessions';
import type { ChatSessionState, PeerPresence, RoomMember } from '../state';

/** What one row of the messages bar shows: nothing more, so that a row nothing changed in stays as it was. */
export interface SessionRow {
  /** The session's JID (the list's key). */
  id: string;
  jid: string;
  type: ChatSessionState['type'];
  name: string;
  subject: string;
  unread: number;
  muted: boolean;
  lastActivity: number;
  last: ChatMessage | undefined;
  /** Names, matched by the search. */
  members: readonly string[];
  people: readonly RoomMember[];
  roster: RosterGroup | null;
  /** The other person's presence (a group of two looks like a chat). */
  presence: PeerPresence | undefined;
}

/** Equal when every field is the same value, arrays compared item by item (valtio snapshots keep the identity of what did not change). */
function sameRow(a: SessionRow, b: SessionRow): boolean {
  for (const k of Object.keys(a) as (keyof SessionRow)[]) {
    const x = a[k];
    const y = b[k];
    if (Object.is(x, y)) continue;
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length || x.some((v, i) => !Object.is(v, y[i]))) return false;
  }
  return true;
}

/**
 * The rows to show, each one the previous call's object when nothing in it changed, and the cache
 * for the next call. The list renders rows by object: a message that arrives renders its own row
 * again, not every row of the bar with its actions menu.
 */
export function reuseRows(previous: ReadonlyMap<string, SessionRow>, rows: readonly SessionRow[]): { rows: SessionRow[]; cache: Map<string, SessionRow> } {
  const cache = new Map<string, SessionRow>();
  const out = rows.map((r) => {
    const old = previous.get(r.id);
    const row = old && sameRow(old, r) ? old : r;
    cache.set(r.id, row);
    return row;
  });
  return { rows: out, cache };
}

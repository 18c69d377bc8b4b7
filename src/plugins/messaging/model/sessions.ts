/** Chat session rules that need no connection: lifecycle, roster groups, what a group looks like. */

/** created → initialised → hydrated (history, members, read position) → destroyed. */
export type SessionPhase = 'created' | 'initialised' | 'hydrated' | 'destroyed';

/** Why a session ends (specification): access denied, affiliation none, a deletion notice, expiry; or the user left. */
export type DestroyReason = 'accessDenied' | 'affiliationNone' | 'deleted' | 'expired' | 'left';

export type SessionEvent = 'init' | 'hydrated' | 'reconnected' | { destroy: DestroyReason };

/**
 * The next phase. Destroyed is final; a reconnect sends a hydrated session back to initialised so
 * that it is hydrated again (meeting sessions, `v.` addresses, are not: their page re-joins them).
 */
export function nextPhase(phase: SessionPhase, event: SessionEvent, jid = ''): SessionPhase {
  if (phase === 'destroyed') return phase;
  if (typeof event === 'object') return 'destroyed';
  if (event === 'init') return phase === 'created' ? 'initialised' : phase;
  if (event === 'hydrated') return 'hydrated';
  return phase === 'hydrated' && !jid.startsWith('v.') ? 'initialised' : phase;
}

/**
 * MUC error conditions that mean the user may no longer be in the room (access denied): the
 * session is destroyed rather than retried.
 */
const ACCESS_DENIED = new Set(['forbidden', 'not-allowed', 'registration-required', 'item-not-found', 'not-authorized']);
export const isAccessDenied = (condition: string | null | undefined): boolean => !!condition && ACCESS_DENIED.has(condition);

/** Roster groups: pinned on top, recent, closed (hidden until something new arrives). */
export const ROSTER_GROUPS = ['pin', 'recent', 'closed'] as const;
export type RosterGroup = (typeof ROSTER_GROUPS)[number];
export type RosterGroups = Record<RosterGroup, readonly string[]>;

export const emptyRosterGroups = (): RosterGroups => ({ pin: [], recent: [], closed: [] });

/** Moving a chat to a roster group removes it from recent, pin and closed first: a chat is in exactly one. */
export function moveToRosterGroup(groups: RosterGroups, jid: string, target: RosterGroup | null): RosterGroups {
  const out = { pin: groups.pin.filter((j) => j !== jid), recent: groups.recent.filter((j) => j !== jid), closed: groups.closed.filter((j) => j !== jid) };
  if (target) out[target] = [jid, ...out[target]];
  return out;
}

export function rosterGroupOf(groups: RosterGroups, jid: string): RosterGroup {
  for (const g of ROSTER_GROUPS) if (groups[g].includes(jid)) return g;
  return 'recent';
}

/** Group when more than 2 members (the UI's gchat); a room of two still looks like a chat. */
export const isGroup = (members: number): boolean => members > 2;

import type { PresenceState } from '../../../contracts';

/** The states a user can choose for themselves, in menu order (specification). */
export const OWN_STATES: readonly PresenceState[] = ['available', 'away', 'busy', 'donotdisturb', 'lunch', 'invisible', 'custom', 'unavailable'];

/** The only XMPP `<show/>` values sent: chat (available), away, xa, dnd; the other states map onto them. */
export type WireShow = 'chat' | 'away' | 'xa' | 'dnd';

export interface WirePresence {
  /** `unavailable` for an offline (or invisible) user; absent for an available presence. */
  type?: 'unavailable';
  show?: WireShow;
  /** The state's name for the states XMPP has no `<show/>` for (lunch, donotdisturb), or the custom text. */
  status?: string;
}

/** The status text of an available user on a call (what telephony's calls publish). */
export const ON_CALL = 'on call';
/** The status text of someone in a meeting's media (any of their windows): shown as their custom text. */
export const IN_MEETING = 'In Meeting';

export interface SeenPresence {
  state: PresenceState;
  /** The custom text, for `custom`. */
  text: string;
  /** In a meeting now: this wins over their other windows' presence and over the debounce. */
  inMeeting?: boolean;
}

/**
 * What others are sent for our own state. Invisible shows unavailable to others. Busy and
 * do-not-disturb both go out as `dnd` (others see busy: "do not disturb maps to busy"); lunch as
 * `away` named in the status; custom as available with its free text.
 */
export function toWire(state: PresenceState, text = '', onCall = false, inMeeting = false): WirePresence {
  // In a meeting: busy to everyone, named so (invisible stays invisible).
  if (inMeeting && state !== 'invisible') return { show: 'dnd', status: IN_MEETING };
  switch (state) {
    case 'available':
      // Others read 'on call' as available (specification); our own clients show it as such.
      return onCall ? { show: 'chat', status: ON_CALL } : { show: 'chat' };
    case 'away':
      return { show: 'away' };
    case 'busy':
      return { show: 'dnd' };
    case 'donotdisturb':
      return { show: 'dnd', status: 'donotdisturb' };
    case 'lunch':
      return { show: 'away', status: 'lunch' };
    case 'unavailable':
      return { show: 'xa' };
    case 'custom':
      return { show: 'chat', status: text.trim() };
    case 'invisible':
      return { type: 'unavailable' };
  }
}

const BY_SHOW: Readonly<Record<string, PresenceState>> = { chat: 'available', away: 'away', xa: 'unavailable', dnd: 'busy' };
const NAMED: Readonly<Record<string, PresenceState>> = {
  available: 'available',
  away: 'away',
  busy: 'busy',
  lunch: 'lunch',
  unavailable: 'unavailable',
  // do-not-disturb maps to busy for everyone else.
  donotdisturb: 'busy',
  dnd: 'busy',
  'do not disturb': 'busy',
  [ON_CALL]: 'available',
};

/**
 * How another user's presence is shown: no presence or `unavailable` is unavailable (so an invisible
 * user looks offline); a status text naming a state wins ('on call' maps to available); any other
 * text is custom; otherwise the `<show/>` value (none = available).
 */
export function fromWire(p: WirePresence): SeenPresence {
  if (p.type === 'unavailable') return { state: 'unavailable', text: '' };
  const status = (p.status ?? '').trim();
  if (status.toLowerCase() === IN_MEETING.toLowerCase()) return { state: 'custom', text: IN_MEETING, inMeeting: true };
  if (status) {
    const named = NAMED[status.toLowerCase()];
    return named ? { state: named, text: '' } : { state: 'custom', text: status };
  }
  return { state: (p.show && BY_SHOW[p.show]) || 'available', text: '' };
}

/**
 * The state to put on when (re)connecting: the one the user chose, except that an own state of
 * unavailable is replaced by the previously stored one (specification); nothing stored → available.
 */
export function restoredOwnState(stored: PresenceState | null | undefined, previous: PresenceState | null | undefined): PresenceState {
  if (stored && stored !== 'unavailable') return stored;
  if (previous && previous !== 'unavailable') return previous;
  return 'available';
}

/**
 * One colleague's presence over their windows (XMPP resources): a window in a meeting wins,
 * otherwise the one heard from last; a window going offline leaves the others' presence, so closing
 * the meeting window, however it ends, brings back what the user's other windows say.
 */
export class ResourcePresence {
  private readonly byJid = new Map<string, Map<string, { seen: SeenPresence; at: number }>>();
  private tick = 0;

  /** Records one resource's presence; returns what the colleague now shows. */
  update(jid: string, resource: string, seen: SeenPresence): SeenPresence {
    let windows = this.byJid.get(jid);
    if (!windows) this.byJid.set(jid, (windows = new Map()));
    if (seen.state === 'unavailable' && !seen.inMeeting) windows.delete(resource);
    else windows.set(resource, { seen, at: ++this.tick });
    const all = [...windows.values()];
    if (!all.length) {
      this.byJid.delete(jid);
      return seen;
    }
    const meeting = all.find((w) => w.seen.inMeeting);
    if (meeting) return meeting.seen;
    return all.reduce((a, b) => (b.at > a.at ? b : a)).seen;
  }
}

export const isPresenceState = (v: unknown): v is PresenceState => typeof v === 'string' && (OWN_STATES as readonly string[]).includes(v);

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(h: unknown): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** Others' presence changes are applied after 400 ms of quiet per user (specification). */
export const PRESENCE_DEBOUNCE_MS = 400;

/**
 * Debounces other users' presence, per user: only the last change within 400 ms is applied. While
 * a user is in a meeting, the meeting is locked through the debounce: a presence arriving in that
 * window does not replace it (the meeting ends with an explicit `unlock`).
 */
export class PresenceDebouncer {
  private readonly pending = new Map<string, { value: SeenPresence; timer: unknown }>();
  private readonly locked = new Set<string>();

  constructor(
    private readonly apply: (jid: string, p: SeenPresence) => void,
    private readonly clock: Clock = realClock,
    private readonly ms = PRESENCE_DEBOUNCE_MS,
  ) {}

  push(jid: string, value: SeenPresence): void {
    const prev = this.pending.get(jid);
    if (prev) this.clock.clearTimeout(prev.timer);
    const timer = this.clock.setTimeout(() => {
      this.pending.delete(jid);
      if (!this.locked.has(jid)) this.apply(jid, value);
    }, this.ms);
    this.pending.set(jid, { value, timer });
  }

  /** The user joined a meeting: shown at once, and what arrives from now on does not replace "in a meeting". */
  lock(jid: string, value?: SeenPresence): void {
    const prev = this.pending.get(jid);
    if (prev) this.clock.clearTimeout(prev.timer);
    this.pending.delete(jid);
    if (value) this.apply(jid, value);
    this.locked.add(jid);
  }

  unlock(jid: string): void {
    this.locked.delete(jid);
  }

  dispose(): void {
    for (const p of this.pending.values()) this.clock.clearTimeout(p.timer);
    this.pending.clear();
  }
}

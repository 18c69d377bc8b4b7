/**
 * Where an incoming call goes: one pure function of the callee's rules and the call's event, so
 * every combination can be tested without a database or a SIP proxy. server/sip/routing.ts loads
 * the inputs and encodes the answer for Kamailio.
 */
import type { ForwardSetting } from '../../src/wire/calling';
import type { FindMe, InboundRoute, InboundRoutes, RingStrategy } from '../../src/wire/inbound';

/**
 * What Kamailio is telling the API: a new call (`incoming`), or the callee's phones answered busy
 * (also do-not-disturb), did not answer within the ring time (`noanswer`), have no registered
 * contact (`offline`); `unanswered` is any of the three, from a proxy that does not tell them
 * apart; `huntfailed`: nobody of a find-me list answered.
 */
export const ROUTE_EVENTS = ['incoming', 'busy', 'noanswer', 'offline', 'unanswered', 'huntfailed'] as const;
export type RouteEvent = (typeof ROUTE_EVENTS)[number];

export interface HuntTarget {
  /** An extension or an outside number. */
  number: string;
  /** Only the user's browsers or only their desk phones (their own extension's contacts). */
  device: 'browser' | 'desk' | null;
  seconds: number;
}

export type Decision =
  /** Ring the callee's own phones for `seconds`. */
  | { action: 'ring'; seconds: number }
  /** Do-not-disturb: the proxy answers busy, then asks again with `busy`. */
  | { action: 'dnd' }
  /** Nothing set for this event: the caller gets the failure the proxy has (480, 486, 408). */
  | { action: 'none' }
  /** A busy tone now. */
  | { action: 'busy' }
  /** Voicemail box `box` (a mailbox is its user's extension) takes a message. */
  | { action: 'voicemail'; box: string }
  /** Box `box` plays its greeting again, then hangs up: no message. */
  | { action: 'greeting'; box: string }
  /** One extension or number instead; `seconds` is how long it rings (null: the proxy's default). */
  | { action: 'forward'; number: string; seconds: number | null }
  /**
   * Several targets, one after the other or together; the first to answer takes the call.
   * `nextStep`: when every target failed the proxy asks again with `huntfailed` (a find-me list
   * with a next step; a group or a number that rings out just fails).
   */
  | { action: 'hunt'; strategy: RingStrategy; targets: HuntTarget[]; recordName: boolean; announceBetween: boolean; nextStep?: boolean };

export interface CalleeRules {
  extension: string;
  dnd: boolean;
  forwardAlways: ForwardSetting | null;
  forwardDefault: ForwardSetting | null;
  inbound: InboundRoutes | null;
  findMe: FindMe | null;
  /** User id → extension, for every user a box or ext value may name (the callee's organisation). */
  extensions: ReadonlyMap<string, string>;
  /** Group id → its members' extensions (the callee's organisation). */
  groups: ReadonlyMap<string, readonly string[]>;
  /** The callee's time zone for find-me's window; null: UTC. */
  timeZone: string | null;
}

export interface CallFacts {
  event: RouteEvent;
  /** Whether the callee has a registered phone, when the API knows; undefined: not known. */
  registered?: boolean;
  now: Date;
  /** How long the callee's own phones ring, and a group, when no rule says. */
  ringSeconds: number;
}

const NONE: Decision = { action: 'none' };

/** The HH:mm:ss of `now` where the callee is (formatters are costly: one per zone). */
const clocks = new Map<string, Intl.DateTimeFormat>();
export function timeOfDay(now: Date, timeZone: string | null): string {
  const zone = timeZone ?? 'UTC';
  let clock = clocks.get(zone);
  if (!clock) {
    try {
      clock = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    } catch {
      // An unknown zone name (stored long ago, or mistyped): UTC rather than no routing.
      return timeOfDay(now, null);
    }
    clocks.set(zone, clock);
  }
  return clock.format(now);
}

/** The legacy forward (`/v1/broad/forwards/{type}`), or null when it is off or leads nowhere. */
function fromForward(rules: CalleeRules, fwd: ForwardSetting | null): Decision | null {
  if (!fwd?.enabled || !fwd.destination) return null;
  if (fwd.destination.destination_type === 'box') return { action: 'voicemail', box: rules.extension };
  const target = fwd.destination.destination_parameter;
  // Never back to the same phone (a loop the proxy would otherwise follow once).
  return target && target !== rules.extension ? { action: 'forward', number: target, seconds: null } : null;
}

function findMe(rules: CalleeRules, facts: CallFacts, depth: number): Decision | null {
  const f = rules.findMe;
  if (!f) return null;
  if (f.startTime && f.endTime) {
    const t = timeOfDay(facts.now, rules.timeZone);
    if (t < f.startTime || t >= f.endTime) return fromRoute(rules, f.afterHoursNextStep, facts, depth + 1) ?? { action: 'ring', seconds: facts.ringSeconds };
  }
  const targets = f.locations.filter((l) => l.isActive).flatMap((l): HuntTarget[] => {
    if (l.type === 'browser' || l.type === 'desk') return [{ number: rules.extension, device: l.type, seconds: l.ringTime }];
    const number = l.number?.replace(/[\s()-]/g, '');
    return number && number !== rules.extension ? [{ number, device: null, seconds: l.ringTime }] : [];
  });
  if (targets.length === 0) return fromRoute(rules, f.simultaneous_next_step, facts, depth + 1);
  return { action: 'hunt', strategy: f.ring_strategy, targets, recordName: f.recordName, announceBetween: f.announceBetween, nextStep: f.simultaneous_next_step.drop !== null };
}

/**
 * The decision of one rule, or null when it is not set or names what no longer exists (a colleague
 * who left, an emptied group): the next fallback applies then.
 */
function fromRoute(rules: CalleeRules, r: InboundRoute | undefined, facts: CallFacts, depth = 0): Decision | null {
  if (!r?.drop || depth > 1) return null;
  switch (r.drop) {
    case 'box': {
      const box = r.value ? rules.extensions.get(r.value) : undefined;
      return box ? { action: 'voicemail', box } : null;
    }
    case 'repeat_greeting':
      return { action: 'greeting', box: rules.extension };
    case 'ext': {
      const number = r.value ? rules.extensions.get(r.value) : undefined;
      return number && number !== rules.extension ? { action: 'forward', number, seconds: null } : null;
    }
    case 'phone':
    case 'outside': {
      const number = r.value?.replace(/[\s()-]/g, '');
      return number && number !== rules.extension ? { action: 'forward', number, seconds: r.phoneTime } : null;
    }
    case 'busy':
      return { action: 'busy' };
    case 'group': {
      const members = (r.value ? rules.groups.get(r.value) : undefined)?.filter((e) => e !== rules.extension) ?? [];
      if (members.length === 0) return null;
      return { action: 'hunt', strategy: 'simultaneous', targets: members.map((number) => ({ number, device: null, seconds: facts.ringSeconds })), recordName: false, announceBetween: false };
    }
    case 'findme':
      return findMe(rules, facts, depth);
    default:
      // Types this deployment cannot route are refused when saved; an old row is ignored.
      return null;
  }
}

const FAILURE_RULE = { busy: 'routeBusy', noanswer: 'routeNoAnswer', offline: 'routeOffline' } as const;

/**
 * Precedence. A new call: do-not-disturb; the forward-always switch (the call dock's quick toggle,
 * so it wins over the saved rules until switched off); routeAlways; routeOffline when the callee is
 * known to be offline; else ring. A failure: its own rule (routeBusy, routeNoAnswer, routeOffline),
 * else the default forward, else nothing. `unanswered` (a proxy that does not tell failures apart)
 * answers from the default forward alone, as before the inbound rules existed.
 */
export function decideRoute(rules: CalleeRules, facts: CallFacts): Decision {
  switch (facts.event) {
    case 'incoming': {
      if (rules.dnd) return { action: 'dnd' };
      const always = fromForward(rules, rules.forwardAlways) ?? fromRoute(rules, rules.inbound?.routeAlways, facts);
      if (always) return always;
      if (facts.registered === false) {
        const offline = fromRoute(rules, rules.inbound?.routeOffline, facts);
        if (offline) return offline;
      }
      return { action: 'ring', seconds: facts.ringSeconds };
    }
    case 'busy':
    case 'noanswer':
    case 'offline':
      return fromRoute(rules, rules.inbound?.[FAILURE_RULE[facts.event]], facts) ?? fromForward(rules, rules.forwardDefault) ?? NONE;
    case 'unanswered':
      return fromForward(rules, rules.forwardDefault) ?? NONE;
    case 'huntfailed':
      return fromRoute(rules, rules.findMe?.simultaneous_next_step, facts, 1) ?? NONE;
  }
}

/**
 * The one-line text Kamailio reads. The verbs it has always known keep their exact form (`ring`,
 * `dnd`, `voicemail:<box>`, `forward:<number>`); after a failure, "nothing" stays `ring` for the
 * `unanswered` event, as before. New verbs: `none`, `busy`, `greeting:<box>`, and
 * `hunt:<strategy>:<flags>:<target>/<s>,…` (flags `-`, or `name`, `between`, `next` joined by `+`;
 * `next`: ask again with `huntfailed` when every target failed; a target is a number, or
 * `<extension>;device=browser|desk`). A forward with its own ring time is a hunt of one target.
 */
export function encodeDecision(d: Decision, event: RouteEvent): string {
  switch (d.action) {
    case 'ring': return 'ring';
    case 'dnd': return 'dnd';
    case 'none': return event === 'unanswered' || event === 'incoming' ? 'ring' : 'none';
    case 'busy': return 'busy';
    case 'voicemail': return `voicemail:${d.box}`;
    case 'greeting': return `greeting:${d.box}`;
    case 'forward':
      return d.seconds === null ? `forward:${d.number}` : encodeDecision({ action: 'hunt', strategy: 'sequential', targets: [{ number: d.number, device: null, seconds: d.seconds }], recordName: false, announceBetween: false }, event);
    case 'hunt': {
      const flags = [d.recordName && 'name', d.announceBetween && 'between', d.nextStep && 'next'].filter(Boolean).join('+') || '-';
      const targets = d.targets.map((t) => `${t.number}${t.device ? `;device=${t.device}` : ''}/${t.seconds}`).join(',');
      return `hunt:${d.strategy}:${flags}:${targets}`;
    }
  }
}

import * as z from 'zod/mini';
import { DESTINATION_TYPES, DestinationsResponse, ROUTABLE_NUMBER, type DestinationType } from './calling';
import { RING_STRATEGIES, type RingStrategy } from './ringStrategies';

/** Ring times a rule or a find-me location may use, in seconds (the specification's 5…30). */
export const RING_TIMES = [5, 10, 15, 20, 25, 30] as const;
export type RingTime = (typeof RING_TIMES)[number];

export { RING_STRATEGIES, type RingStrategy };

/** The four inbound rules, in the order the calling panel shows them. */
export const INBOUND_RULES = ['routeAlways', 'routeBusy', 'routeNoAnswer', 'routeOffline'] as const;
export type InboundRule = (typeof INBOUND_RULES)[number];

/**
 * What this deployment really routes to. `box` is a voicemail box (the value names its user: the
 * caller's own or a colleague's), `ext` a colleague, `phone`/`outside` a number through the gateway,
 * `group` one of the organisation's extension groups, `findme` the user's find-me list.
 */
export const AVAILABLE_DESTINATION_TYPES = ['box', 'ext', 'phone', 'outside', 'findme', 'busy', 'group', 'repeat_greeting'] as const satisfies readonly DestinationType[];
export type AvailableDestinationType = (typeof AVAILABLE_DESTINATION_TYPES)[number];

/** The types that need a PBX feature this deployment does not run, with why (shown to the user). */
export const UNAVAILABLE_DESTINATION_REASONS: Readonly<Record<Exclude<DestinationType, AvailableDestinationType>, string>> = {
  aa: 'No auto attendant runs on this system',
  queue: 'No call queues run on this system',
  conferenceHub: 'No conference bridge runs on this system',
  conference: 'No conference bridge runs on this system',
  disaHub: 'No DISA service runs on this system',
  disa: 'No DISA service runs on this system',
  fax: 'No fax service runs on this system',
  slaline: 'No shared line appearances on this system',
  cid_route: 'No caller-ID routing on this system',
  cm: 'No call manager on this system',
  hairpin: 'No hairpin routing on this system',
  virtual_attendant: 'No virtual attendant runs on this system',
  trunk: 'Trunks are not selectable on this system: use an outside number',
  directory: 'No dial-by-name directory runs on this system',
  custom: 'No custom routing on this system',
  ah: 'No after-hours service runs on this system',
};

/** Types whose value is picked from a list the server offers (GET /v1/broad/destinations). */
export const SELECT_LIST_TYPES = ['box', 'ext', 'group'] as const satisfies readonly AvailableDestinationType[];
/** Types whose value is a dialled number. */
export const NUMBER_TYPES = ['phone', 'outside'] as const satisfies readonly AvailableDestinationType[];

/**
 * One rule: `drop` is the destination type (null: the rule is not set, and the default forward or
 * plain ringing applies), `value` what that type needs (a user id for box/ext, a group id, a number),
 * `phoneTime` how long a number rings (required for `phone`).
 */
export const InboundRoute = z.object({
  drop: z.nullable(z.enum(DESTINATION_TYPES)),
  value: z.nullable(z.string().check(z.maxLength(32))),
  phoneTime: z.nullable(z.number()),
});
export type InboundRoute = z.infer<typeof InboundRoute>;

export const NO_ROUTE: InboundRoute = { drop: null, value: null, phoneTime: null };

/** `GET|PUT /v1/broad/inbound` */
export const InboundRoutes = z.object({
  routeAlways: InboundRoute,
  routeBusy: InboundRoute,
  routeNoAnswer: InboundRoute,
  routeOffline: InboundRoute,
});
export type InboundRoutes = z.infer<typeof InboundRoutes>;

/** Where a find-me location rings: the user's browsers, their desk phones, their mobile, any number. */
export const FIND_ME_LOCATION_TYPES = ['browser', 'desk', 'mobile', 'number'] as const;
export type FindMeLocationType = (typeof FIND_ME_LOCATION_TYPES)[number];
export const FIND_ME_MAX_LOCATIONS = 10;

export const FindMeLocation = z.object({
  type: z.enum(FIND_ME_LOCATION_TYPES),
  /** The user's label for it ("My mobile"). */
  value: z.nullable(z.string().check(z.maxLength(100))),
  /** The number dialled (mobile, number); the user's own extension for browser and desk. */
  number: z.nullable(z.string().check(z.maxLength(32))),
  isActive: z.boolean(),
  ringTime: z.number(),
});
export type FindMeLocation = z.infer<typeof FindMeLocation>;

/** Whether `zone` is a time zone this runtime knows ("Europe/Paris"). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** HH:mm:ss, a time of day in the user's time zone. */
export const TIME_OF_DAY = /^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$/;

/** `GET|PUT /v1/broad/find-me` */
export const FindMe = z.object({
  ring_strategy: z.enum(RING_STRATEGIES),
  locations: z.array(FindMeLocation),
  recordName: z.boolean(),
  announceBetween: z.boolean(),
  /** The window in which find-me applies; both null: always. */
  startTime: z.nullable(z.string().check(z.maxLength(8))),
  endTime: z.nullable(z.string().check(z.maxLength(8))),
  /** Outside the window. */
  afterHoursNextStep: InboundRoute,
  /** When no location answers. */
  simultaneous_next_step: InboundRoute,
  /**
   * The IANA time zone of startTime–endTime (the browser's that saved them); absent or null: UTC.
   * Users have no time-zone setting of their own, and a window in UTC would be hours off for most.
   */
  timeZone: z.optional(z.nullable(z.string().check(z.maxLength(64), z.refine(isTimeZone, 'Unknown time zone')))),
});
export type FindMe = z.infer<typeof FindMe>;

export const DEFAULT_FIND_ME: FindMe = {
  ring_strategy: 'sequential',
  locations: [],
  recordName: false,
  announceBetween: false,
  startTime: null,
  endTime: null,
  afterHoursNextStep: NO_ROUTE,
  simultaneous_next_step: NO_ROUTE,
};

/** One type of `GET /v1/broad/destinations`: whether it can be chosen here, and if not why. */
export const DestinationTypeInfo = z.object({
  type: z.enum(DESTINATION_TYPES),
  available: z.boolean(),
  reason: z.nullable(z.string()),
  /** The values of a select-list type (box, ext, group): `value` is what a rule stores. */
  options: z.nullable(z.array(z.object({ value: z.string(), name: z.string(), number: z.nullable(z.string()) }))),
});
export type DestinationTypeInfo = z.infer<typeof DestinationTypeInfo>;

/**
 * `GET /v1/broad/destinations`: `items` are the forwards' destinations (own box, colleagues), as
 * before; `types` lists every destination type of the specification with what it can route to here.
 */
export const DestinationsCatalogue = z.extend(DestinationsResponse, { types: z.array(DestinationTypeInfo) });
export type DestinationsCatalogue = z.infer<typeof DestinationsCatalogue>;

/**
 * The calling-save errors of the specification, as detail messages: a select-list drop with no
 * value, a type that needs an id (box, ext, trunk, outside, phoneTime), a type this deployment cannot
 * route, a ring time not offered, and find-me's start not before its end (ERROR_FIND_ME).
 */
export type RouteProblem =
  | 'ERROR_BOX' | 'ERROR_EXT' | 'ERROR_GROUP' | 'ERROR_TRUNK' | 'ERROR_OUTSIDE' | 'ERROR_PHONE' | 'ERROR_PHONE_TIME'
  | 'ERROR_NOT_AVAILABLE' | 'ERROR_FIND_ME' | 'ERROR_FIND_ME_LOCATION' | 'ERROR_FIND_ME_LOOP' | 'ERROR_TIME';

export interface RouteProblemDetail {
  path: string;
  message: RouteProblem;
}

const isRingTime = (n: number | null): n is RingTime => n !== null && (RING_TIMES as readonly number[]).includes(n);
const cleanNumber = (s: string) => s.replace(/[\s()-]/g, '');
export const isRoutableNumber = (s: string | null): boolean => !!s && ROUTABLE_NUMBER.test(cleanNumber(s));

/** The problems of one rule (none when it may be saved); `path` prefixes each detail. */
export function routeProblems(r: InboundRoute, path: string): RouteProblemDetail[] {
  if (r.drop === null) return [];
  const at = (field: string, message: RouteProblem): RouteProblemDetail[] => [{ path: `${path}.${field}`, message }];
  if (r.drop === 'trunk') return at('value', 'ERROR_TRUNK');
  if (!(AVAILABLE_DESTINATION_TYPES as readonly string[]).includes(r.drop)) return at('drop', 'ERROR_NOT_AVAILABLE');
  switch (r.drop) {
    case 'box': return r.value ? [] : at('value', 'ERROR_BOX');
    case 'ext': return r.value ? [] : at('value', 'ERROR_EXT');
    case 'group': return r.value ? [] : at('value', 'ERROR_GROUP');
    case 'outside':
      if (!isRoutableNumber(r.value)) return at('value', 'ERROR_OUTSIDE');
      return r.phoneTime === null || isRingTime(r.phoneTime) ? [] : at('phoneTime', 'ERROR_PHONE_TIME');
    case 'phone':
      if (!isRoutableNumber(r.value)) return at('value', 'ERROR_PHONE');
      return isRingTime(r.phoneTime) ? [] : at('phoneTime', 'ERROR_PHONE_TIME');
    default: return [];
  }
}

export function inboundProblems(routes: InboundRoutes): RouteProblemDetail[] {
  return INBOUND_RULES.flatMap((rule) => routeProblems(routes[rule], rule));
}

export function findMeProblems(f: FindMe): RouteProblemDetail[] {
  const problems: RouteProblemDetail[] = [];
  f.locations.forEach((l, i) => {
    if (!isRingTime(l.ringTime)) problems.push({ path: `locations.${i}.ringTime`, message: 'ERROR_PHONE_TIME' });
    if ((l.type === 'mobile' || l.type === 'number') && !isRoutableNumber(l.number)) problems.push({ path: `locations.${i}.number`, message: 'ERROR_FIND_ME_LOCATION' });
  });
  if (f.locations.length > FIND_ME_MAX_LOCATIONS) problems.push({ path: 'locations', message: 'ERROR_FIND_ME_LOCATION' });
  for (const key of ['startTime', 'endTime'] as const) {
    const t = f[key];
    if (t !== null && !TIME_OF_DAY.test(t)) problems.push({ path: key, message: 'ERROR_TIME' });
  }
  // One without the other has no window; a window must start before it ends (no overnight window).
  if ((f.startTime === null) !== (f.endTime === null)) problems.push({ path: f.startTime === null ? 'startTime' : 'endTime', message: 'ERROR_TIME' });
  else if (f.startTime && f.endTime && TIME_OF_DAY.test(f.startTime) && TIME_OF_DAY.test(f.endTime) && f.startTime >= f.endTime) problems.push({ path: 'startTime', message: 'ERROR_FIND_ME' });
  for (const key of ['afterHoursNextStep', 'simultaneous_next_step'] as const) {
    // Find-me's own next step cannot be find-me again.
    if (f[key].drop === 'findme') problems.push({ path: `${key}.drop`, message: 'ERROR_FIND_ME_LOOP' });
    else problems.push(...routeProblems(f[key], key));
  }
  return problems;
}

/** The user-facing sentence of each problem (the save error's message names the first). */
export const ROUTE_PROBLEM_MESSAGES: Readonly<Record<RouteProblem, string>> = {
  ERROR_BOX: 'Choose the voicemail box',
  ERROR_EXT: 'Choose the extension',
  ERROR_GROUP: 'Choose the group',
  ERROR_TRUNK: 'Trunks are not selectable on this system: use an outside number',
  ERROR_OUTSIDE: 'Enter the outside number',
  ERROR_PHONE: 'Enter the phone number',
  ERROR_PHONE_TIME: 'Choose a ring time of 5, 10, 15, 20, 25 or 30 seconds',
  ERROR_NOT_AVAILABLE: 'Calls cannot be sent to this kind of destination here',
  ERROR_FIND_ME: 'The find-me start time must be before the end time',
  ERROR_FIND_ME_LOCATION: 'Enter the number of each find-me location (at most 10)',
  ERROR_FIND_ME_LOOP: 'Find-me cannot be its own next step',
  ERROR_TIME: 'Enter times as HH:mm:ss, both start and end',
};

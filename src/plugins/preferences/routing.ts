import { ApiError } from '../../kernel';
import type { DestinationType } from '../../wire/calling';
import {
  FIND_ME_LOCATION_TYPES,
  NUMBER_TYPES,
  SELECT_LIST_TYPES,
  type DestinationTypeInfo,
  type FindMe,
  type FindMeLocation,
  type InboundRoute,
  type InboundRule,
  type RouteProblem,
  type RouteProblemDetail,
} from '../../wire/inbound';

/** Where a route form sits: one of the four inbound rules, or one of find-me's two next steps. */
export type RouteSlot = InboundRule | 'afterHoursNextStep' | 'simultaneous_next_step';
export type RouteField = 'drop' | 'value' | 'phoneTime';

/** The fields a destination type needs, and only those are shown. */
export interface RouteFields {
  /** Picked from the server's list (colleagues, boxes, groups). */
  list: boolean;
  /** A dialled number. */
  number: boolean;
  /** How long the number rings. */
  ringTime: boolean;
}

export function fieldsFor(drop: DestinationType | null): RouteFields {
  return {
    list: (SELECT_LIST_TYPES as readonly (string | null)[]).includes(drop),
    number: (NUMBER_TYPES as readonly (string | null)[]).includes(drop),
    ringTime: drop === 'phone',
  };
}

/**
 * A new destination type: the value is kept only when it means the same thing for the new type (a
 * number between phone and outside), so a colleague's id never becomes a "number".
 */
export function withDrop(r: InboundRoute, drop: DestinationType | null): InboundRoute {
  if (drop === r.drop) return r;
  const before = fieldsFor(r.drop);
  const after = fieldsFor(drop);
  return { drop, value: before.number && after.number ? r.value : null, phoneTime: after.ringTime ? r.phoneTime : null };
}

/** The first problem of each field of one route form (`slot` is the problems' path prefix). */
export function fieldProblems(problems: readonly RouteProblemDetail[], slot: string): Partial<Record<RouteField, RouteProblem>> {
  const out: Partial<Record<RouteField, RouteProblem>> = {};
  for (const p of problems) {
    const field = p.path.startsWith(`${slot}.`) ? (p.path.slice(slot.length + 1) as RouteField) : null;
    if (field && !out[field]) out[field] = p.message;
  }
  return out;
}

/** A select-list type's entry for the value a rule stores (a user or group id), when the server lists it. */
export function optionOf(types: readonly DestinationTypeInfo[], drop: DestinationType | null, value: string | null) {
  return types.find((t) => t.type === drop)?.options?.find((o) => o.value === value) ?? null;
}

type T = (key: string, values?: Record<string, unknown>) => string;

const named = (o: { name: string; number: string | null }) => (o.number ? `${o.name} (${o.number})` : o.name);

/**
 * What a route does, as the summary sentence says it ("voicemail (yours)", "ring Carol Diaz (1003)").
 * `selfId`: the user's own id, whose box is "yours".
 */
export function describeRoute(r: InboundRoute, types: readonly DestinationTypeInfo[], selfId: string, t: T): string {
  if (r.drop === null) return t('calling.summary.none');
  const info = types.find((x) => x.type === r.drop);
  if (info && !info.available) return t('calling.summary.unavailable', { type: t(`calling.types.${r.drop}`) });
  const option = optionOf(types, r.drop, r.value);
  switch (r.drop) {
    case 'box':
      if (r.value === selfId) return t('calling.summary.ownBox');
      return option ? t('calling.summary.box', { name: named(option) }) : t('calling.summary.notChosen', { type: t('calling.types.box') });
    case 'ext':
      return option ? t('calling.summary.ext', { name: named(option) }) : t('calling.summary.notChosen', { type: t('calling.types.ext') });
    case 'group':
      return option ? t('calling.summary.group', { name: option.name }) : t('calling.summary.notChosen', { type: t('calling.types.group') });
    case 'phone':
    case 'outside':
      if (!r.value?.trim()) return t('calling.summary.notChosen', { type: t(`calling.types.${r.drop}`) });
      return r.phoneTime ? t('calling.summary.numberFor', { number: r.value.trim(), seconds: r.phoneTime }) : t('calling.summary.number', { number: r.value.trim() });
    case 'findme':
    case 'busy':
    case 'repeat_greeting':
      return t(`calling.summary.${r.drop}`);
    default:
      return t('calling.types.' + r.drop);
  }
}

/** "When you're busy: voicemail (yours)". */
export const routeSentence = (slot: RouteSlot, r: InboundRoute, types: readonly DestinationTypeInfo[], selfId: string, t: T): string =>
  t('calling.summary.sentence', { rule: t(`calling.rules.${slot}`), what: describeRoute(r, types, selfId, t) });

/** A find-me location as the form holds it: `key` keeps a row's identity while rows move. */
export type DraftLocation = FindMeLocation & { key: string };
export type FindMeDraft = Omit<FindMe, 'locations'> & { locations: DraftLocation[] };

let nextKey = 0;
export const withKey = (l: FindMeLocation): DraftLocation => ({ ...l, key: `loc-${++nextKey}` });
export const toDraft = (f: FindMe): FindMeDraft => ({ ...f, locations: f.locations.map(withKey) });

/** The wire form: a browser or desk location has no number of its own (the user's extension rings). */
export function fromDraft(d: FindMeDraft, zone = browserTimeZone()): FindMe {
  return {
    ...d,
    // A new window is kept in the zone of the browser that saves it (users have no zone setting);
    // a saved one keeps its own.
    timeZone: d.startTime ? (d.timeZone ?? zone) : null,
    locations: d.locations.map(({ key: _key, ...l }) => ({ ...l, value: l.value?.trim() || null, number: needsNumber(l.type) ? l.number?.trim() || null : null })),
  };
}

/** This browser's IANA time zone ("Europe/Paris"); null where the runtime does not say. */
export const browserTimeZone = (): string | null => Intl.DateTimeFormat().resolvedOptions().timeZone || null;

export const needsNumber = (type: FindMeLocation['type']) => type === 'mobile' || type === 'number';

export const newLocation = (): DraftLocation => withKey({ type: FIND_ME_LOCATION_TYPES[2], value: null, number: null, isActive: true, ringTime: 20 });

/** Moves row `i` by `by` (−1 up, +1 down); out of range: unchanged. */
export function move<X>(items: readonly X[], i: number, by: -1 | 1): X[] {
  const j = i + by;
  if (i < 0 || j < 0 || i >= items.length || j >= items.length) return [...items];
  const out = [...items];
  [out[i], out[j]] = [out[j]!, out[i]!];
  return out;
}

/** "2 locations, one after another, 09:00:00–17:00:00; if nobody answers: busy tone". */
export function findMeSentence(f: FindMe, types: readonly DestinationTypeInfo[], selfId: string, t: T): string {
  const active = f.locations.filter((l) => l.isActive).length;
  const parts = [t(`calling.findMe.summary.${f.ring_strategy}`, { value: active })];
  if (f.startTime && f.endTime) parts.push(t('calling.findMe.summary.window', { start: f.startTime, end: f.endTime, after: describeRoute(f.afterHoursNextStep, types, selfId, t) }));
  parts.push(t('calling.findMe.summary.nobody', { what: describeRoute(f.simultaneous_next_step, types, selfId, t) }));
  return parts.join(' ');
}

/** Why a calling save failed, as the panel shows it (the error catalogue's "Calling save failure"). */
export type SaveFailure = { kind: 'notAuthorized' } | { kind: 'failed'; message: string | null; problems: RouteProblemDetail[] };

const KNOWN_PROBLEMS = new Set<string>(['ERROR_BOX', 'ERROR_EXT', 'ERROR_GROUP', 'ERROR_TRUNK', 'ERROR_OUTSIDE', 'ERROR_PHONE', 'ERROR_PHONE_TIME', 'ERROR_NOT_AVAILABLE', 'ERROR_FIND_ME', 'ERROR_FIND_ME_LOCATION', 'ERROR_FIND_ME_LOOP', 'ERROR_TIME']);

export function saveFailure(err: unknown): SaveFailure {
  const message = err instanceof ApiError ? err.message : null;
  if ((err instanceof ApiError && err.status === 403) || /authorized/i.test(message ?? '')) return { kind: 'notAuthorized' };
  const problems = err instanceof ApiError ? (err.body.details ?? []).filter((d): d is RouteProblemDetail => KNOWN_PROBLEMS.has(d.message)) : [];
  return { kind: 'failed', message, problems };
}

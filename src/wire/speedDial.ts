import * as z from 'zod/mini';

/** `personal`: only its owner dials it; `shared`: everyone in the organisation does (read-only for them). */
export const SPEED_DIAL_VISIBILITY = ['personal', 'shared'] as const;
export type SpeedDialVisibility = (typeof SPEED_DIAL_VISIBILITY)[number];

/** Shortcuts are #1…#9999. */
export const SHORTCUT_MAX = 9999;
/** What is stored of a dial string (digits, commas for DTMF pauses, # and *). */
export const DIAL_STRING_MAX = 64;
export const LABEL_MAX = 100;
/** The organisation's maximum when none is configured. */
export const DEFAULT_MAX_ORG_SPEED_DIALS = 100;

/** A dialled string keeps only digits, commas, # and *: "+1 (415) 555-0100,,12#" → "14155550100,,12#". */
export const stripDialString = (s: string): string => s.replace(/[^\d,#*]/g, '');
/** What a user may type as a dial string: the kept characters plus the usual separators of a number. */
const DIAL_INPUT = /^[\d\s,#*+().\-/]+$/;

/** One entry as `GET /v1/speed-dials` lists it. */
export const SpeedDial = z.object({
  id: z.int(),
  user_id: z.int(),
  organization_id: z.int(),
  visibility: z.enum(SPEED_DIAL_VISIBILITY),
  position: z.int(),
  shortcut: z.int(),
  dial_string: z.string(),
  label: z.string(),
  /** The caller owns it (and may change, share or delete it). */
  canEdit: z.boolean(),
  /** ISO timestamp of the last change. */
  modified: z.string(),
  isShared: z.boolean(),
  /** Who owns it, for a colleague's shared entry ("Shared by Olivia Bennett"). */
  owner_name: z.string(),
});
export type SpeedDial = z.infer<typeof SpeedDial>;

/** `GET /v1/speed-dials`: the caller's entries and the organisation's shared ones, by position. */
export const SpeedDialList = z.object({
  items: z.array(SpeedDial),
  max_org_speed_dials: z.int(),
  total_org_speed_dials: z.int(),
});
export type SpeedDialList = z.infer<typeof SpeedDialList>;

/**
 * `POST /v1/users/{id}/speed-dials` and `PUT …/{id}`: a missing shortcut takes the first free one
 * (creation only), a missing position goes last, a missing visibility is personal.
 */
export const SpeedDialInput = z.object({
  id: z.optional(z.nullable(z.int())),
  position: z.optional(z.nullable(z.int().check(z.gte(0), z.lte(1_000_000)))),
  shortcut: z.optional(z.nullable(z.int().check(z.gte(1, 'A shortcut is a number from 1 to 9999'), z.lte(SHORTCUT_MAX, 'A shortcut is a number from 1 to 9999')))),
  dial_string: z.string().check(
    z.maxLength(200, 'The number is too long'),
    z.refine((s) => DIAL_INPUT.test(s), 'A number may hold digits, commas, # and * only'),
    z.refine((s) => stripDialString(s).length > 0 && /^[\d#*]/.test(stripDialString(s)), 'Enter the number to dial'),
    z.refine((s) => stripDialString(s).length <= DIAL_STRING_MAX, 'The number is too long'),
  ),
  label: z.optional(z.string().check(z.maxLength(LABEL_MAX, `A label has at most ${LABEL_MAX} characters`))),
  visibility: z.optional(z.enum(SPEED_DIAL_VISIBILITY)),
});
export type SpeedDialInput = z.infer<typeof SpeedDialInput>;

/** The 400 of a shortcut that is taken (the specification: an error naming the shortcut). */
export const shortcutInUse = (shortcut: number): string => `Shortcut #${shortcut} is already in use`;
export const speedDialLimitReached = (max: number): string => `Your organisation has reached its maximum of ${max} speed dials`;
export const SHARED_NOT_ALLOWED = 'Standard users cannot share speed dials';
export const NOT_YOUR_SPEED_DIAL = 'Only its owner can change this speed dial';

/** `#12` typed in the dialpad or the palette: the shortcut it names, else null. */
export function shortcutOf(typed: string): number | null {
  const m = /^#([1-9]\d{0,3})$/.exec(typed.trim());
  return m ? Number(m[1]) : null;
}

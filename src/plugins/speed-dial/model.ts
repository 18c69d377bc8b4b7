import type { PaletteEntity } from '../../kernel';
import { ROLE } from '../../wire/roles';
import { LABEL_MAX, SHARED_NOT_ALLOWED, shortcutOf, SHORTCUT_MAX, stripDialString, DIAL_STRING_MAX, type SpeedDial, type SpeedDialInput } from '../../wire/speedDial';
import type { FormStart } from './state';

/** Account owners and administrators may share entries with the organisation (the specification: not role 3). */
export const mayShare = (roleId: number | null): boolean => roleId === ROLE.ACCOUNT_OWNER || roleId === ROLE.ADMINISTRATOR;

/** The dial string saved under `#<shortcut>` among what the user can dial, or null. */
export function resolveIn(items: readonly SpeedDial[], shortcut: string): string | null {
  const n = shortcutOf(`#${shortcut}`);
  return n === null ? null : (items.find((e) => e.shortcut === n)?.dial_string ?? null);
}

/** How an entry is named in lists and the palette: "#12 · Alice Nguyen" (the number when it has no label). */
export const entryName = (e: Pick<SpeedDial, 'shortcut' | 'label' | 'dial_string'>): string => `#${e.shortcut} · ${e.label || e.dial_string}`;

/**
 * The positions to save when the user's own entry `id` moves one place up (-1) or down (+1) among
 * their own entries (colleagues' shared entries have their owners' order and do not move): the own
 * entries numbered 0, 1, 2… in their new order, only the ones that change. Null when it cannot move.
 */
export function moved(items: readonly SpeedDial[], id: number, by: -1 | 1): Array<{ entry: SpeedDial; position: number }> | null {
  const own = items.filter((e) => e.canEdit);
  const at = own.findIndex((e) => e.id === id);
  const to = at + by;
  if (at < 0 || to < 0 || to >= own.length) return null;
  const order = [...own];
  [order[at], order[to]] = [order[to]!, order[at]!];
  return order.flatMap((entry, position) => (entry.position === position ? [] : [{ entry, position }]));
}

/** The list after those moves, in the server's order (own entries by position first). */
export function withPositions(items: readonly SpeedDial[], changes: ReadonlyArray<{ entry: SpeedDial; position: number }>): SpeedDial[] {
  const next = new Map(changes.map((c) => [c.entry.id, c.position]));
  const all = items.map((e) => (next.has(e.id) ? { ...e, position: next.get(e.id)! } : e));
  return [...all.filter((e) => e.canEdit).sort((a, b) => a.position - b.position || a.id - b.id), ...all.filter((e) => !e.canEdit)];
}

/** Every entry as a palette entity: Enter calls it; an own entry can also be edited and deleted. */
export function entityFor(e: SpeedDial): PaletteEntity {
  const args = { id: String(e.id) };
  return {
    id: `speed-dial:${e.id}`,
    label: entryName(e),
    detail: e.dial_string,
    keywords: e.canEdit ? [] : [e.owner_name],
    standsFor: `#${e.shortcut}`,
    actions: [{ command: 'speed-dial.call', args }, ...(e.canEdit ? [{ command: 'speed-dial.edit', args }, { command: 'speed-dial.delete', args }] : [])],
  };
}

/** What the form starts with for an entry, or for a new one (prefilled from a contact, say). */
export const formFor = (e: SpeedDial): FormStart => ({ id: e.id, shortcut: String(e.shortcut), label: e.label, number: e.dial_string, shared: e.visibility === 'shared' });
export const newForm = (prefill: { number?: string; label?: string } = {}): FormStart => ({ id: null, shortcut: '', label: prefill.label ?? '', number: prefill.number ?? '', shared: false });

export type FormField = 'shortcut' | 'label' | 'number' | 'shared' | 'form';
/** An i18n key of `speed-dial:` (with its values) per field that is refused. */
export type FormErrors = Partial<Record<FormField, { key: string; values?: Record<string, unknown> }>>;

const DIAL_INPUT = /^[\d\s,#*+().\-/]+$/;

/** The form's own checks, the server's rules (wire/speedDial): told at the field before anything is sent. */
export function validateForm(v: FormStart): FormErrors {
  const errors: FormErrors = {};
  const shortcut = v.shortcut.trim().replace(/^#/, '');
  if (shortcut && !(/^\d+$/.test(shortcut) && Number(shortcut) >= 1 && Number(shortcut) <= SHORTCUT_MAX)) errors.shortcut = { key: 'errors.shortcutRange', values: { max: SHORTCUT_MAX } };
  const number = v.number.trim();
  if (!number) errors.number = { key: 'errors.numberRequired' };
  else if (!DIAL_INPUT.test(number)) errors.number = { key: 'errors.numberChars' };
  else if (!/^[\d#*]/.test(stripDialString(number))) errors.number = { key: 'errors.numberRequired' };
  else if (stripDialString(number).length > DIAL_STRING_MAX) errors.number = { key: 'errors.numberLong', values: { max: DIAL_STRING_MAX } };
  if (v.label.trim().length > LABEL_MAX) errors.label = { key: 'errors.labelLong', values: { max: LABEL_MAX } };
  return errors;
}

/** The request body for the form's values (an empty shortcut: the server picks the first free one). */
export function inputOf(v: FormStart, position?: number): SpeedDialInput {
  const shortcut = v.shortcut.trim().replace(/^#/, '');
  return {
    ...(v.id !== null ? { id: v.id } : {}),
    ...(position !== undefined ? { position } : {}),
    shortcut: shortcut ? Number(shortcut) : null,
    dial_string: v.number.trim(),
    label: v.label.trim(),
    visibility: v.shared ? 'shared' : 'personal',
  };
}

/** A refusal of the server, put at the field it is about (the 400 naming the shortcut at the shortcut). */
export function serverErrors(status: number, body: { error: string; message: string; details?: ReadonlyArray<{ path: string; message: string }> }, v: FormStart): FormErrors {
  const shortcut = v.shortcut.trim().replace(/^#/, '');
  switch (body.error) {
    case 'shortcut_in_use':
      return { shortcut: { key: 'errors.shortcutInUse', values: { shortcut: /^\d+$/.test(shortcut) ? shortcut : (/#(\d+)/.exec(body.message)?.[1] ?? '') } } };
    case 'no_free_shortcut':
      return { shortcut: { key: 'errors.noFreeShortcut' } };
    case 'speed_dial_limit':
      return { form: { key: 'errors.limit', values: { max: /\d+/.exec(body.message)?.[0] ?? '' } } };
    case 'validation_failed': {
      const errors: FormErrors = {};
      for (const d of body.details ?? []) {
        if (d.path === 'shortcut') errors.shortcut = { key: 'errors.shortcutRange', values: { max: SHORTCUT_MAX } };
        else if (d.path === 'dial_string') errors.number = { key: 'errors.numberChars' };
        else if (d.path === 'label') errors.label = { key: 'errors.labelLong', values: { max: LABEL_MAX } };
      }
      return Object.keys(errors).length ? errors : { form: { key: 'errors.saveFailed' } };
    }
    default:
      if (status === 403 && body.message === SHARED_NOT_ALLOWED) return { shared: { key: 'errors.sharedNotAllowed' } };
      if (status === 403 || status === 404) return { form: { key: 'errors.notYours' } };
      return { form: { key: 'errors.saveFailed' } };
  }
}

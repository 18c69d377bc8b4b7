import type { PaletteEntity } from '../../../kernel';

/** What "Call ▸" received: typed text, or a contact from the contacts search provider. */
export function callTarget(value: unknown): { target: string; displayName?: string } | null {
  if (typeof value === 'string') return { target: value };
  const e = value as Partial<PaletteEntity> | null;
  // A contact's palette row lists its numbers first ("1002, +1 415 555 0142 · Acme"), and it only
  // offers a Call action when it has a number.
  if (e && typeof e.label === 'string' && e.actions?.some((a) => a.command === 'contacts.call')) {
    const first = e.detail?.split(' · ')[0]?.split(', ')[0]?.trim();
    if (first) return { target: first, displayName: e.label };
  }
  return null;
}

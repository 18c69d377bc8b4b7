import type { ContactsService } from '../../../contracts';

/**
 * What "Call ▸" received: typed text, or an entity picked from the contacts provider. Contacts
 * says which contact an entity is and its numbers (ContactsApi.resolve): how its palette row is
 * written is its own business.
 */
export function callTarget(value: unknown, contacts: Pick<ContactsService, 'resolve'> | undefined): { target: string; displayName?: string } | null {
  if (typeof value === 'string') return { target: value };
  const id = (value as { id?: unknown } | null)?.id;
  const contact = typeof id === 'string' ? contacts?.resolve(id) : undefined;
  // Contacts offers no Call on the user's own contact.
  const first = contact && !contact.self ? contact.numbers[0]?.trim() : undefined;
  return first ? { target: first, displayName: contact!.name } : null;
}

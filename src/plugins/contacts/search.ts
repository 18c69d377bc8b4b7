import { toDisposable, type PaletteEntity, type SearchProvider } from '../../kernel';
import { SPEED_DIAL_ADD_COMMAND, type SpeedDialAddArgs } from '../../contracts';
import { directory, type DirEntry } from './directory';
import { ENTITY_PREFIX, isSelfEntry, listedName } from './entry';

export function entityFor(e: DirEntry, selfId: number | null): PaletteEntity {
  const isSelf = isSelfEntry(e, selfId);
  const args = { id: e.id };
  const actions: Array<{ command: string; args: Record<string, unknown> }> = [];
  if (!isSelf) {
    if (e.numbers.length) actions.push({ command: 'contacts.call', args });
    if (e.source === 'User') actions.push({ command: 'contacts.message', args }, { command: 'contacts.notifyAvailable', args });
    if (e.numbers.some((n) => n.replace(/\D/g, '').length >= 10)) actions.push({ command: 'contacts.text', args });
  }
  if (e.source === 'personal') actions.push({ command: 'contacts.edit', args });
  // Listed for every colleague; the palette shows it only to account owners and administrators (its `when`).
  if (!isSelf && e.source === 'User') actions.push({ command: 'contacts.editUser', args });
  if (!isSelf) actions.push({ command: 'contacts.favorite', args });
  // The speed-dial plugin's form, prefilled; the palette leaves the action out when that plugin is not there.
  if (!isSelf && e.numbers.length) actions.push({ command: SPEED_DIAL_ADD_COMMAND, args: { number: e.numbers[0], label: listedName(e) } satisfies SpeedDialAddArgs });
  actions.push({ command: 'contacts.open', args });
  // Enter on the own contact still opens it (the first action); editing the profile is one Tab away.
  if (isSelf) actions.push({ command: 'contacts.editProfile', args });
  return {
    id: `${ENTITY_PREFIX}${e.id}`,
    label: listedName(e),
    detail: [e.numbers.join(', '), e.company].filter(Boolean).join(' · ') || undefined,
    keywords: e.email ? [e.email] : undefined,
    actions,
  };
}

/**
 * Palette entities, built once per directory version and user (50,000 of them must not be rebuilt
 * per opening). Keyed by the entries themselves: a new directory is a new array, and the old one's
 * entities go with it.
 */
const built = new WeakMap<readonly DirEntry[], { self: number | null; items: PaletteEntity[] }>();

/** Every contact in the palette, from the directory. */
export const contactEntities: Pick<SearchProvider, 'items' | 'subscribe'> = {
  items(ctx) {
    const entries = directory.entries;
    if (!entries) return [];
    let cached = built.get(entries);
    if (!cached || cached.self !== ctx.userId) built.set(entries, (cached = { self: ctx.userId, items: entries.map((e) => entityFor(e, ctx.userId)) }));
    return cached.items;
  },
  subscribe: (onChange) => toDisposable(directory.subscribe(onChange)),
};

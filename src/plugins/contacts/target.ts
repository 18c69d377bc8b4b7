import type { CommandContext } from '../../kernel';
import { directory, type DirEntry } from './directory';
import { contactsState } from './state';

/** The contact a command acts on: the one named in its arguments (palette), else the one on screen. */
export interface Target {
  id: string;
  name: string;
  numbers: readonly string[];
  email: string;
  source: DirEntry['source'];
  userId: number | null;
  isCurrentUser: boolean;
}

export function targetOf(ctx: CommandContext, args: { readonly id?: string }): Target | null {
  const id = args.id ?? contactsState.selected?.id;
  if (!id) return null;
  const sel = contactsState.selected;
  if (sel && sel.id === id) {
    return {
      id,
      name: sel.name,
      numbers: sel.phone_numbers.map((p) => p.number || p.extension || '').filter(Boolean),
      email: sel.emails[0]?.email ?? '',
      source: sel.source,
      userId: sel.user_id,
      isCurrentUser: sel.is_current_user,
    };
  }
  const e = directory.get(id);
  if (!e) return null;
  const userId = e.source === 'User' ? Number(e.id.slice(1)) : null;
  return { id, name: e.name, numbers: e.numbers, email: e.email, source: e.source, userId, isCurrentUser: userId !== null && userId === ctx.context.userId };
}

import { proxy } from 'valtio';
import type { ContactWire } from '../../wire/contacts';

/** The state before the screen first opens: the store starts so, and returns to it when the plugin goes. */
export const initialContactsState = () => ({
  /** The contact shown in the detail pane (a plain object, not a proxy). */
  selected: null as ContactWire | null,
  /** Multi-select: ids whose checkbox is ticked. */
  checked: [] as string[],
  /** Bumped to ask the screen to focus its search field. */
  focusSearch: 0,
  /** The group and term on screen (the URL's), so a command that leaves a contact keeps them. */
  view: {} as { group?: string; q?: string },
});

/** Live screen state the commands read when they run (never a captured copy). */
export const contactsState = proxy(initialContactsState());

export function resetContactsState(): void {
  Object.assign(contactsState, initialContactsState());
}

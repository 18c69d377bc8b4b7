import type { QueryClient } from '@tanstack/react-query';
import { proxy } from 'valtio';
import type { ContactWire } from '../../wire/contacts';

/** Live screen state the commands read when they run (never a captured copy). */
export const contactsState = proxy({
  /** The contact shown in the detail pane (a plain object, not a proxy). */
  selected: null as ContactWire | null,
  /** Multi-select: ids whose checkbox is ticked. */
  checked: [] as string[],
  /** Bumped to ask the screen to focus its search field. */
  focusSearch: 0,
  /** The group and term on screen (the URL's), so a command that leaves a contact keeps them. */
  view: {} as { group?: string; q?: string },
});

export function resetContactsState(): void {
  contactsState.selected = null;
  contactsState.checked = [];
  contactsState.focusSearch = 0;
  contactsState.view = {};
}

let queryClient: QueryClient | null = null;
export const bindQueryClient = (c: QueryClient) => void (queryClient = c);
export const boundQueryClient = () => queryClient;

export const contactKeys = {
  all: ['contacts'] as const,
  detail: (id: string) => ['contacts', 'detail', id] as const,
  integrations: ['contacts', 'integrations'] as const,
  avatar: (href: string) => ['contacts', 'avatar', href] as const,
  /** A user's profile as the profile form edits it (the profile calls, not the contact). */
  profile: (userId: number) => ['contacts', 'profile', userId] as const,
};

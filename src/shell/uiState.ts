import { proxy } from 'valtio';

/** Shell-owned UI state that shell commands toggle. */
export const shellState = proxy({
  shortcutsOpen: false,
  /** Unread counts reported by each navigation badge; their sum prefixes the document title. */
  unread: {} as Record<string, number>,
});

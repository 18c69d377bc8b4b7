import { proxy } from 'valtio';

/** Shell-owned UI state that shell commands toggle. */
export const shellState = proxy({
  shortcutsOpen: false,
  /** Unread counts reported by each navigation badge; their sum prefixes the document title. */
  unread: {} as Record<string, number>,
  /** The old-client modal: this tab runs a build older than the server's, or the browser lacks what the app needs. */
  oldClient: null as null | 'stale' | 'browser',
  /** The feature announcement shown (until confirmed), if any. */
  announcement: null as null | 'design-changes',
});

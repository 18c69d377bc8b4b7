import { lazyStrings } from '../../kernel/lazy';

/** The screen's, the form's and the side panel's strings (`strings/`), merged into the boot namespace. */
export const strings = lazyStrings('speed-dial', import.meta.glob<string>('./strings/*.json', { query: '?url&no-inline', import: 'default', eager: true }));

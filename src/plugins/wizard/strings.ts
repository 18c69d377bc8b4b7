import { lazyStrings } from '../../kernel/lazy';

/** The screen's strings (`strings/`), merged into the boot namespace. */
export const strings = lazyStrings('wizard', import.meta.glob<string>('./strings/*.json', { query: '?url&no-inline', import: 'default', eager: true }));

import { lazyStrings } from '../../kernel/lazy';

/** The page's strings (`strings/`), merged into the boot namespace. */
export const strings = lazyStrings('mobile', import.meta.glob<string>('./strings/*.json', { query: '?url&no-inline', import: 'default', eager: true }));

import { lazyStrings } from '../../kernel/lazy';

/** The tour's strings (`strings/`), merged into the boot namespace. */
export const strings = lazyStrings('tutorial', import.meta.glob<string>('./strings/*.json', { query: '?url&no-inline', import: 'default', eager: true }));

import { lazyStrings } from '../../kernel/lazy';

/** The dialog's strings (`strings/`), merged into the boot namespace. */
export const strings = lazyStrings('branding', import.meta.glob<string>('./strings/*.json', { query: '?url&no-inline', import: 'default', eager: true }));

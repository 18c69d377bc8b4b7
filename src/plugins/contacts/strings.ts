import { lazyStrings } from '../../kernel/lazy';

/** The screen's strings (`strings/`), also needed by the dialogs and notices of commands run from the palette. */
export const strings = lazyStrings('contacts', import.meta.glob<string>('./strings/*.json', { query: '?url&no-inline', import: 'default', eager: true }));

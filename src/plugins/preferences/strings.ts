import { lazyStrings } from '../../kernel/lazy';

/** The screen's strings (`strings/`), also needed by the settings commands run from the palette. */
export const strings = lazyStrings('preferences', import.meta.glob<string>('./strings/*.json', { query: '?url&no-inline', import: 'default', eager: true }));

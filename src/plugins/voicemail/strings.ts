import { lazyStrings } from '../../kernel/lazy';

/** The screen's strings (`strings/`), also needed by dialogs and announcements run from the palette. */
export const strings = lazyStrings('voicemail', import.meta.glob<string>('./strings/*.json', { query: '?url&no-inline', import: 'default', eager: true }));

import { lazyStrings } from '../../kernel/lazy';

/** The screens' strings (`strings/`), also needed by the modal and dialogs run from the palette. */
export const strings = lazyStrings('meetings', import.meta.glob<string>('./strings/*.json', { query: '?url&no-inline', import: 'default', eager: true }));

import { lazyStrings } from '../../kernel/lazy';

export const strings = lazyStrings('recordings', import.meta.glob<string>('./strings/*.json', { query: '?url&no-inline', import: 'default', eager: true }));

import { lazyStrings } from '../../kernel/lazyStrings';

export const strings = lazyStrings('recordings', import.meta.glob<string>('./strings/*.json', { query: '?url&no-inline', import: 'default', eager: true }));

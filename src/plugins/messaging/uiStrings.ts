import { lazyStrings } from '../../kernel/lazy';

/*
 * The messaging namespace comes in two parts: `locales/` (titles, command names, reasons) loads at boot
 * because the palette lists commands from the start; `strings/` (the screens' own words) is merged
 * into the same namespace when this chunk loads, and follows language changes (lazyStrings.ts).
 * The files are fetched by URL: no dynamic import in this chunk, so it shares no import helper
 * with the boot chunk.
 */
const files = import.meta.glob<string>('./strings/*.json', { query: '?url&no-inline', import: 'default', eager: true });

/** The strings for a language and English, the fallback; one stable promise per language, for `use()`. */
export const uiStrings = lazyStrings('messaging', files);

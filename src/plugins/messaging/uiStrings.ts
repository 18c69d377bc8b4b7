import { lazyStrings } from '../../kernel/lazy';

/*
 * The messaging namespace comes in two parts: `locales/` (titles, command names, reasons, badges:
 * chat's and texts') loads at boot because the navigation and the palette show them from the start;
 * `strings/` (everything only the chunk shows: the chat and texts screens, argument titles,
 * announcements) is merged into the same namespace when this chunk loads, before any of it runs,
 * and follows language changes (lazyStrings.ts).
 * The files are fetched by URL: no dynamic import in this chunk, so it shares no import helper
 * with the boot chunk.
 */
const files = import.meta.glob<string>('./strings/*.json', { query: '?url&no-inline', import: 'default', eager: true });

/** The strings for a language and English, the fallback; one stable promise per language, for `use()`. */
export const uiStrings = lazyStrings('messaging', files);

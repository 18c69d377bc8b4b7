import i18next from 'i18next';
import { isLanguage } from '../../kernel/i18n';

/*
 * The messaging namespace comes in two parts. `locales/` (command titles, reasons) loads at boot
 * like every namespace, because the palette lists commands from the start. `strings/` (the dock,
 * the dialpad, notices and announcements) is merged into the same namespace only when the phone
 * starts or a call screen opens, so the first screen does not download it.
 */
const loading = new Map<string, Promise<void>>();
// The strings are plain JSON files fetched by URL: no dynamic import in this chunk, so it shares no
// import helper with the boot chunk (which would split that helper out into a chunk of its own).
const files = import.meta.glob<string>('./strings/*.json', { query: '?url&no-inline', import: 'default', eager: true });

function load(lang: string): Promise<void> {
  let p = loading.get(lang);
  if (!p) {
    const url = files[`./strings/${lang}.json`];
    p = (url ? fetch(url).then((r) => (r.ok ? (r.json() as Promise<Record<string, unknown>>) : Promise.reject(new Error(`HTTP ${r.status}`)))) : Promise.reject(new Error('no such language'))).then(
      (strings) => void i18next.addResourceBundle(lang, 'messaging', strings, true, false),
      (err: unknown) => {
        loading.delete(lang);
        console.error(`missing translations ${lang}/messaging strings`, err);
      },
    );
    loading.set(lang, p);
  }
  return p;
}

const ready = new Map<string, Promise<void>>();

/** The strings for `lang` (and English, the fallback); one stable promise per language, for `use()`. */
export function uiStrings(lang: string = i18next.language): Promise<void> {
  const l = isLanguage(lang) ? lang : 'en';
  let p = ready.get(l);
  if (!p) {
    p = Promise.all([load('en'), l === 'en' ? null : load(l)]).then(() => undefined);
    ready.set(l, p);
  }
  return p;
}

let following = false;
/** Keeps the strings in step when the user changes language. */
export function followLanguage(): void {
  if (following) return;
  following = true;
  i18next.on('languageChanged', (lng) => void uiStrings(lng));
}

import i18next from 'i18next';
import { isLanguage } from './i18n';

/*
 * A plugin namespace in two parts: `locales/` (titles, command names, reasons) loads at boot, and a
 * screen's own strings (`strings/<lang>.json`, passed in as URLs from `import.meta.glob(…, {query:
 * '?url&no-inline', eager: true})`) are merged into the same namespace when the screen's chunk loads.
 * Not exported from the kernel's index: only lazy chunks import it, so the boot bundle does not.
 */
export function lazyStrings(namespace: string, files: Record<string, string>): (lang?: string) => Promise<void> {
  const loading = new Map<string, Promise<void>>();
  const load = (lang: string) => {
    let p = loading.get(lang);
    if (!p) {
      const url = files[`./strings/${lang}.json`];
      p = (url ? fetch(url).then((r) => (r.ok ? (r.json() as Promise<Record<string, unknown>>) : Promise.reject(new Error(`HTTP ${r.status}`)))) : Promise.reject(new Error('no such language'))).then(
        (strings) => void i18next.addResourceBundle(lang, namespace, strings, true, false),
        (err: unknown) => {
          loading.delete(lang);
          console.error(`missing translations ${lang}/${namespace} strings`, err);
        },
      );
      loading.set(lang, p);
    }
    return p;
  };
  const ready = new Map<string, Promise<void>>();
  i18next.on('languageChanged', (lng) => void (isLanguage(lng) && load(lng)));
  /** The strings for `lang` and English (the fallback); one stable promise per language, for `use()`. */
  return (lang = i18next.language) => {
    const l = isLanguage(lang) ? lang : 'en';
    let p = ready.get(l);
    if (!p) {
      p = Promise.all([load('en'), l === 'en' ? null : load(l)]).then(() => undefined);
      ready.set(l, p);
    }
    return p;
  };
}

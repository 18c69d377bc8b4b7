import i18next, { type i18n as I18n } from 'i18next';
import type { LocaleLoader } from './contract';

/** The 20 languages the client ships; en is the default. */
export const LANGUAGES = ['en', 'fr', 'sk', 'es', 'ro', 'it', 'pt', 'de', 'fi', 'tr', 'nl', 'ru', 'ar', 'el', 'ko', 'ja', 'ur', 'ne', 'kk', 'hi'] as const;
export type Language = (typeof LANGUAGES)[number];
export const RTL_LANGUAGES: readonly Language[] = ['ar', 'ur'];
export const LANGUAGE_STORAGE_KEY = 'uc-language';

export function isLanguage(v: unknown): v is Language {
  return typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);
}

export function directionOf(lang: string): 'rtl' | 'ltr' {
  return (RTL_LANGUAGES as readonly string[]).includes(lang) ? 'rtl' : 'ltr';
}

const nativeNames = new Map<Language, string>();

/**
 * Each language's name in its own language, for the language menu. Made once per language: an
 * Intl.DisplayNames costs far more than a lookup, and the account menu renders all 20 whenever the
 * frame re-renders (every navigation).
 */
export function nativeLanguageName(lang: Language): string {
  let name = nativeNames.get(lang);
  if (name === undefined) {
    try {
      const n = new Intl.DisplayNames([lang], { type: 'language' }).of(lang);
      name = n ? n.charAt(0).toLocaleUpperCase(lang) + n.slice(1) : lang;
    } catch {
      name = lang;
    }
    nativeNames.set(lang, name);
  }
  return name;
}

const displayNames = new Map<string, Intl.DisplayNames | null>();

/** `lang`'s name in the language `uiLanguage` ("German" in English, "allemand" in French). */
export function languageNameIn(lang: Language, uiLanguage: string): string {
  let names = displayNames.get(uiLanguage);
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames([uiLanguage], { type: 'language' });
    } catch {
      names = null;
    }
    displayNames.set(uiLanguage, names);
  }
  const n = names?.of(lang);
  return n ? n.charAt(0).toLocaleUpperCase(uiLanguage) + n.slice(1) : lang;
}

/**
 * Namespaces are loaded lazily per language from each owner's loader (the shell, the palette and
 * every plugin), so a user downloads only their language.
 */
export class I18nLoader {
  private readonly loaders = new Map<string, LocaleLoader>();
  private readonly loaded = new Set<string>();

  constructor(readonly i18n: I18n = i18next) {}

  addNamespace(ns: string, load: LocaleLoader): () => void {
    this.loaders.set(ns, load);
    return () => this.loaders.delete(ns);
  }


  async ensure(lang: Language): Promise<void> {
    const work: Promise<void>[] = [];
    for (const [ns, load] of this.loaders) {
      const key = `${lang}/${ns}`;
      if (this.loaded.has(key)) continue;
      work.push(
        load(lang).then(
          (res) => {
            this.i18n.addResourceBundle(lang, ns, res, true, true);
            this.loaded.add(key);
          },
          (err: unknown) => console.error(`missing translations ${key}`, err),
        ),
      );
    }
    // English is the fallback for anything a translation lacks.
    if (lang !== 'en') work.push(this.ensure('en'));
    await Promise.all(work);
  }

  async setLanguage(lang: Language): Promise<void> {
    await this.ensure(lang);
    await this.i18n.changeLanguage(lang);
    if (typeof document !== 'undefined') {
      document.documentElement.lang = lang;
      document.documentElement.dir = directionOf(lang);
    }
    try {
      localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
    } catch {
      /* storage may be unavailable (private mode); the server preference still holds it */
    }
  }
}

export async function initI18n(i18n: I18n = i18next): Promise<I18n> {
  if (!i18n.isInitialized) {
    await i18n.init({
      lng: 'en',
      fallbackLng: 'en',
      supportedLngs: [...LANGUAGES],
      ns: ['shell'],
      defaultNS: 'shell',
      interpolation: { escapeValue: false },
      returnNull: false,
      resources: {},
      partialBundledLanguages: true,
    });
  }
  return i18n;
}

export function initialLanguage(): Language {
  try {
    const saved = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    if (isLanguage(saved)) return saved;
  } catch {
    /* no storage */
  }
  const nav = typeof navigator === 'object' ? navigator.language.slice(0, 2) : 'en';
  return isLanguage(nav) ? nav : 'en';
}

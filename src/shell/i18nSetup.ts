import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { I18nLoader, initI18n, initialLanguage, type Language } from '../kernel';

export const i18nLoader = new I18nLoader(i18next);

/** Shell and palette strings are needed before any plugin loads (the login page). */
export async function setupI18n(): Promise<Language> {
  i18next.use(initReactI18next);
  await initI18n(i18next);
  i18nLoader.addNamespace('shell', (lng) => import(`./locales/${lng}.json`).then((m: { default: Record<string, unknown> }) => m.default));
  const lang = initialLanguage();
  await i18nLoader.setLanguage(lang);
  return lang;
}

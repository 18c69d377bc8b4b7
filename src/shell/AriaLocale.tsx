import type { ReactNode } from 'react';
// By component: the login page uses it (see LoginPage.tsx).
import { I18nProvider } from 'react-aria-components/I18nProvider';
import { useTranslation } from 'react-i18next';

/**
 * React Aria follows the product language, not the browser's: its own strings, date formats and
 * the direction of arrow-key navigation (right-to-left in ar and ur).
 */
export function AriaLocale({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return <I18nProvider locale={i18n.resolvedLanguage ?? i18n.language}>{children}</I18nProvider>;
}

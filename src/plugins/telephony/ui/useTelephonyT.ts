import { use } from 'react';
import { useTranslation } from 'react-i18next';
import { uiStrings } from '../uiStrings';

/** `t` for the telephony namespace, suspending until the lazily loaded screen strings are in. */
export function useTelephonyT() {
  const { t, i18n } = useTranslation('telephony');
  // Normally loaded with the engine already; suspend only when they are not.
  if (!i18n.exists('telephony:dock.label', { lng: i18n.language, fallbackLng: false })) use(uiStrings(i18n.language));
  return t;
}

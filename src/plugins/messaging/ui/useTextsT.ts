import { use } from 'react';
import { useTranslation } from 'react-i18next';
import { uiStrings } from '../uiStrings';

/** `t` for the texts screens (keys under `messaging:texts.`), suspending until the chunk's strings are in. */
export function useTextsT() {
  const { t, i18n } = useTranslation('messaging', { keyPrefix: 'texts' });
  if (!i18n.exists('texts.list', { ns: 'messaging', lng: i18n.language, fallbackLng: false })) use(uiStrings(i18n.language));
  return t;
}

import { use } from 'react';
import { useTranslation } from 'react-i18next';
import { uiStrings } from '../uiStrings';

/** `t` for the messaging namespace, suspending until the lazily loaded screen strings are in. */
export function useChatT() {
  const { t, i18n } = useTranslation('messaging');
  if (!i18n.exists('messaging:chat.empty', { lng: i18n.language, fallbackLng: false })) use(uiStrings(i18n.language));
  return t;
}

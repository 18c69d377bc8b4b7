import { use } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyStrings } from '../../../kernel/lazy';

/* The texts screens' own words (texts/strings/), merged into the messaging namespace under `texts.` when the chunk loads. */
const files = import.meta.glob<string>('./strings/*.json', { query: '?url&no-inline', import: 'default', eager: true });
export const textsStrings = lazyStrings('messaging', files);

/** `t` for the texts screens (keys under `messaging:texts.`), suspending until their strings are in. */
export function useTextsT() {
  const { t, i18n } = useTranslation('messaging', { keyPrefix: 'texts' });
  if (!i18n.exists('texts.list', { ns: 'messaging', lng: i18n.language, fallbackLng: false })) use(textsStrings(i18n.language));
  return t;
}

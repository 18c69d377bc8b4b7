import { useTranslation } from 'react-i18next';
import { isLanguage, LANGUAGES, nativeLanguageName } from '../kernel';
import { LanguageSelect } from '../ui/LanguageSelect';
import { i18nLoader } from './i18nSetup';

const OPTIONS = LANGUAGES.map((id) => ({ id, name: nativeLanguageName(id) }));

export function LanguagePicker() {
  const { t, i18n } = useTranslation('shell');
  return (
    <LanguageSelect
      className="field language-picker"
      buttonClassName="btn"
      label={t('language')}
      value={i18n.language}
      options={OPTIONS}
      onChange={(key) => {
        if (isLanguage(key)) void i18nLoader.setLanguage(key);
      }}
    />
  );
}

import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { isLanguage, LANGUAGES, nativeLanguageName } from '../kernel';
import { i18nLoader } from './i18nSetup';

export function LanguagePicker() {
  const { t, i18n } = useTranslation('shell');
  return (
    <Select
      className="field language-picker"
      selectedKey={i18n.language}
      onSelectionChange={(key) => {
        if (isLanguage(key)) void i18nLoader.setLanguage(key);
      }}
    >
      <Label>{t('language')}</Label>
      <Button className="btn">
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <Popover className="popover">
        <ListBox className="menu">
          {LANGUAGES.map((l) => (
            <ListBoxItem key={l} id={l} className="menu-item" textValue={nativeLanguageName(l)} lang={l}>
              {nativeLanguageName(l)}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </Select>
  );
}

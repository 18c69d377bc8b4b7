import { useEffect, useState } from 'react';
import { Label, Radio, RadioGroup, Switch } from 'react-aria-components';
import { LanguageSelect } from '../../../../ui/LanguageSelect';
import { useTranslation } from 'react-i18next';
import { HomePage, isLanguage, LANGUAGES, nativeLanguageName, Preferences, useKernel, useService, type Language } from '../../../../kernel';
import { currentTheme, loadUcSettings, saveHomePage, saveTheme, saveUcSettings } from '../../api';
import { log } from '../../log';
import { BACKGROUNDS, backgroundUrl, ROOM_SORTS, THEMES, type DashboardBackground, type RoomSort, type ThemeChoice } from '../../state';
import { PanelForm } from '../PanelForm';
import { useSave } from '../useSave';

const LANGUAGE_OPTIONS = LANGUAGES.map((id) => ({ id, name: nativeLanguageName(id) }));

interface General {
  language: Language;
  home: string;
  /** A background's name, or 'random'. */
  background: string;
  sortRooms: RoomSort;
  expandNav: boolean;
  theme: ThemeChoice;
}

const backgroundChoice = (saved: DashboardBackground | false): string =>
  saved && saved.random ? 'random' : (BACKGROUNDS.find((b) => saved && saved.url === backgroundUrl(b)) ?? BACKGROUNDS[0]);

function useSavedGeneral(): [General | null, (g: General) => void, string | null] {
  const kernel = useKernel();
  const { i18n } = useTranslation();
  const prefs = useService(Preferences);
  const [saved, setSaved] = useState<General | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all([prefs.get<DashboardBackground>('uc-dashboard-background'), prefs.get<string>('uc-sort-rooms'), loadUcSettings(kernel)]).then(
      ([background, sort, settings]) =>
        live &&
        setSaved({
          language: isLanguage(i18n.language) ? i18n.language : 'en',
          home: kernel.maybe(HomePage)?.path() ?? '/',
          background: backgroundChoice(background),
          sortRooms: sort === 'name' ? 'name' : 'recent',
          expandNav: settings.expand_nav,
          theme: currentTheme(),
        }),
      (err: unknown) => (log.error('general settings', err), live && setFailed('loadFailed')),
    );
    return () => void (live = false);
  }, [kernel, prefs, i18n]);
  return [saved, setSaved, failed];
}

/** Language, home page, dashboard background, rooms' order, navigation expanded, theme. */
export function GeneralPanel() {
  const { t } = useTranslation('preferences');
  const [saved, setSaved, loadFailed] = useSavedGeneral();
  if (loadFailed) return <p role="alert" className="prefs-error">{t(loadFailed)}</p>;
  if (!saved) return <p className="prefs-status">{t('loading')}</p>;
  return <GeneralForm saved={saved} onSaved={setSaved} />;
}

function GeneralForm({ saved, onSaved }: { saved: General; onSaved: (g: General) => void }) {
  const { t } = useTranslation('preferences');
  const kernel = useKernel();
  const prefs = useService(Preferences);
  const [draft, setDraft] = useState(saved);
  const dirty = (Object.keys(draft) as (keyof General)[]).some((k) => draft[k] !== saved[k]);
  const set = <K extends keyof General>(k: K, v: General[K]) => (setDraft((d) => ({ ...d, [k]: v })), setStatus(null));
  const homeChoices = kernel.maybe(HomePage)?.choices(kernel.snapshot()) ?? [];

  const { form, setStatus } = useSave('general', {
    dirty,
    discard: () => setDraft(saved),
    logAs: 'saving general settings',
    store: async () => {
      // The account menu's own command, so both ways of choosing save and apply the language alike.
      if (draft.language !== saved.language && !(await kernel.run('shell.language', { language: draft.language }, 'button'))) throw new Error('the language did not change');
      if (draft.home !== saved.home) await saveHomePage(kernel, draft.home);
      if (draft.background !== saved.background) {
        const value: DashboardBackground = draft.background === 'random' ? { url: null, random: true } : { url: backgroundUrl(draft.background as (typeof BACKGROUNDS)[number]), random: false };
        await prefs.set('uc-dashboard-background', value);
      }
      if (draft.sortRooms !== saved.sortRooms) await prefs.set('uc-sort-rooms', draft.sortRooms);
      if (draft.expandNav !== saved.expandNav) await saveUcSettings(kernel, { expand_nav: draft.expandNav });
      if (draft.theme !== saved.theme) await saveTheme(kernel, draft.theme);
      onSaved(draft);
    },
  });

  return (
    <PanelForm {...form}>
      <LanguageSelect
        className="prefs-group"
        labelClassName="prefs-label"
        buttonClassName="prefs-select"
        label={t('general.language')}
        value={draft.language}
        options={LANGUAGE_OPTIONS}
        onChange={(k) => isLanguage(k) && set('language', k)}
      />

      <RadioGroup className="prefs-group" value={draft.home} onChange={(v) => set('home', v)}>
        <Label className="prefs-label">{t('general.homePage')}</Label>
        <div className="prefs-options">
          {homeChoices.map((c) => (
            <Radio key={c.path} value={c.path} className="prefs-radio">
              {t(c.titleKey)}
            </Radio>
          ))}
        </div>
      </RadioGroup>

      <RadioGroup className="prefs-group" value={draft.theme} onChange={(v) => set('theme', v as ThemeChoice)}>
        <Label className="prefs-label">{t('general.theme')}</Label>
        <div className="prefs-options">
          {THEMES.map((th) => (
            <Radio key={th} value={th} className="prefs-radio">
              {t(`themes.${th}`)}
            </Radio>
          ))}
        </div>
      </RadioGroup>

      <RadioGroup className="prefs-group" value={draft.background} onChange={(v) => set('background', v)} orientation="horizontal">
        <Label className="prefs-label">{t('general.background')}</Label>
        <div className="prefs-backgrounds">
          <Radio value="random" className="prefs-background">
            <span className="prefs-random" aria-hidden="true">?</span>
            {t('general.backgroundRandom')}
          </Radio>
          {BACKGROUNDS.map((b, i) => (
            <Radio key={b} value={b} className="prefs-background">
              <img src={backgroundUrl(b)} alt="" />
              {t('general.backgroundN', { n: i + 1 })}
            </Radio>
          ))}
        </div>
      </RadioGroup>

      <RadioGroup className="prefs-group" value={draft.sortRooms} onChange={(v) => set('sortRooms', v as RoomSort)}>
        <Label className="prefs-label">{t('general.sortRooms')}</Label>
        <div className="prefs-options">
          {ROOM_SORTS.map((s) => (
            <Radio key={s} value={s} className="prefs-radio">
              {t(`general.sort.${s}`)}
            </Radio>
          ))}
        </div>
      </RadioGroup>

      <Switch className="prefs-switch" isSelected={draft.expandNav} onChange={(v) => set('expandNav', v)}>
        <span className="prefs-switch-track" aria-hidden="true" />
        {t('general.expandNav')}
      </Switch>
    </PanelForm>
  );
}

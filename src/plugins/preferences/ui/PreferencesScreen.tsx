import { useBlocker, useNavigate, useSearch } from '@tanstack/react-router';
import { use } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Session, useService } from '../../../kernel';
import { panelsFor, panelTitleKey, shownPanel } from '../model';
import { placeOf, preferencesState, PREFERENCES_PATH, type PanelId, type PreferencesSearch } from '../state';
import { strings } from '../strings';
import { PANELS } from './registry';
import { SaveChangesModal } from './SaveChangesModal';
import './preferences.css';

export default function PreferencesScreen() {
  const { i18n } = useTranslation('preferences');
  use(strings(i18n.language));
  return <Screen />;
}

const panelOf = (search: unknown) => (search as { panel?: PanelId }).panel;

function Screen() {
  const { t } = useTranslation('preferences');
  const session = useService(Session);
  const navigate = useNavigate();
  const panels = panelsFor(PANELS, session);
  const asked = panelOf(useSearch({ strict: false }));
  const shown = shownPanel(panels, asked);
  // Leaving the panel, by any way that navigates, while its form has unsaved changes.
  const blocker = useBlocker({
    // Another panel, or another tab of the Calling panel.
    shouldBlockFn: ({ current, next }) =>
      !!preferencesState.unsaved && (current.pathname !== next.pathname || placeOf({ panel: shown?.id, ...(current.search as PreferencesSearch) }, panels[0]?.id) !== placeOf(next.search as PreferencesSearch, panels[0]?.id)),
    enableBeforeUnload: () => !!preferencesState.unsaved,
    withResolver: true,
  });
  if (!shown) return null;
  const unsaved = preferencesState.unsaved;
  return (
    <div className="prefs">
      <Tabs
        orientation="vertical"
        keyboardActivation="manual"
        selectedKey={shown.id}
        onSelectionChange={(key) => void navigate({ to: PREFERENCES_PATH, search: { panel: key as PanelId } })}
        className="prefs-tabs"
      >
        <TabList aria-label={t('panelList')} className="prefs-list">
          {panels.map((p) => (
            <Tab key={p.id} id={p.id} className="prefs-tab">
              {t(panelTitleKey(p.id))}
            </Tab>
          ))}
        </TabList>
        {panels.map((p) => (
          <TabPanel key={p.id} id={p.id} className="prefs-panel">
            <p.component />
          </TabPanel>
        ))}
      </Tabs>
      {blocker.status === 'blocked' && unsaved && (
        <SaveChangesModal
          panelTitle={t(panelTitleKey(unsaved.panel))}
          onCancel={() => blocker.reset()}
          onDiscard={() => {
            unsaved.discard();
            preferencesState.unsaved = null;
            blocker.proceed();
          }}
          onSave={async () => {
            if (await unsaved.save()) {
              preferencesState.unsaved = null;
              blocker.proceed();
            } else blocker.reset();
          }}
        />
      )}
    </div>
  );
}

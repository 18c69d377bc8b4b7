import { useEffect, useId, useState } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { Button, Label, ProgressBar, Switch, Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { TelephonyApi, type ConnectionTestOutcome, type ConnectionTestProgress, type ForwardingState } from '../../../../contracts';
import { useKernel, useService } from '../../../../kernel';
import { loadUcSettings, saveUcSettings } from '../../api';
import { testFigures } from '../../audio';
import { log } from '../../log';
import { CALLING_TABS, PREFERENCES_PATH, type CallingTab, type PreferencesSearch } from '../../state';
import { FindMeTab } from '../calling/FindMeTab';
import { InboundRules } from '../calling/InboundRules';
import { useCallingRules } from '../calling/useCallingRules';
import { PanelForm } from '../PanelForm';
import { ClickDialTab } from './ClickDialTab';
import { useSave } from '../useSave';

interface Calling {
  dnd: boolean;
  forwardAlways: boolean;
  autoRecord: boolean;
}

/**
 * Do-not-disturb, forward-always, recording every call, the inbound rules and find-me, saved
 * together; opening phone links here and the connection test act at once.
 */
export function CallingPanel() {
  const { t } = useTranslation('preferences');
  const kernel = useKernel();
  const api = useService(TelephonyApi);
  const [loaded, setLoaded] = useState<{ forwarding: ForwardingState; saved: Calling } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    Promise.all([api.forwarding(), loadUcSettings(kernel)]).then(
      ([f, uc]) => {
        if (!live) return;
        if (!f) return setFailed(true);
        setLoaded({ forwarding: f, saved: { dnd: f.dnd, forwardAlways: f.forwardAlways, autoRecord: uc.auto_record_audio } });
      },
      (err: unknown) => (log.error('calling settings', err), live && setFailed(true)),
    );
    return () => void (live = false);
  }, [api, kernel]);
  if (failed) return <p role="alert" className="prefs-error">{t('loadFailed')}</p>;
  if (!loaded) return <p className="prefs-status">{t('loading')}</p>;
  return <CallingForm saved={loaded.saved} destination={loaded.forwarding.destination} onSaved={(saved) => setLoaded({ ...loaded, saved })} />;
}

function CallingForm({ saved, destination, onSaved }: { saved: Calling; destination: string | null; onSaved: (c: Calling) => void }) {
  const { t } = useTranslation('preferences');
  const kernel = useKernel();
  const api = useService(TelephonyApi);
  const [draft, setDraft] = useState(saved);
  const rules = useCallingRules();
  const dirty = (Object.keys(draft) as (keyof Calling)[]).some((k) => draft[k] !== saved[k]) || rules.dirty;
  const set = <K extends keyof Calling>(k: K, v: Calling[K]) => (setDraft((d) => ({ ...d, [k]: v })), setStatus(null));

  const { form, setStatus } = useSave('calling', {
    dirty,
    check: rules.check,
    discard: () => (setDraft(saved), rules.discard()),
    logAs: 'saving calling settings',
    store: async () => {
      // Each part saves on its own: what was saved before a failure stays saved, and shown so.
      const now = { ...saved };
      if (draft.dnd !== saved.dnd) {
        if (!(await api.setDnd(draft.dnd))) throw new Error('do-not-disturb was not saved');
        now.dnd = draft.dnd;
      }
      if (draft.forwardAlways !== saved.forwardAlways) {
        if (!(await api.setForwardAlways(draft.forwardAlways))) throw new Error('forwarding was not saved');
        now.forwardAlways = draft.forwardAlways;
      }
      if (draft.autoRecord !== saved.autoRecord) now.autoRecord = (await saveUcSettings(kernel, { auto_record_audio: draft.autoRecord })).auto_record_audio;
      onSaved(now);
      await rules.store();
    },
  });

  const tab = (useSearch({ strict: false }) as PreferencesSearch).tab ?? CALLING_TABS[0];
  const navigate = useNavigate();
  return (
    <PanelForm {...form} hideSave={tab === 'click-dial'}>
      {/* The tab is in the address: switching with unsaved changes asks first, as leaving the panel does. */}
      <Tabs selectedKey={tab} onSelectionChange={(key) => void navigate({ to: PREFERENCES_PATH, search: { panel: 'calling', tab: key as CallingTab } })} className="prefs-subtabs">
        <TabList aria-label={t('calling.tabs.label')} className="prefs-subtab-list">
          {CALLING_TABS.map((id) => (
            <Tab key={id} id={id} className="prefs-subtab">
              {t(`calling.tabs.${id}`)}
            </Tab>
          ))}
        </TabList>
        <TabPanel id="inbound-dialing" className="prefs-subtab-panel">
          <Switch className="prefs-switch" isSelected={draft.dnd} onChange={(v) => set('dnd', v)}>
            <span className="prefs-switch-track" aria-hidden="true" />
            {t('calling.dnd')}
          </Switch>
          <Switch className="prefs-switch" isSelected={draft.forwardAlways} isDisabled={!destination && !saved.forwardAlways} onChange={(v) => set('forwardAlways', v)}>
            <span className="prefs-switch-track" aria-hidden="true" />
            {destination ? t('calling.forwardTo', { to: destination }) : t('calling.forwardAlways')}
          </Switch>
          {!destination && <p className="prefs-status">{t('calling.noDestination')}</p>}
          <Switch className="prefs-switch" isSelected={draft.autoRecord} onChange={(v) => set('autoRecord', v)}>
            <span className="prefs-switch-track" aria-hidden="true" />
            {t('calling.autoRecord')}
          </Switch>
          <InboundRules rules={rules} />
        </TabPanel>
        <TabPanel id="find-me" className="prefs-subtab-panel">
          <FindMeTab rules={rules} />
        </TabPanel>
        <TabPanel id="click-dial" className="prefs-subtab-panel">
          <ClickDialTab />
        </TabPanel>
      </Tabs>
      <ConnectionTest />
    </PanelForm>
  );
}

/** The connection test: progress while it runs, then the verdict and figures (or why it could not run), announced. */
function ConnectionTest() {
  const { t, i18n } = useTranslation('preferences');
  const api = useService(TelephonyApi);
  const headingId = useId();
  const [progress, setProgress] = useState<ConnectionTestProgress | null>(null);
  const [outcome, setOutcome] = useState<ConnectionTestOutcome | null>(null);
  const running = progress !== null;
  const run = () => {
    setOutcome(null);
    setProgress({ phase: 'calling', fraction: 0 });
    void api
      .testConnection((p) => setProgress(p))
      .then(setOutcome, (err: unknown) => (log.error('connection test', err), setOutcome({ ok: false, reason: 'notRegistered' })))
      .finally(() => setProgress(null));
  };
  const number = (n: number) => n.toLocaleString(i18n.language);
  return (
    <section className="prefs-section" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('calling.test.title')}</h3>
      <p className="prefs-status">{t('calling.test.hint')}</p>
      <div>
        <Button className="btn" onPress={run} isDisabled={running}>
          {t('calling.test.run')}
        </Button>
      </div>
      {progress && (
        <ProgressBar className="prefs-meter" value={progress.fraction * 100} isIndeterminate={progress.phase === 'calling'}>
          {({ percentage }) => (
            <>
              <Label className="prefs-label">{t(progress.phase === 'calling' ? 'calling.test.calling' : 'calling.test.measuring')}</Label>
              <div className="prefs-meter-track" aria-hidden="true">
                <div className="prefs-meter-fill" style={{ width: `${progress.phase === 'calling' ? 0 : (percentage ?? 0)}%` }} />
              </div>
            </>
          )}
        </ProgressBar>
      )}
      <div role="status" aria-atomic="true">
        {outcome?.ok === true && (
          <>
            <p>{t(`calling.test.verdict.${outcome.result.verdict}`)}</p>
            <dl className="prefs-figures">
              {testFigures(outcome.result).map((f) => (
                <div key={f.key} style={{ display: 'contents' }}>
                  <dt>{t(`calling.test.figures.${f.key}`)}</dt>
                  <dd>{t(`calling.test.units.${f.key === 'rtt' || f.key === 'rttNetwork' || f.key === 'jitter' ? 'ms' : 'pct'}`, { value: number(f.value) })}</dd>
                </div>
              ))}
            </dl>
          </>
        )}
      </div>
      {outcome?.ok === false && (
        <p role="alert" className="prefs-error">
          {t(`calling.test.reasons.${outcome.reason}`)}
        </p>
      )}
    </section>
  );
}

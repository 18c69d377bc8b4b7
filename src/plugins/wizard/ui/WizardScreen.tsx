import { use, useEffect, useRef } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Navigation, Notifications, useKernel } from '../../../kernel';
import { LAST_STEP, moveStep, startStep, WIZARD_STEPS } from '../../../wire/wizardSteps';
import { complete, loadInfo, saveMapping } from '../api';
import { completedCookie } from '../model';
import { wizardState } from '../state';
import { strings } from '../strings';
import { CompanyStep } from './CompanyStep';
import { StepIndicator } from './StepIndicator';
import { UploadStep } from './UploadStep';
import { UsersStep } from './UsersStep';
import './wizard.css';

export default function WizardScreen() {
  const { i18n } = useTranslation('wizard');
  use(strings(i18n.language));
  return <Screen />;
}

/** The four steps, one at a time, with the indicator above and Back / Next (Finish) below. */
function Screen() {
  const { t } = useTranslation('wizard');
  const kernel = useKernel();
  const s = useSnapshot(wizardState);
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = useRef<number | null>(null);
  const info = s.info;

  useEffect(() => void (wizardState.info ?? loadInfo(kernel)), [kernel]);
  useEffect(() => {
    if (!info) return;
    // Not a partner administrator's wizard: the app instead (the home page; there is no /uc route).
    if (!info.active) return void kernel.get(Navigation).navigate('/', { replace: true });
    if (wizardState.step === null) wizardState.step = startStep(info);
  }, [info, kernel]);

  // Each new step is announced and its heading takes the focus, so a screen reader reads where it is.
  const step = s.step;
  useEffect(() => {
    if (step === null) return;
    const name = t(`steps.${WIZARD_STEPS[step]}`);
    if (shown.current !== null && shown.current !== step) {
      kernel.get(Notifications).announce(t('steps.announce', { n: step + 1, total: WIZARD_STEPS.length, name }));
      heading.current?.focus();
    }
    shown.current = step;
  }, [step, kernel, t]);

  if (!info?.active || step === null) return <p className="wz-muted">{t('loading')}</p>;

  const finish = async () => {
    if (!(await saveMapping(kernel)) || !(await complete(kernel))) return;
    document.cookie = completedCookie();
    kernel.get(Notifications).announce(t('finished'));
    kernel.get(Navigation).navigate('/');
  };
  const next = () => (wizardState.step = moveStep(step, 1));
  const back = () => (wizardState.step = moveStep(step, -1));
  const stepName = WIZARD_STEPS[step]!;

  return (
    <div className="wz-screen">
      <StepIndicator step={step} />
      <section className="wz-step" aria-labelledby="wz-step-heading">
        <h2 id="wz-step-heading" ref={heading} tabIndex={-1} className="wz-heading">
          {t(`steps.${stepName}`)}
        </h2>
        {stepName === 'welcome' && <p>{t('welcome.text')}</p>}
        {stepName === 'welcome' && (
          <ol className="wz-welcome-list">
            <li>{t('welcome.company')}</li>
            <li>{t('welcome.upload')}</li>
            <li>{t('welcome.users')}</li>
          </ol>
        )}
        {stepName === 'company' && <CompanyStep onConfirmed={next} />}
        {stepName === 'upload' && <UploadStep onUploaded={next} />}
        {stepName === 'users' && <UsersStep />}
      </section>
      <div className="wz-footer">
        <Button className="btn" isDisabled={step === 0} onPress={back}>
          {t('back')}
        </Button>
        {step < LAST_STEP ? (
          <Button className="btn primary" isDisabled={step === 1 && !info.confirmed} onPress={next}>
            {step === 2 ? t('skipUpload') : t('next')}
          </Button>
        ) : (
          <Button className="btn primary" isDisabled={s.saving} onPress={() => void finish()}>
            {t('finish')}
          </Button>
        )}
      </div>
    </div>
  );
}

import { useTranslation } from 'react-i18next';
import { WIZARD_STEPS } from '../../../wire/wizardSteps';

/** Where the user is: "Step 2 of 4", the current step marked for assistive technology (aria-current="step"). */
export function StepIndicator({ step }: { step: number }) {
  const { t } = useTranslation('wizard');
  return (
    <nav className="wz-indicator" aria-label={t('steps.label')}>
      <p className="wz-muted" aria-live="polite">
        {t('steps.position', { n: step + 1, total: WIZARD_STEPS.length })}
      </p>
      <ol>
        {WIZARD_STEPS.map((name, i) => (
          <li key={name} aria-current={i === step ? 'step' : undefined} className={i === step ? 'wz-current' : i < step ? 'wz-done' : undefined}>
            <span className="wz-dot" aria-hidden="true">
              {i + 1}
            </span>
            {t(`steps.${name}`)}
          </li>
        ))}
      </ol>
    </nav>
  );
}

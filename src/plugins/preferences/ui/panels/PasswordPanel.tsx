import { useId, useState } from 'react';
import { Input, Label, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { ApiError, useKernel } from '../../../../kernel';
import { PASSWORD_REUSED_MESSAGE } from '../../../../wire/password';
import { changePassword } from '../../api';
import { log } from '../../log';
import { passwordForm } from '../../model';
import { PanelForm } from '../PanelForm';
import { usePanelForm } from '../usePanelForm';

const EMPTY = { current: '', next: '', confirm: '' };

/** Current, new and confirmation; the rules as a live checklist; the catalogue's two failures. */
export function PasswordPanel() {
  const { t } = useTranslation('preferences');
  const kernel = useKernel();
  const [fields, setFields] = useState(EMPTY);
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<{ key: string; error: boolean } | null>(null);
  const rulesId = useId();
  const form = passwordForm(fields);
  const dirty = fields.current !== '' || fields.next !== '' || fields.confirm !== '';
  const set = (k: keyof typeof EMPTY) => (v: string) => (setFields((f) => ({ ...f, [k]: v })), setOutcome(null));

  const save = async (): Promise<boolean> => {
    if (!form.ready) return false;
    setSaving(true);
    try {
      await changePassword(kernel, fields.current, fields.next);
      setFields(EMPTY);
      setOutcome({ key: 'password.changed', error: false });
      return true;
    } catch (err) {
      // The error catalogue: a reused password keeps the current one and clears the new ones; any other failure the reverse.
      const reused = err instanceof ApiError && err.message === PASSWORD_REUSED_MESSAGE;
      if (!(err instanceof ApiError)) log.error('password change', err);
      setFields((f) => (reused ? { ...f, next: '', confirm: '' } : { ...f, current: '' }));
      setOutcome({ key: reused ? 'password.same' : 'password.noMatch', error: true });
      return false;
    } finally {
      setSaving(false);
    }
  };
  usePanelForm('password', { dirty, save, discard: () => (setFields(EMPTY), setOutcome(null)) });

  return (
    <PanelForm
      panel="password"
      onSave={() => void save()}
      canSave={form.ready}
      saving={saving}
      status={outcome && !outcome.error && t(outcome.key)}
    >
      {outcome?.error && (
        <p role="alert" className="prefs-error">
          {t(outcome.key)}
        </p>
      )}
      <TextField className="field" type="password" value={fields.current} onChange={set('current')} autoComplete="current-password" isRequired>
        <Label>{t('password.current')}</Label>
        <Input />
      </TextField>
      <TextField className="field" type="password" value={fields.next} onChange={set('next')} autoComplete="new-password" isRequired aria-describedby={rulesId}>
        <Label>{t('password.new')}</Label>
        <Input />
      </TextField>
      <TextField className="field" type="password" value={fields.confirm} onChange={set('confirm')} autoComplete="new-password" isRequired aria-describedby={rulesId}>
        <Label>{t('password.confirm')}</Label>
        <Input />
      </TextField>
      <div id={rulesId}>
        <p className="prefs-label">{t('password.rulesTitle')}</p>
        <ul className="prefs-rules">
          {form.checks.map((c) => (
            <li key={c.rule} className="prefs-rule" data-met={c.met || undefined}>
              <span aria-hidden="true">{c.met ? '✓ ' : '○ '}</span>
              {t(c.met ? 'password.met' : 'password.notMet', { rule: t(`password.rules.${c.rule}`) })}
            </li>
          ))}
        </ul>
      </div>
      {/* Heard as the user types: how many rules are met, not the whole list at every key. */}
      <p className="visually-hidden" aria-live="polite">
        {dirty ? t('password.progress', { met: form.checks.filter((c) => c.met).length, total: form.checks.length }) : ''}
      </p>
    </PanelForm>
  );
}

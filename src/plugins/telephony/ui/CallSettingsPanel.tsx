import { useEffect, useId, useState } from 'react';
import { Button, FieldError, Input, Label, Link, Switch, TextField } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { Navigation, useKernel, useService } from '../../../kernel';
import type { Destination } from '../../../wire/calling';
import { currentSettings } from '../engine';
import { destinationFrom } from '../settings/callSettings';
import { phone } from '../state';
import { useTelephonyT } from './useTelephonyT';
import { log } from '../log';

const NUMBER = '__number';

/** Where the saved forwarding goes, as the user reads it (`voicemail`: the name of the user's own box). */
export function destinationLabel(d: Destination | null | undefined, voicemail: string): string {
  if (!d) return '';
  if (d.destination_type === 'box') return voicemail;
  return d.destination_name ? `${d.destination_name} (${d.destination_parameter ?? ''})` : (d.destination_parameter ?? '');
}

/**
 * Do-not-disturb and forward-always on the calls screen: switches that save at once, and the
 * forwarding destination (a colleague, or any number). What was typed stays when a save fails.
 */
export function CallSettingsPanel() {
  const t = useTelephonyT();
  const kernel = useKernel();
  const navigation = useService(Navigation);
  const { settings, recordingPolicy } = useSnapshot(phone);
  const headingId = useId();
  const selectId = useId();
  const [colleagues, setColleagues] = useState<Destination[]>([]);
  const [choice, setChoice] = useState<string | null>(null);
  const [number, setNumber] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    currentSettings()
      ?.destinations()
      .then((items) => live && setColleagues(items))
      .catch((err: unknown) => log.error('forwarding destinations', err));
    return () => {
      live = false;
    };
  }, []);

  // The saved destination fills the form once, when it is first known.
  const saved = settings.forwardAlways?.destination ?? null;
  useEffect(() => {
    if (choice !== null || !saved) return;
    if ((saved.destination_type === 'ext' || saved.destination_type === 'box') && saved.destination_id) setChoice(saved.destination_id);
    else {
      setChoice(NUMBER);
      setNumber(saved.destination_parameter ?? '');
    }
  }, [saved, choice]);

  const loading = settings.dnd === null;
  const forwarding = settings.forwardAlways?.enabled === true;
  const selected = choice ?? '';

  const chosenDestination = (): Destination | null => {
    if (selected === NUMBER) return destinationFrom(number, []);
    return colleagues.find((c) => c.destination_id === selected) ?? null;
  };

  const saveForward = async (enabled: boolean) => {
    const s = currentSettings();
    if (!s) return;
    setProblem(null);
    if (!enabled) {
      await s.setForwardAlways(false);
      return;
    }
    const destination = chosenDestination();
    if (!destination) {
      setProblem(selected === NUMBER && number.trim() ? 'destination_number_invalid' : 'destination_required');
      return;
    }
    const result = await s.setForwardAlways(true, destination);
    if (result && result !== 'failed') setProblem(result);
  };

  const status = forwarding
    ? t('settings.statusForwarding', { to: destinationLabel(saved, t('settings.voicemailBox')) })
    : settings.dnd
      ? t('settings.statusDnd')
      : t('settings.statusRinging');
  const changed = forwarding && destinationLabel(chosenDestination(), '') !== destinationLabel(saved, '');

  return (
    <section className="call-settings" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('settings.title')}</h2>
      <p className="muted" aria-live="polite">
        {loading ? t('settings.loading') : status}
      </p>
      <p>
        <Link className="link" onPress={() => navigation.navigate('/preferences', { search: { panel: 'calling' } })}>
          {t('settings.inPreferences')}
        </Link>
      </p>
      <Switch
        className="switch"
        isSelected={settings.dnd === true}
        isDisabled={loading || settings.saving}
        onChange={(on) => void kernel.run(on ? 'telephony.dndOn' : 'telephony.dndOff', {}, 'button')}
      >
        <span className="switch-track" aria-hidden="true" />
        {t('settings.dnd')}
      </Switch>
      <p className="muted call-settings-hint">{t('settings.dndHint')}</p>
      {recordingPolicy.mode !== 'off' && recordingPolicy.onDemandSequence && (
        <p className="muted call-settings-hint">{t('settings.recordingHint', { start: recordingPolicy.onDemandSequence, pause: recordingPolicy.pauseSequence })}</p>
      )}
      <div className="call-settings-forward">
        <div className="field">
          <label htmlFor={selectId}>{t('settings.forwardTo')}</label>
          <select
            id={selectId}
            className="input"
            value={selected}
            disabled={loading}
            aria-invalid={problem === 'destination_required' || undefined}
            onChange={(e) => {
              setChoice(e.target.value);
              setProblem(null);
            }}
          >
            <option value="">{t('settings.choose')}</option>
            {colleagues.map((c) => (
              <option key={c.destination_id} value={c.destination_id ?? ''}>
                {destinationLabel(c, t('settings.voicemailBox'))}
              </option>
            ))}
            <option value={NUMBER}>{t('settings.anotherNumber')}</option>
          </select>
        </div>
        {selected === NUMBER && (
          <TextField
            className="field"
            value={number}
            onChange={(v) => {
              setNumber(v);
              setProblem(null);
            }}
            isInvalid={problem === 'destination_number_invalid'}
            isDisabled={loading}
          >
            <Label>{t('settings.number')}</Label>
            <Input className="input" inputMode="tel" autoComplete="off" />
            <FieldError>{t('settings.problems.destination_number_invalid')}</FieldError>
          </TextField>
        )}
        {problem && problem !== 'destination_number_invalid' && (
          <p className="field-error" role="alert">
            {t(`settings.problems.${problem}`)}
          </p>
        )}
        <Switch className="switch" isSelected={forwarding} isDisabled={loading || settings.saving} onChange={(on) => void saveForward(on)}>
          <span className="switch-track" aria-hidden="true" />
          {t('settings.forwardAlways')}
        </Switch>
        {changed && (
          <Button className="btn" isDisabled={settings.saving} onPress={() => void saveForward(true)}>
            {t('settings.saveDestination')}
          </Button>
        )}
      </div>
    </section>
  );
}

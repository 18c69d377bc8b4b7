import { useEffect, useId, useState } from 'react';
import { Button, Label, Radio, RadioGroup, Switch, Text } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Api, Preferences, useKernel, useService } from '../../../../kernel';
import { DevicesCheckResponse } from '../../../../wire/calling';
import { CLICK_DIAL_OFF, ClickDialSetting } from '../../../../wire/clickDial';
import { log } from '../../log';

/**
 * The calling panel's click-dial tab: phone links opened here, and "call my phone first" (Call
 * rings the desk phone, which calls the number once picked up). The option saves as it changes,
 * like the other actions of this tab; the telephony plugin reads the same preference (uc-click-dial).
 */
export function ClickDialTab() {
  const { t } = useTranslation('preferences');
  const kernel = useKernel();
  const prefs = useService(Preferences);
  const api = useService(Api);
  const headingId = useId();
  const [setting, setSetting] = useState<ClickDialSetting | null>(null);
  const [desk, setDesk] = useState<boolean | null>(null);
  const [status, setStatus] = useState<'saving' | 'saved' | 'failed' | 'loadFailed' | null>(null);

  useEffect(() => {
    let live = true;
    prefs.get<unknown>('uc-click-dial').then(
      (v) => live && setSetting(ClickDialSetting.safeParse(v).data ?? CLICK_DIAL_OFF),
      (err: unknown) => (log.error('reading click-dial', err), live && setStatus('loadFailed')),
    );
    // Whether a desk phone is connected now: without one, the option would only produce errors.
    api.get('/v1/devices/check', undefined, DevicesCheckResponse).then(
      (d) => live && setDesk(d.desk_phone),
      () => undefined,
    );
    return () => void (live = false);
  }, [prefs, api]);

  const save = (next: ClickDialSetting) => {
    const before = setting;
    setSetting(next);
    setStatus('saving');
    prefs.set('uc-click-dial', next).then(
      () => setStatus('saved'),
      (err: unknown) => (log.error('saving click-dial', err), setSetting(before), setStatus('failed')),
    );
  };

  return (
    <>
      <p className="prefs-status">{t('calling.clickDialHint')}</p>
      <div>
        <Button className="btn" onPress={() => void kernel.run('telephony.phoneLinks', {}, 'button')}>
          {t('calling.phoneLinks')}
        </Button>
      </div>
      <section className="prefs-section" aria-labelledby={headingId}>
        <h3 id={headingId}>{t('clickDial.title')}</h3>
        <p className="prefs-hint">{t('clickDial.hint')}</p>
        <Switch className="prefs-switch" isSelected={setting?.enabled ?? false} isDisabled={!setting || status === 'saving'} onChange={(enabled) => setting && save({ ...setting, enabled })}>
          <span className="prefs-switch-track" aria-hidden="true" />
          {t('clickDial.enable')}
        </Switch>
        <RadioGroup className="prefs-group" value={setting?.device ?? 'desk'} isDisabled={!setting?.enabled || status === 'saving'} onChange={(device) => setting && device === 'desk' && save({ ...setting, device })}>
          <Label className="prefs-label">{t('clickDial.device')}</Label>
          <div className="prefs-options">
            <Radio value="desk" className="prefs-radio">
              {t('clickDial.desk')}
            </Radio>
            {/* Listed with its reason rather than left out: the specification offers it. */}
            <Radio value="mobile" className="prefs-radio" isDisabled>
              {t('clickDial.mobile')}
            </Radio>
          </div>
          <Text slot="description" className="prefs-hint">
            {t('clickDial.mobileUnavailable')}
          </Text>
        </RadioGroup>
        {setting?.enabled && desk === false && <p className="prefs-hint">{t('clickDial.noDesk')}</p>}
        <p role="status" className={status === 'failed' || status === 'loadFailed' ? 'prefs-error' : 'prefs-status'}>
          {status === 'saved' ? t('saved') : status === 'failed' ? t('saveFailed') : status === 'loadFailed' ? t('loadFailed') : ''}
        </p>
      </section>
    </>
  );
}

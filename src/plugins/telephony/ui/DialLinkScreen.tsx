import { useSearch } from '@tanstack/react-router';
import { Button } from 'react-aria-components';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Navigation, useCommand, useService } from '../../../kernel';
import { dialLinkTarget } from '../dialLink';
import { CALLS_PATH } from '../paths';
import { phone } from '../state';
import { useTelephonyT } from './useTelephonyT';
import './telephony.css';

/**
 * `calls/dial?to=tel:…|sip:…`: where a phone link opens (the browser's protocol handler). A link
 * on some page must not place a call by itself, so the number is shown with Call and Cancel.
 */
export default function DialLinkScreen() {
  const t = useTelephonyT();
  const { t: tAny } = useTranslation();
  // The command's enablement reads the phone's state: render again whenever it changes.
  useSnapshot(phone);
  const call = useCommand('telephony.call');
  const reasonId = useId();
  const navigation = useService(Navigation);
  const search = useSearch({ strict: false }) as { to?: string };
  const target = dialLinkTarget(search.to ?? '');
  if (!target) {
    return (
      <div className="calls-screen">
        <p role="alert">{t('dialLink.invalid')}</p>
      </div>
    );
  }
  return (
    <div className="calls-screen">
      <p>{t('dialLink.ask', { number: target })}</p>
      <div className="dialpad-actions">
        {/* A link opened in a new tab: the phone may still be connecting; the button says so. */}
        <Button
          className="btn accept"
          isDisabled={call.enablement !== true}
          aria-describedby={call.enablement !== true ? reasonId : undefined}
          onPress={() => {
            void call.run({ target });
            navigation.navigate(CALLS_PATH);
          }}
        >
          {t('dialLink.call', { number: target })}
        </Button>
        <Button className="btn" onPress={() => navigation.navigate(CALLS_PATH)}>
          {t('dialLink.cancel')}
        </Button>
      </div>
      {typeof call.enablement === 'object' && (
        <p id={reasonId} className="muted">
          {tAny(call.enablement.reasonKey)}
        </p>
      )}
    </div>
  );
}

import { useSearch } from '@tanstack/react-router';
import { Button } from 'react-aria-components';
import { Navigation, useKernel, useService } from '../../../kernel';
import { dialLinkTarget } from '../dialLink';
import { useTelephonyT } from './useTelephonyT';
import './telephony.css';

/**
 * `calls/dial?to=tel:…|sip:…`: where a phone link opens (the browser's protocol handler). A link
 * on some page must not place a call by itself, so the number is shown with Call and Cancel.
 */
export default function DialLinkScreen() {
  const t = useTelephonyT();
  const kernel = useKernel();
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
        <Button
          className="btn accept"
          autoFocus
          onPress={() => {
            void kernel.run('telephony.call', { target }, 'button');
            navigation.navigate('/calls');
          }}
        >
          {t('dialLink.call', { number: target })}
        </Button>
        <Button className="btn" onPress={() => navigation.navigate('/calls')}>
          {t('dialLink.cancel')}
        </Button>
      </div>
    </div>
  );
}

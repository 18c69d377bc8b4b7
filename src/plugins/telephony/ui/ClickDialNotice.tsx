import { Button } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { dismissClickDial } from '../engine';
import { clickDialText } from '../engine/clickDial';
import { phone } from '../state';
import { useTelephonyT } from './useTelephonyT';

/**
 * "Call my phone first" in the dock: ringing the desk phone, then the desk phone calling the number,
 * or why it did not. Announced by the engine as it changes (the shell's live regions); here to be
 * read again and dismissed.
 */
export function ClickDialNotice() {
  const t = useTelephonyT();
  const { clickDial } = useSnapshot(phone);
  if (!clickDial) return null;
  return (
    <section className={`call-dock click-dial click-dial-${clickDial.phase}`} aria-label={t('clickDial.label')}>
      <p className="click-dial-text">{clickDialText(clickDial, t)}</p>
      {clickDial.phase !== 'ringing' && (
        <Button className="btn" onPress={dismissClickDial}>
          {t('clickDial.dismiss')}
        </Button>
      )}
    </section>
  );
}

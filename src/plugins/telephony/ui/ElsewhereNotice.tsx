import { Button } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { useKernel } from '../../../kernel';
import { phone } from '../state';
import { useTelephonyT } from './useTelephonyT';

/** On the calls screens: why nothing rings here, and the way to move calling to this window. */
export function ElsewhereNotice() {
  const t = useTelephonyT();
  const kernel = useKernel();
  const { status } = useSnapshot(phone);
  if (status !== 'elsewhere') return null;
  return (
    <div className="calls-notice" role="status">
      <p>
        <strong>{t('notices.elsewhereTitle')}</strong> {t('notices.elsewhere')}
      </p>
      <Button className="btn primary" onPress={() => void kernel.run('telephony.takeOver', {}, 'button')}>
        {t('commands.takeOver')}
      </Button>
    </div>
  );
}

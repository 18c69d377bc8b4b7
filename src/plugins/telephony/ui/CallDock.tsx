import { useSnapshot } from 'valtio';
import { callList, phone } from '../state';
import { CallItem, dockOrder } from './CallItem';
import { DialpadPopup } from './DialpadPopup';
import { useTelephonyT } from './useTelephonyT';
import './telephony.css';

/** Every current call, above the screen on every route, and the dialpad popup when it is open. */
export default function CallDock() {
  const t = useTelephonyT();
  const s = useSnapshot(phone);
  const calls = dockOrder(callList(s.calls));
  return (
    <>
      {calls.length > 0 && (
        <section className="call-dock" aria-label={t('dock.label')}>
          <ul className="call-list">
            {calls.map((c) => (
              <li key={c.id}>
                <CallItem call={c} calls={calls} />
              </li>
            ))}
          </ul>
        </section>
      )}
      {s.dialpadOpen && <DialpadPopup />}
    </>
  );
}

import { ToggleButton } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { useKernel } from '../../../kernel';
import { currentSettings } from '../engine';
import { callList, phone } from '../state';
import { CallItem, dockOrder } from './CallItem';
import { ClickDialNotice } from './ClickDialNotice';
import { destinationLabel } from './CallSettingsPanel';
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
          <DockToggles />
        </section>
      )}
      <ClickDialNotice />
      {s.dialpadOpen && <DialpadPopup />}
    </>
  );
}

/**
 * Do-not-disturb and forward-always while on a call (a busy user silences the next caller, or sends
 * calls on, without leaving the call). Forwarding here uses the destination saved on the calls screen.
 */
function DockToggles() {
  const t = useTelephonyT();
  const kernel = useKernel();
  const { settings } = useSnapshot(phone);
  const saved = settings.forwardAlways?.destination ?? null;
  const forwarding = settings.forwardAlways?.enabled === true;
  const loading = settings.dnd === null;
  return (
    <div className="dock-toggles" role="group" aria-label={t('settings.title')}>
      <ToggleButton
        className="btn"
        isSelected={settings.dnd === true}
        isDisabled={loading || settings.saving}
        onChange={(on) => void kernel.run(on ? 'telephony.dndOn' : 'telephony.dndOff', {}, 'button')}
      >
        {t('settings.dnd')}
      </ToggleButton>
      <ToggleButton
        className="btn"
        isSelected={forwarding}
        isDisabled={loading || settings.saving || (!forwarding && !saved)}
        onChange={(on) => void currentSettings()?.setForwardAlways(on)}
      >
        {saved ? t('settings.forwardToName', { to: destinationLabel(saved, t('settings.voicemailBox')) }) : t('settings.forwardAlways')}
      </ToggleButton>
    </div>
  );
}

import { useId } from 'react';
import { GridList, GridListItem } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { Navigation, useService } from '../../../kernel';
import { callList, phone } from '../state';
import { callName, CallStatus } from './CallItem';
import { CallSettingsPanel } from './CallSettingsPanel';
import { DevicePicker } from './DevicePicker';
import { ThisComputer } from './ThisComputer';
import { Dialpad } from './Dialpad';
import { ElsewhereNotice } from './ElsewhereNotice';
import { useTelephonyT } from './useTelephonyT';
import './telephony.css';

/** `calls`: the current calls (one tab stop; Enter opens a call's details) and the dialpad. */
export default function CallsScreen() {
  const t = useTelephonyT();
  const s = useSnapshot(phone);
  const calls = callList(s.calls);
  const navigation = useService(Navigation);
  const currentId = useId();
  const devicesId = useId();
  return (
    <div className="calls-screen">
      <ElsewhereNotice />
      <div>
        <h2 id={currentId}>{t('screen.current')}</h2>
        {calls.length === 0 ? (
          <p className="muted">{t('screen.none')}</p>
        ) : (
          <GridList aria-labelledby={currentId} className="calls-links" items={calls} onAction={(id) => navigation.navigate(`/calls/${String(id)}`)}>
            {(c) => (
              <GridListItem id={c.id} textValue={callName(c)} className="calls-link-row">
                <span className="calls-link">{callName(c)}</span> <CallStatus call={c} />
              </GridListItem>
            )}
          </GridList>
        )}
      </div>
      {s.status !== 'unconfigured' && (
        <div className="calls-dialpad">
          <h2>{t('dialpad.title')}</h2>
          <Dialpad />
        </div>
      )}
      {s.status !== 'unconfigured' && <CallSettingsPanel />}
      {s.status !== 'unconfigured' && (
        <section aria-labelledby={devicesId}>
          <h2 id={devicesId}>{t('devices.title')}</h2>
          <DevicePicker />
        </section>
      )}
      {s.status !== 'unconfigured' && <ThisComputer />}
    </div>
  );
}

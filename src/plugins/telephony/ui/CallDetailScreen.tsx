import { Link, useParams } from '@tanstack/react-router';
import { useSnapshot } from 'valtio';
import { callList, phone } from '../state';
import { formatPhone } from '../../../wire/phone';
import { CallItem, callName, CallStatus } from './CallItem';
import { useTelephonyT } from './useTelephonyT';
import './telephony.css';

/** `calls/$id`: one current call with its details and controls. */
export default function CallDetailScreen() {
  const t = useTelephonyT();
  const { id } = useParams({ strict: false }) as { id?: string };
  const s = useSnapshot(phone);
  const call = id ? s.calls[id] : undefined;
  if (!call) {
    return (
      <div className="calls-screen">
        <p>{t('screen.gone')}</p>
        <Link to="/calls">{t('screen.back')}</Link>
      </div>
    );
  }
  return (
    <div className="calls-screen">
      <h2>{callName(call)}</h2>
      <dl className="calls-facts">
        <div>
          <dt>{t('screen.number')}</dt>
          <dd>{formatPhone(call.number)}</dd>
        </div>
        <div>
          <dt>{t('screen.direction')}</dt>
          <dd>{t(call.direction === 'incoming' ? 'screen.incoming' : 'screen.outgoing')}</dd>
        </div>
        <div>
          <dt>{t('screen.status')}</dt>
          <dd>
            <CallStatus call={call} />
          </dd>
        </div>
      </dl>
      <CallItem call={call} calls={callList(s.calls)} />
      <p>
        <Link to="/calls">{t('screen.back')}</Link>
      </p>
    </div>
  );
}

import { useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { Button, FieldError, Form, Input, Label, TextField } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { Navigation, Session, useKernel, useMaybeService, useService } from '../../../kernel';
import { dialable } from '../commands';
import { transferableCallId } from '../model/transfer';
import { callList, phone } from '../state';
import { CallItem, callName } from './CallItem';
import { useTelephonyT } from './useTelephonyT';
import './telephony.css';

/** With no call to transfer, the screen says so this long and then goes back to the main screen. */
export const NO_CALL_REDIRECT_MS = 4000;

/**
 * `calls/transfer` (optional `number`): hand the current call over, at once (blind) or after
 * talking to the target first (attended, with its completion control). What was typed stays when
 * the transfer fails.
 */
export default function TransferScreen() {
  const t = useTelephonyT();
  const kernel = useKernel();
  const navigation = useService(Navigation);
  const search = useSearch({ strict: false }) as { number?: string };
  const s = useSnapshot(phone);
  const [target, setTarget] = useState(search.number ?? '');
  const [error, setError] = useState<string | null>(null);
  const callId = transferableCallId(phone.calls);
  const call = callId ? s.calls[callId] : undefined;
  const consult = callList(s.calls).find((c) => c.consultFor && c.state !== 'none');
  const original = consult?.consultFor ? s.calls[consult.consultFor] : undefined;
  const attended = kernel.features.attendedTransfer === true;
  const hasCell = useMaybeService(Session)?.profile.phone_numbers.some((p) => p.source === 'personal' && p.number) === true;

  useEffect(() => {
    if (call || consult) return;
    const timer = setTimeout(() => navigation.navigate('/'), NO_CALL_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [call, consult, navigation]);

  if (!call && !consult) {
    return (
      <div className="calls-screen">
        <div role="alert" className="calls-notice">
          <p>
            <strong>{t('transfer.noActiveCall')}</strong> {t('transfer.unavailable')}
          </p>
        </div>
      </div>
    );
  }

  const go = (command: 'telephony.transfer' | 'telephony.transferAttended' | 'telephony.transferToVoicemail') => {
    const problem = dialable(target);
    if (problem) {
      setError(t('transfer.needTarget'));
      return;
    }
    setError(null);
    void kernel.run(command, { target: target.trim(), id: callId }, 'button');
  };

  if (consult && original) {
    return (
      <div className="calls-screen">
        <p>{t('transfer.consulting', { name: callName(original), to: callName(consult) })}</p>
        <ul className="call-list">
          {[consult, original].map((c) => (
            <li key={c.id}>
              <CallItem call={c} calls={callList(s.calls)} />
            </li>
          ))}
        </ul>
      </div>
    );
  }

  return (
    <div className="calls-screen">
      <Form
        className="transfer-form"
        validationBehavior="aria"
        onSubmit={(e) => {
          e.preventDefault();
          go('telephony.transfer');
        }}
      >
        <p>{t('transfer.intro', { name: call ? callName(call) : '' })}</p>
        {call?.transfer && (
          <p role="status" className={call.transfer.status === 'failed' ? 'field-error' : 'muted'}>
            {t(call.transfer.status === 'failed' ? 'transfer.failed' : 'transfer.pending', { to: call.transfer.target })}
          </p>
        )}
        <TextField className="field" value={target} onChange={(v) => (setTarget(v), setError(null))} isInvalid={error !== null}>
          <Label>{t('transfer.to')}</Label>
          <Input className="input" inputMode="tel" autoComplete="off" />
          <FieldError>{error}</FieldError>
        </TextField>
        <div className="dialpad-actions">
          <Button type="submit" className="btn primary" isDisabled={call?.transfer?.status === 'pending'}>
            {t('transfer.now')}
          </Button>
          {attended && (
            <Button className="btn" isDisabled={call?.transfer?.status === 'pending'} onPress={() => go('telephony.transferAttended')}>
              {t('transfer.talkFirst')}
            </Button>
          )}
          <Button className="btn" isDisabled={call?.transfer?.status === 'pending'} onPress={() => go('telephony.transferToVoicemail')}>
            {t('transfer.toVoicemail')}
          </Button>
        </div>
      </Form>
      {(hasCell || s.deskPhone) && (
        <div role="group" aria-label={t('transfer.moveTitle')} className="dialpad-actions">
          <span className="muted">{t('transfer.moveTitle')}</span>
          {hasCell && (
            <Button className="btn" isDisabled={call?.transfer?.status === 'pending'} onPress={() => void kernel.run('telephony.moveToCell', { id: callId }, 'button')}>
              {t('transfer.toMobile')}
            </Button>
          )}
          {s.deskPhone && (
            <Button className="btn" isDisabled={call?.transfer?.status === 'pending'} onPress={() => void kernel.run('telephony.moveToDesk', { id: callId }, 'button')}>
              {t('transfer.toDeskPhone')}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

import { useId, useState } from 'react';
import { Button } from 'react-aria-components';
import { useKernel } from '../../../kernel';
import { formatPhone } from '../../../wire/phone';
import { nextRecordingAction } from '../../../wire/recording';
import { callItemActions, callStatusText, threeWayGate, type CallItemAction, type ThreeWayGate } from '../model/callButtons';
import { phone } from '../state';
import { useSnapshot } from 'valtio';
import type { CallRecord } from '../state';
import { CallTimer } from './CallTimer';
import { DevicePicker } from './DevicePicker';
import { KeyGrid } from './KeyGrid';
import { useTelephonyT } from './useTelephonyT';

type Call = Readonly<CallRecord>;

/** Who the call is with: the contact or caller name, else the number as every other screen shows it. */
export const callName = (c: Call) => c.displayName || formatPhone(c.number);

/** Ringing calls first (their Accept and Decline lead the dock), then the others in arrival order. */
export function dockOrder(calls: readonly Call[]): Call[] {
  return [...calls].sort((a, b) => Number(b.state === 'incoming') - Number(a.state === 'incoming') || a.seq - b.seq);
}

/** For a ringing call: an accept first, Decline second, then the rest, as the layout asks. */
function orderedActions(call: Call, calls: readonly Call[], gate: ThreeWayGate): CallItemAction[] {
  const actions = callItemActions(call, calls, gate);
  if (call.state !== 'incoming') return actions;
  const accept = actions.find((a) => a === 'accept' || a === 'holdAndAccept') ?? actions.find((a) => a === 'endAndAccept');
  return [...(accept ? [accept] : []), 'dismiss', ...actions.filter((a) => a !== accept && a !== 'dismiss')];
}

export function CallStatus({ call }: { call: Call }) {
  const t = useTelephonyT();
  if (call.state === 'none') return <span className="call-status">{t(`dock.ended.${call.ended ?? 'ended'}`)}</span>;
  const text = callStatusText(call.state);
  if (text) return <span className={`call-status ${text}`}>{t(`dock.${text}`)}</span>;
  if (call.state === 'answering') return <span className="call-status">{t('dock.connecting')}</span>;
  return <span className="call-status">{call.startedAt !== null ? <CallTimer since={call.startedAt} /> : null}</span>;
}

/** One call in the dock or on the calls screens: who, its state, and the buttons that fit it. */
export function CallItem({ call, calls }: { call: Call; calls: readonly Call[] }) {
  const t = useTelephonyT();
  const kernel = useKernel();
  const nameId = useId();
  const keypadId = useId();
  const [keypad, setKeypad] = useState(false);
  const [devicesOpen, setDevicesOpen] = useState(false);
  const devicesId = useId();
  const run = (command: string, args: Record<string, unknown>) => void kernel.run(command, { id: call.id, ...args }, 'button');
  const name = callName(call);
  const recordingMode = useSnapshot(phone).recordingPolicy.mode;
  const gate = threeWayGate(kernel.features, typeof navigator === 'object' ? navigator.userAgent : '');
  const recordAction = nextRecordingAction(call.recording, recordingMode);
  // Ringing and held calls get the item buttons (accept, swap, merge…: callButtons.ts); others their own controls.
  const itemButtons = call.state === 'incoming' || call.state === 'hold';

  const actionLabel = (a: CallItemAction): string => {
    if (a === 'accept') return t(call.state === 'hold' ? 'dock.resume' : 'dock.accept');
    if (a === 'dismiss') return t(call.state === 'incoming' ? 'dock.decline' : 'dock.actions.dismiss');
    return t(`dock.actions.${a}`);
  };
  const actionClass = (a: CallItemAction) => (a === 'accept' || a === 'holdAndAccept' ? 'btn accept' : a === 'dismiss' || a === 'end' ? 'btn hangup' : 'btn');

  return (
    <div className={`call-item call-${call.state}`} role="group" aria-labelledby={nameId}>
      <div className="call-who">
        <span id={nameId} className="call-name">
          {name}
        </span>
        {call.displayName && call.displayName !== call.number && <span className="call-number">{formatPhone(call.number)}</span>}
        {call.state === 'incoming' && <span className="call-direction">{t('dock.incoming')}</span>}
      </div>
      <CallStatus call={call} />
      {call.muted && call.state !== 'none' && <span className="call-flag">{t('dock.muted')}</span>}
      {call.transfer && (
        <span className={`call-flag${call.transfer.status === 'failed' ? ' failed' : ''}`}>
          {t(call.transfer.status === 'failed' ? 'transfer.failed' : 'transfer.pending', { to: call.transfer.target })}
        </span>
      )}
      {call.consultFor && call.state !== 'none' && <span className="call-flag">{t('transfer.consultFlag')}</span>}
      {call.mergedWith && call.state !== 'none' && <span className="call-flag">{t('dock.conference')}</span>}
      {call.recording !== 'none' && <span className={`call-flag rec-${call.recording}`}>{t(`dock.recording.${call.recording}`)}</span>}
      {recordingMode === 'on' && (call.state === 'outgoing' || call.state === 'answering') && <span className="call-flag">{t('dock.recordedNotice')}</span>}
      {call.state !== 'none' && (
        <div className="call-actions">
          {itemButtons &&
            orderedActions(call, calls, gate).map((a) => (
              <Button key={a} className={actionClass(a)} onPress={() => run('telephony.callAction', { action: a })}>
                {actionLabel(a)}
              </Button>
            ))}
          {call.state === 'active' && (
            <>
              <Button className="btn" onPress={() => run('telephony.hold', {})}>
                {t('dock.hold')}
              </Button>
              <Button className="btn" onPress={() => run('telephony.mute', {})}>
                {t(call.muted ? 'dock.unmute' : 'dock.mute')}
              </Button>
              {call.consultFor ? (
                <>
                  <Button className="btn primary" onPress={() => run('telephony.completeTransfer', {})}>
                    {t('transfer.complete')}
                  </Button>
                  <Button className="btn" onPress={() => run('telephony.cancelTransfer', {})}>
                    {t('transfer.cancel')}
                  </Button>
                </>
              ) : (
                <Button className="btn" onPress={() => run('telephony.transferScreen', {})}>
                  {t('dock.transfer')}
                </Button>
              )}
              {recordAction && call.sipCallId && (
                <Button className="btn" onPress={() => run('telephony.record', {})}>
                  {t(`dock.record.${recordAction}`)}
                </Button>
              )}
              <Button className="btn" aria-expanded={devicesOpen} aria-controls={devicesOpen ? devicesId : undefined} onPress={() => setDevicesOpen((o) => !o)}>
                {t('dock.devices')}
              </Button>
              <Button className="btn" aria-expanded={keypad} aria-controls={keypad ? keypadId : undefined} onPress={() => setKeypad((k) => !k)}>
                {t('dock.keypad')}
              </Button>
            </>
          )}
          {(call.state === 'active' || call.state === 'outgoing' || call.state === 'answering') && (
            <Button className="btn hangup" onPress={() => run('telephony.hangup', {})}>
              {t('dock.hangup')}
            </Button>
          )}
        </div>
      )}
      {devicesOpen && call.state === 'active' && <DevicePicker id={devicesId} />}
      {keypad && call.state === 'active' && <KeyGrid id={keypadId} label={t('dock.keypadFor', { name })} onKey={(key) => run('telephony.dtmf', { digits: key })} />}
    </div>
  );
}

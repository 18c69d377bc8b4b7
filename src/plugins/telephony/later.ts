import { Session, type Enablement, type PluginLater } from '../../kernel';
import { telephonyCommands } from './commands';
import type { CallState } from './model/callState';
import { cellNumber, transferableCallId } from './model/transfer';
import { phone } from './state';

/*
 * The later part (loaded after the first screen): the words the palette finds each command by, and
 * whether it may run, read from the phone's state and its calls, with the reason shown beside it
 * when it may not.
 */

const why = (key: string): Enablement => ({ reasonKey: `telephony:reasons.${key}` });

function phoneReady(): Enablement {
  const s = phone.status;
  return s === 'ready' ? true : why(s === 'unconfigured' ? 'notConfigured' : s === 'elsewhere' ? 'elsewhere' : s === 'error' ? 'notConnected' : 'connecting');
}

/** Enabled while some call is in one of `states` (even if the connection dropped); otherwise why not. */
function needCall(states: readonly CallState[], reason: string): Enablement {
  if (Object.values(phone.calls).some((c) => states.includes(c.state))) return true;
  const ready = phoneReady();
  return ready === true ? why(reason) : ready;
}

const BUSY: readonly CallState[] = ['active', 'outgoing', 'answering'];

function canCall(): Enablement {
  const ready = phoneReady();
  return ready !== true ? ready : Object.values(phone.calls).some((c) => BUSY.includes(c.state)) ? why('busy') : true;
}

const consultation = (state?: CallState) => Object.values(phone.calls).find((c) => c.consultFor && c.state !== 'none' && (!state || c.state === state));
function canTransfer(): Enablement {
  if (transferableCallId(phone.calls)) return true;
  const ready = phoneReady();
  return ready === true ? why('noCall') : ready;
}

/** The call settings can be changed once they have been read from the server. */
function settingsReady(): Enablement {
  if (phone.status === 'unconfigured') return why('notConfigured');
  return phone.settings.dnd === null ? why('settingsLoading') : true;
}
const settingsThen = (ok: () => boolean, reason: string) => (): Enablement => {
  const ready = settingsReady();
  return ready !== true ? ready : ok() ? true : why(reason);
};

function canMerge(): Enablement {
  const calls = Object.values(phone.calls);
  if (calls.some((c) => c.mergedWith && c.state !== 'none')) return why('alreadyThreeWay');
  return calls.some((c) => c.state === 'hold') && calls.some((c) => c.state === 'active') ? true : why('noMerge');
}

export const later: PluginLater = {
  commands: telephonyCommands.later({
    go: { keywords: ['phone', 'dialpad'] },
    call: { keywords: ['dial', 'phone', 'number'], enabled: canCall },
    answer: { keywords: ['pick up', 'accept'], enabled: () => needCall(['incoming'], 'noIncoming') },
    decline: { keywords: ['reject', 'ignore'], enabled: () => needCall(['incoming'], 'noIncoming') },
    hangup: { keywords: ['end call'], enabled: () => needCall([...BUSY, 'hold'], 'noCall') },
    hold: { keywords: ['resume', 'unhold'], enabled: () => needCall(['active', 'hold'], 'noCall') },
    mute: { keywords: ['unmute', 'microphone'], enabled: () => needCall(['active', 'hold'], 'noCall') },
    dtmf: { keywords: ['tones', 'keypad', 'digits'], enabled: () => needCall(['active'], 'noActive') },
    dialpad: { keywords: ['keypad', 'dial'], enabled: () => (phone.status === 'unconfigured' ? why('notConfigured') : phone.status === 'elsewhere' ? why('elsewhere') : true) },
    takeOver: { keywords: ['calling here', 'phone'], enabled: () => (phone.status === 'elsewhere' ? true : why(phone.status === 'unconfigured' ? 'notConfigured' : 'notElsewhere')) },
    transferScreen: { keywords: ['transfer', 'hand over'] },
    transfer: { keywords: ['transfer', 'blind transfer', 'hand over'], enabled: canTransfer },
    transferToVoicemail: { keywords: ['transfer', 'voicemail', 'mailbox', 'leave a message'], enabled: canTransfer },
    transferAttended: { keywords: ['attended transfer', 'consult', 'warm transfer', 'talk first'], enabled: () => (consultation() ? why('transferPending') : canTransfer()) },
    moveToCell: {
      keywords: ['move call', 'mobile', 'cell phone', 'take the call with me'],
      enabled: (ctx) => {
        const can = canTransfer();
        return can !== true ? can : cellNumber(ctx.services.maybe(Session)?.profile) ? true : why('noCell');
      },
    },
    moveToDesk: {
      keywords: ['move call', 'desk phone', 'desk', 'handset', 'pick up at my desk'],
      enabled: () => {
        const can = canTransfer();
        return can !== true ? can : phone.deskPhone ? true : why('noDesk');
      },
    },
    completeTransfer: { keywords: ['transfer', 'complete', 'connect'], enabled: () => (consultation('active') ? true : why('noConsultation')) },
    cancelTransfer: { keywords: ['transfer', 'cancel', 'back'], enabled: () => (consultation() ? true : why('noConsultation')) },
    merge: { keywords: ['3-way', 'three way', 'conference', 'join calls'], enabled: canMerge },
    record: { keywords: ['recording', 'pause recording', 'resume recording'], enabled: () => (phone.recordingPolicy.mode === 'off' ? why('recordingOff') : needCall(['active', 'hold'], 'noCall')) },
    // A measured call to the echo number (*43): needs the line free, like any call.
    testConnection: { keywords: ['echo', 'test call', 'call quality', 'network', 'latency', 'microphone test', '*43'], enabled: canCall },
    dndOn: { keywords: ['do not disturb', 'dnd', 'busy', 'silence'], enabled: settingsThen(() => phone.settings.dnd === false, 'dndIsOn') },
    dndOff: { keywords: ['do not disturb', 'dnd', 'available'], enabled: settingsThen(() => phone.settings.dnd === true, 'dndIsOff') },
    forwardOn: { keywords: ['forward', 'divert', 'redirect', 'call forwarding'], enabled: settingsReady },
    forwardOff: { keywords: ['forward', 'divert', 'call forwarding'], enabled: settingsThen(() => phone.settings.forwardAlways?.enabled === true, 'notForwarding') },
    notifications: {
      keywords: ['desktop notifications', 'alerts', 'incoming call', 'chat', 'messages', 'texts'],
      enabled: () =>
        typeof Notification !== 'function' ? why('noNotifications') : Notification.permission === 'granted' ? why('notificationsOn') : Notification.permission === 'denied' ? why('notificationsBlocked') : true,
    },
    phoneLinks: { keywords: ['tel', 'sip', 'links', 'default phone app'], enabled: () => (typeof navigator === 'object' && 'registerProtocolHandler' in navigator ? true : why('noPhoneLinks')) },
  }),
};

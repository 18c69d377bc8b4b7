import { defineCommands, Navigation, Session, type CommandRow, type Enablement } from '../../kernel';
import { CONTACTS_PROVIDER } from '../../contracts';
import { telephonyChunk } from './chunk';
import type { CallState } from './model/callState';
import { cellNumber, transferableCallId } from './model/transfer';
import { CALLS_PATH, TRANSFER_PATH } from './paths';
import { phone } from './state';

const why = (key: string): Enablement => ({ reasonKey: `telephony:reasons.${key}` });

export function phoneReady(): Enablement {
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

/** Something to call: a sip: address, or a dial string with a number or a #shortcut. */
export const dialable = (text: string): string | null =>
  /^sips?:./i.test(text.trim()) || /^(#[^,]|[^,#])/.test(text.replace(/[^0-9,#*]/g, '')) ? null : 'telephony:args.needNumber';

/** A call that can be transferred: connected or held, not itself a consultation call. */
export const transferableCall = (): string | undefined => transferableCallId(phone.calls);
const consultation = (state?: CallState) => Object.values(phone.calls).find((c) => c.consultFor && c.state !== 'none' && (!state || c.state === state));
function canTransfer(): Enablement {
  if (transferableCall()) return true;
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

/** The call a button acts on (the dock's, the transfer screen's); without it, the current call. */
const call = { id: 'string' } as const;
const transferArgs = [{ name: 'target', titleKey: 'telephony:args.transferTo', kind: 'choice', provider: CONTACTS_PROVIDER, allowFreeText: true, validate: dialable }] as const;

/*
 * A call must be answerable and endable while typing (a chat message, a search): the call-control
 * chords ($mod+Shift+a/d/e/h/m) type nothing, so they also work in text fields.
 */
export const telephonyTable = {
  go: { keywords: ['phone', 'dialpad'], run: (ctx) => ctx.services.get(Navigation).navigate(CALLS_PATH) },
  call: {
    keywords: ['dial', 'phone', 'number'],
    enabled: canCall,
    // dialable: parseDialString(text).kind !== 'empty' without loading the dial-string rules at
    // boot (plugin.test.ts checks that both agree), or a sip: address.
    args: [{ name: 'target', titleKey: 'telephony:args.target', kind: 'choice', provider: CONTACTS_PROVIDER, allowFreeText: true, validate: dialable }],
    // "#12" alone in the palette dials speed-dial shortcut 12 (a leading # is a shortcut), not a search for 12.
    takesQuery: /^#\d+$/,
  },
  answer: { keywords: ['pick up', 'accept'], keys: '$mod+Shift+a', allowInInputs: true, given: call, enabled: () => needCall(['incoming'], 'noIncoming') },
  decline: { keywords: ['reject', 'ignore'], keys: '$mod+Shift+d', allowInInputs: true, given: call, enabled: () => needCall(['incoming'], 'noIncoming') },
  hangup: { keywords: ['end call'], keys: '$mod+Shift+e', allowInInputs: true, given: call, enabled: () => needCall([...BUSY, 'hold'], 'noCall') },
  hold: { keywords: ['resume', 'unhold'], keys: '$mod+Shift+h', allowInInputs: true, given: call, enabled: () => needCall(['active', 'hold'], 'noCall') },
  mute: { keywords: ['unmute', 'microphone'], keys: '$mod+Shift+m', allowInInputs: true, given: call, enabled: () => needCall(['active', 'hold'], 'noCall') },
  dtmf: {
    keywords: ['tones', 'keypad', 'digits'],
    enabled: () => needCall(['active'], 'noActive'),
    args: [{ name: 'digits', titleKey: 'telephony:args.digits', kind: 'text', validate: (text) => (/^[0-9*#\s]+$/.test(text) ? null : 'telephony:args.badDigits') }],
    given: call,
  },
  dialpad: {
    keywords: ['keypad', 'dial'],
    keys: '$mod+Shift+k',
    enabled: () => (phone.status === 'unconfigured' ? why('notConfigured') : phone.status === 'elsewhere' ? why('elsewhere') : true),
    run: () => {
      phone.dialpadOpen = true;
    },
  },
  takeOver: { keywords: ['calling here', 'phone'], enabled: () => (phone.status === 'elsewhere' ? true : why(phone.status === 'unconfigured' ? 'notConfigured' : 'notElsewhere')) },
  transferScreen: { keywords: ['transfer', 'hand over'], keys: '$mod+Shift+x', run: (ctx) => ctx.services.get(Navigation).navigate(TRANSFER_PATH) },
  transfer: { keywords: ['transfer', 'blind transfer', 'hand over'], enabled: canTransfer, args: transferArgs, given: call },
  transferToVoicemail: { keywords: ['transfer', 'voicemail', 'mailbox', 'leave a message'], enabled: canTransfer, args: transferArgs, given: call },
  transferAttended: {
    keywords: ['attended transfer', 'consult', 'warm transfer', 'talk first'],
    enabled: () => (consultation() ? why('transferPending') : canTransfer()),
    args: transferArgs,
    given: call,
    feature: 'attendedTransfer',
  },
  moveToCell: {
    keywords: ['move call', 'mobile', 'cell phone', 'take the call with me'],
    given: call,
    enabled: (ctx) => {
      const can = canTransfer();
      return can !== true ? can : cellNumber(ctx.services.maybe(Session)?.profile) ? true : why('noCell');
    },
  },
  moveToDesk: {
    keywords: ['move call', 'desk phone', 'desk', 'handset', 'pick up at my desk'],
    given: call,
    enabled: () => {
      const can = canTransfer();
      return can !== true ? can : phone.deskPhone ? true : why('noDesk');
    },
  },
  completeTransfer: { keywords: ['transfer', 'complete', 'connect'], given: call, enabled: () => (consultation('active') ? true : why('noConsultation')) },
  cancelTransfer: { keywords: ['transfer', 'cancel', 'back'], given: call, enabled: () => (consultation() ? true : why('noConsultation')) },
  merge: { keywords: ['3-way', 'three way', 'conference', 'join calls'], given: call, enabled: canMerge, feature: 'threeWayCalling' },
  record: {
    keywords: ['recording', 'pause recording', 'resume recording'],
    given: call,
    enabled: () => (phone.recordingPolicy.mode === 'off' ? why('recordingOff') : needCall(['active', 'hold'], 'noCall')),
  },
  // A measured call to the echo number (*43): needs the line free, like any call.
  testConnection: { keywords: ['echo', 'test call', 'call quality', 'network', 'latency', 'microphone test', '*43'], enabled: canCall },
  dndOn: { keywords: ['do not disturb', 'dnd', 'busy', 'silence'], enabled: settingsThen(() => phone.settings.dnd === false, 'dndIsOn') },
  dndOff: { keywords: ['do not disturb', 'dnd', 'available'], enabled: settingsThen(() => phone.settings.dnd === true, 'dndIsOff') },
  forwardOn: {
    keywords: ['forward', 'divert', 'redirect', 'call forwarding'],
    enabled: settingsReady,
    args: [{ name: 'to', titleKey: 'telephony:args.forwardTo', kind: 'choice', provider: CONTACTS_PROVIDER, allowFreeText: true, validate: (text) => (/[0-9]/.test(text) ? null : 'telephony:args.needForwardNumber') }],
  },
  forwardOff: { keywords: ['forward', 'divert', 'call forwarding'], enabled: settingsThen(() => phone.settings.forwardAlways?.enabled === true, 'notForwarding') },
  // The product's one notification permission: calls, chat messages and texts all notify through it.
  notifications: {
    keywords: ['desktop notifications', 'alerts', 'incoming call', 'chat', 'messages', 'texts'],
    enabled: () =>
      typeof Notification !== 'function' ? why('noNotifications') : Notification.permission === 'granted' ? why('notificationsOn') : Notification.permission === 'denied' ? why('notificationsBlocked') : true,
  },
  phoneLinks: {
    keywords: ['tel', 'sip', 'links', 'default phone app'],
    enabled: () => (typeof navigator === 'object' && 'registerProtocolHandler' in navigator ? true : why('noPhoneLinks')),
  },
  // The dock's per-call buttons (end-and-accept, swap…): buttons run commands like every surface.
  callAction: { listed: 'never', given: { id: 'string', action: 'string' } },
} as const satisfies Record<string, CommandRow>;

/** `go`, `dialpad` and `transferScreen` run at boot; the rest run in the telephony chunk (runs.ts). */
export const telephonyCommands = defineCommands('telephony', telephonyTable, {
  lazy: () => telephonyChunk.load().then((m) => m.runs),
});

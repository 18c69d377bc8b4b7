import { defineCommands, Navigation, type CommandRow } from '../../kernel';
import { CONTACTS_PROVIDER } from '../../contracts';
import { telephonyChunk } from './chunk';
import { CALLS_PATH, TRANSFER_PATH } from './paths';
import { phone } from './state';

/** Something to call: a sip: address, or a dial string with a number or a #shortcut. */
export const dialable = (text: string): string | null =>
  /^sips?:./i.test(text.trim()) || /^(#[^,]|[^,#])/.test(text.replace(/[^0-9,#*]/g, '')) ? null : 'telephony:args.needNumber';

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
    // dialable: parseDialString(text).kind !== 'empty' without loading the dial-string rules at
    // boot (plugin.test.ts checks that both agree), or a sip: address.
    args: [{ name: 'target', titleKey: 'telephony:args.target', kind: 'choice', provider: CONTACTS_PROVIDER, allowFreeText: true, validate: dialable }],
    // "#12" alone in the palette dials speed-dial shortcut 12 (a leading # is a shortcut), not a search for 12.
    takesQuery: /^#\d+$/,
  },
  answer: { keywords: ['pick up', 'accept'], keys: '$mod+Shift+a', allowInInputs: true, given: call },
  decline: { keywords: ['reject', 'ignore'], keys: '$mod+Shift+d', allowInInputs: true, given: call },
  hangup: { keywords: ['end call'], keys: '$mod+Shift+e', allowInInputs: true, given: call },
  hold: { keywords: ['resume', 'unhold'], keys: '$mod+Shift+h', allowInInputs: true, given: call },
  mute: { keywords: ['unmute', 'microphone'], keys: '$mod+Shift+m', allowInInputs: true, given: call },
  dtmf: {
    keywords: ['tones', 'keypad', 'digits'],
    args: [{ name: 'digits', titleKey: 'telephony:args.digits', kind: 'text', validate: (text) => (/^[0-9*#\s]+$/.test(text) ? null : 'telephony:args.badDigits') }],
    given: call,
  },
  dialpad: {
    keywords: ['keypad', 'dial'],
    keys: '$mod+Shift+k',
    run: () => {
      phone.dialpadOpen = true;
    },
  },
  takeOver: { keywords: ['calling here', 'phone'] },
  transferScreen: { keywords: ['transfer', 'hand over'], keys: '$mod+Shift+x', run: (ctx) => ctx.services.get(Navigation).navigate(TRANSFER_PATH) },
  transfer: { keywords: ['transfer', 'blind transfer', 'hand over'], args: transferArgs, given: call },
  transferToVoicemail: { keywords: ['transfer', 'voicemail', 'mailbox', 'leave a message'], args: transferArgs, given: call },
  transferAttended: {
    keywords: ['attended transfer', 'consult', 'warm transfer', 'talk first'],
    args: transferArgs,
    given: call,
    feature: 'attendedTransfer',
  },
  moveToCell: {
    keywords: ['move call', 'mobile', 'cell phone', 'take the call with me'],
    given: call,
  },
  moveToDesk: {
    keywords: ['move call', 'desk phone', 'desk', 'handset', 'pick up at my desk'],
    given: call,
  },
  completeTransfer: { keywords: ['transfer', 'complete', 'connect'], given: call },
  cancelTransfer: { keywords: ['transfer', 'cancel', 'back'], given: call },
  merge: { keywords: ['3-way', 'three way', 'conference', 'join calls'], given: call, feature: 'threeWayCalling' },
  record: {
    keywords: ['recording', 'pause recording', 'resume recording'],
    given: call,
  },
  // A measured call to the echo number (*43): needs the line free, like any call.
  testConnection: { keywords: ['echo', 'test call', 'call quality', 'network', 'latency', 'microphone test', '*43'] },
  dndOn: { keywords: ['do not disturb', 'dnd', 'busy', 'silence'] },
  dndOff: { keywords: ['do not disturb', 'dnd', 'available'] },
  forwardOn: {
    keywords: ['forward', 'divert', 'redirect', 'call forwarding'],
    args: [{ name: 'to', titleKey: 'telephony:args.forwardTo', kind: 'choice', provider: CONTACTS_PROVIDER, allowFreeText: true, validate: (text) => (/[0-9]/.test(text) ? null : 'telephony:args.needForwardNumber') }],
  },
  forwardOff: { keywords: ['forward', 'divert', 'call forwarding'] },
  // The product's one notification permission: calls, chat messages and texts all notify through it.
  notifications: {
    keywords: ['desktop notifications', 'alerts', 'incoming call', 'chat', 'messages', 'texts'],
  },
  phoneLinks: {
    keywords: ['tel', 'sip', 'links', 'default phone app'],
  },
  // The dock's per-call buttons (end-and-accept, swap…): buttons run commands like every surface.
  callAction: { listed: 'never', given: { id: 'string', action: 'string' } },
} as const satisfies Record<string, CommandRow>;

/**
 * `go`, `dialpad` and `transferScreen` run at boot; the rest run in the telephony chunk (runs.ts).
 * Whether each may run (the phone's state, the calls) comes with the later part (later.ts).
 */
export const telephonyCommands = defineCommands('telephony', telephonyTable, {
  lazy: () => telephonyChunk.load().then((m) => m.runs),
});

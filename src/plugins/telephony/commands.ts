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
  go: { run: (ctx) => ctx.services.get(Navigation).navigate(CALLS_PATH) },
  call: {
    // dialable: parseDialString(text).kind !== 'empty' without loading the dial-string rules at
    // boot (plugin.test.ts checks that both agree), or a sip: address.
    args: [{ name: 'target', titleKey: 'telephony:args.target', kind: 'choice', provider: CONTACTS_PROVIDER, allowFreeText: true, validate: dialable }],
    // "#12" alone in the palette dials speed-dial shortcut 12 (a leading # is a shortcut), not a search for 12.
    takesQuery: /^#\d+$/,
  },
  answer: { keys: '$mod+Shift+a', allowInInputs: true, given: call },
  decline: { keys: '$mod+Shift+d', allowInInputs: true, given: call },
  hangup: { keys: '$mod+Shift+e', allowInInputs: true, given: call },
  hold: { keys: '$mod+Shift+h', allowInInputs: true, given: call },
  mute: { keys: '$mod+Shift+m', allowInInputs: true, given: call },
  dtmf: {
    args: [{ name: 'digits', titleKey: 'telephony:args.digits', kind: 'text', validate: (text) => (/^[0-9*#\s]+$/.test(text) ? null : 'telephony:args.badDigits') }],
    given: call,
  },
  dialpad: {
    keys: '$mod+Shift+k',
    run: () => {
      phone.dialpadOpen = true;
    },
  },
  takeOver: {},
  transferScreen: { keys: '$mod+Shift+x', run: (ctx) => ctx.services.get(Navigation).navigate(TRANSFER_PATH) },
  transfer: { args: transferArgs, given: call },
  transferToVoicemail: { args: transferArgs, given: call },
  transferAttended: {
    args: transferArgs,
    given: call,
    feature: 'attendedTransfer',
  },
  moveToCell: { given: call },
  moveToDesk: { given: call },
  completeTransfer: { given: call },
  cancelTransfer: { given: call },
  merge: { given: call, feature: 'threeWayCalling' },
  record: { given: call },
  testConnection: {},
  dndOn: {},
  dndOff: {},
  forwardOn: {
    args: [{ name: 'to', titleKey: 'telephony:args.forwardTo', kind: 'choice', provider: CONTACTS_PROVIDER, allowFreeText: true, validate: (text) => (/[0-9]/.test(text) ? null : 'telephony:args.needForwardNumber') }],
  },
  forwardOff: {},
  // The product's one notification permission: calls, chat messages and texts all notify through it.
  notifications: {},
  phoneLinks: {},
  // The dock's per-call buttons (end-and-accept, swap…): buttons run commands like every surface.
  callAction: { listed: 'never', given: { id: 'string', action: 'string' } },
} as const satisfies Record<string, CommandRow>;

/**
 * `go`, `dialpad` and `transferScreen` run at boot; the rest run in the telephony chunk (runs.ts).
 * The words the palette finds each by and whether it may run (the phone's state, the calls)
 * come with the later part (later.ts).
 */
export const telephonyCommands = defineCommands('telephony', telephonyTable, {
  lazy: () => telephonyChunk.load().then((m) => m.runs),
});

import { Navigation, Session, type CommandContext, type CommandContribution, type Enablement, lazyEngineChunk } from '../../kernel';
import { CONTACTS_PROVIDER } from '../../contracts';
import type { CallState } from './model/callState';
import { cellNumber, transferableCallId } from './model/transfer';
import { phone } from './state';

export const CALLS_PATH = '/calls';
export const TRANSFER_PATH = '/calls/transfer';
export const DIAL_PATH = '/calls/dial';

type Lazy = typeof import('./lazy');
type Engine = NonNullable<Awaited<ReturnType<Lazy['startEngine']>>>;

/** The one telephony chunk, with its strings. */
const chunk = lazyEngineChunk(() => import('./lazy'));
export const loadLazy = chunk.load;
export const withEngine = (ctx: Pick<CommandContext, 'services'>, work: (e: Engine) => unknown) => chunk.withEngine(ctx.services, work);
/** Stops the phone if it was ever started (the plugin's dispose). */
export const stopEngineIfStarted = chunk.stop;

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

const BUSY: readonly CallState[] = ['active', 'outgoing', 'answering'];
/** A command whose work lives in the telephony chunk (`commandRuns`), loaded when it first runs. */
const lazyCommand = (name: string, keywords: readonly string[], enabled?: () => Enablement, extra: Partial<CommandContribution> = {}): CommandContribution => ({
  id: `telephony.${name}`,
  titleKey: `telephony:commands.${name}`,
  keywords,
  enabled,
  run: async (ctx, args) => {
    const lazy = await loadLazy();
    await lazy.commandRuns[name]!(lazy, ctx, args);
  },
  ...extra,
});

const TRANSFER_ARGS: CommandContribution['args'] = [{ name: 'target', titleKey: 'telephony:args.transferTo', kind: 'choice', provider: CONTACTS_PROVIDER, allowFreeText: true, validate: dialable }];

export const telephonyCommands: readonly CommandContribution[] = [
  {
    id: 'telephony.go',
    titleKey: 'telephony:commands.go',
    keywords: ['phone', 'dialpad'],
    run: (ctx) => ctx.services.get(Navigation).navigate(CALLS_PATH),
  },
  lazyCommand(
    'call',
    ['dial', 'phone', 'number'],
    () => {
      const ready = phoneReady();
      return ready !== true ? ready : Object.values(phone.calls).some((c) => BUSY.includes(c.state)) ? why('busy') : true;
    },
    // dialable: parseDialString(text).kind !== 'empty' without loading the dial-string rules at
    // boot (plugin.test.ts checks that both agree), or a sip: address.
    // "#12" alone in the palette dials speed-dial shortcut 12 (a leading # is a shortcut), not a search for 12.
    { args: [{ name: 'target', titleKey: 'telephony:args.target', kind: 'choice', provider: CONTACTS_PROVIDER, allowFreeText: true, validate: dialable }], takesQuery: /^#\d+$/ },
  ),
  lazyCommand('answer', ['pick up', 'accept'], () => needCall(['incoming'], 'noIncoming')),
  lazyCommand('decline', ['reject', 'ignore'], () => needCall(['incoming'], 'noIncoming')),
  lazyCommand('hangup', ['end call'], () => needCall([...BUSY, 'hold'], 'noCall')),
  lazyCommand('hold', ['resume', 'unhold'], () => needCall(['active', 'hold'], 'noCall')),
  lazyCommand('mute', ['unmute', 'microphone'], () => needCall(['active', 'hold'], 'noCall')),
  lazyCommand('dtmf', ['tones', 'keypad', 'digits'], () => needCall(['active'], 'noActive'), {
    args: [{ name: 'digits', titleKey: 'telephony:args.digits', kind: 'text', validate: (text) => (/^[0-9*#\s]+$/.test(text) ? null : 'telephony:args.badDigits') }],
  }),
  {
    id: 'telephony.dialpad',
    titleKey: 'telephony:commands.dialpad',
    keywords: ['keypad', 'dial'],
    enabled: () => (phone.status === 'unconfigured' ? why('notConfigured') : phone.status === 'elsewhere' ? why('elsewhere') : true),
    run: () => {
      phone.dialpadOpen = true;
    },
  },
  lazyCommand('takeOver', ['calling here', 'phone'], () => (phone.status === 'elsewhere' ? true : why(phone.status === 'unconfigured' ? 'notConfigured' : 'notElsewhere'))),
  {
    id: 'telephony.transferScreen',
    titleKey: 'telephony:commands.transferScreen',
    keywords: ['transfer', 'hand over'],
    run: (ctx) => ctx.services.get(Navigation).navigate(TRANSFER_PATH),
  },
  lazyCommand('transfer', ['transfer', 'blind transfer', 'hand over'], canTransfer, { args: TRANSFER_ARGS }),
  lazyCommand('transferToVoicemail', ['transfer', 'voicemail', 'mailbox', 'leave a message'], canTransfer, { args: TRANSFER_ARGS }),
  lazyCommand('transferAttended', ['attended transfer', 'consult', 'warm transfer', 'talk first'], () => (consultation() ? why('transferPending') : canTransfer()), {
    args: TRANSFER_ARGS,
    feature: 'attendedTransfer',
  }),
  lazyCommand('moveToCell', ['move call', 'mobile', 'cell phone', 'take the call with me'], undefined, {
    enabled: (ctx) => {
      const can = canTransfer();
      return can !== true ? can : cellNumber(ctx.services.maybe(Session)?.profile) ? true : why('noCell');
    },
  }),
  lazyCommand('moveToDesk', ['move call', 'desk phone', 'desk', 'handset', 'pick up at my desk'], () => {
    const can = canTransfer();
    return can !== true ? can : phone.deskPhone ? true : why('noDesk');
  }),
  lazyCommand('completeTransfer', ['transfer', 'complete', 'connect'], () => (consultation('active') ? true : why('noConsultation'))),
  lazyCommand('cancelTransfer', ['transfer', 'cancel', 'back'], () => (consultation() ? true : why('noConsultation'))),
  lazyCommand('merge', ['3-way', 'three way', 'conference', 'join calls'], () => {
    const calls = Object.values(phone.calls);
    if (calls.some((c) => c.mergedWith && c.state !== 'none')) return why('alreadyThreeWay');
    return calls.some((c) => c.state === 'hold') && calls.some((c) => c.state === 'active') ? true : why('noMerge');
  }, { feature: 'threeWayCalling' }),
  lazyCommand('record', ['recording', 'pause recording', 'resume recording'], () =>
    phone.recordingPolicy.mode === 'off' ? why('recordingOff') : needCall(['active', 'hold'], 'noCall'),
  ),
  lazyCommand('dndOn', ['do not disturb', 'dnd', 'busy', 'silence'], settingsThen(() => phone.settings.dnd === false, 'dndIsOn')),
  lazyCommand('dndOff', ['do not disturb', 'dnd', 'available'], settingsThen(() => phone.settings.dnd === true, 'dndIsOff')),
  lazyCommand('forwardOn', ['forward', 'divert', 'redirect', 'call forwarding'], settingsReady, {
    args: [{ name: 'to', titleKey: 'telephony:args.forwardTo', kind: 'choice', provider: CONTACTS_PROVIDER, allowFreeText: true, validate: (text) => (/[0-9]/.test(text) ? null : 'telephony:args.needForwardNumber') }],
  }),
  lazyCommand('forwardOff', ['forward', 'divert', 'call forwarding'], settingsThen(() => phone.settings.forwardAlways?.enabled === true, 'notForwarding')),
  // The product's one notification permission: calls, chat messages and texts all notify through it.
  lazyCommand('notifications', ['desktop notifications', 'alerts', 'incoming call', 'chat', 'messages', 'texts'], () =>
    typeof Notification !== 'function' ? why('noNotifications') : Notification.permission === 'granted' ? why('notificationsOn') : Notification.permission === 'denied' ? why('notificationsBlocked') : true,
  ),
  lazyCommand('phoneLinks', ['tel', 'sip', 'links', 'default phone app'], () => (typeof navigator === 'object' && 'registerProtocolHandler' in navigator ? true : why('noPhoneLinks'))),
  // The dock's per-call buttons (end-and-accept, swap…): buttons run commands like every surface.
  lazyCommand('callAction', [], () => true, { hiddenInPalette: true }),
];

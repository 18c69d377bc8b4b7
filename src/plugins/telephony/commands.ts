import { Navigation, type CommandContext, type CommandContribution, type Enablement } from '../../kernel';
import type { CallState } from './model/callState';
import { phone } from './state';

export const CALLS_PATH = '/calls';

type Lazy = typeof import('./lazy');
type Engine = NonNullable<Awaited<ReturnType<Lazy['startEngine']>>>;

let lazyModule: Promise<Lazy> | null = null;
/** The one telephony chunk, with its strings. */
export function loadLazy(): Promise<Lazy> {
  lazyModule ??= import('./lazy').then(async (m) => {
    await m.uiStrings();
    return m;
  });
  return lazyModule;
}

export async function withEngine(ctx: Pick<CommandContext, 'services'>, work: (e: Engine) => unknown): Promise<void> {
  const e = await (await loadLazy()).startEngine(ctx.services);
  if (e) await work(e);
}

/** Stops the phone if it was ever started (the plugin's dispose). */
export function stopEngineIfStarted(): void {
  void lazyModule?.then((m) => m.stopEngine());
}

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

const BUSY: readonly CallState[] = ['active', 'outgoing', 'answering'];
const idArg = (args: Readonly<Record<string, unknown>>) => (typeof args.id === 'string' ? args.id : undefined);

/** A command that acts on the engine, enabled by `enabled`. */
const engineCommand = (
  name: string,
  keywords: readonly string[],
  enabled: () => Enablement,
  work: (e: Engine, args: Readonly<Record<string, unknown>>) => unknown,
  extra: Partial<CommandContribution> = {},
): CommandContribution => ({
  id: `telephony.${name}`,
  titleKey: `telephony:commands.${name}`,
  keywords,
  enabled,
  run: (ctx, args) => withEngine(ctx, (e) => work(e, args)),
  ...extra,
});

export const telephonyCommands: readonly CommandContribution[] = [
  {
    id: 'telephony.go',
    titleKey: 'telephony:commands.go',
    keywords: ['phone', 'dialpad'],
    run: (ctx) => ctx.services.get(Navigation).navigate(CALLS_PATH),
  },
  engineCommand(
    'call',
    ['dial', 'phone', 'number'],
    () => {
      const ready = phoneReady();
      return ready !== true ? ready : Object.values(phone.calls).some((c) => BUSY.includes(c.state)) ? why('busy') : true;
    },
    (e, args) => e.callChoice(args.target),
    {
      args: [
        {
          name: 'target',
          titleKey: 'telephony:args.target',
          kind: 'choice',
          provider: 'contacts',
          allowFreeText: true,
          // parseDialString(text).kind !== 'empty', without loading the dial-string rules at boot
          // (commands.test.ts checks that both agree), or a sip: address.
          validate: dialable,
        },
      ],
    },
  ),
  engineCommand('answer', ['pick up', 'accept'], () => needCall(['incoming'], 'noIncoming'), (e, args) => e.accept(idArg(args))),
  engineCommand('decline', ['reject', 'ignore'], () => needCall(['incoming'], 'noIncoming'), (e, args) => e.decline(idArg(args))),
  engineCommand('hangup', ['end call'], () => needCall([...BUSY, 'hold'], 'noCall'), (e, args) => e.hangup(idArg(args))),
  engineCommand('hold', ['resume', 'unhold'], () => needCall(['active', 'hold'], 'noCall'), (e, args) => e.toggleHold(idArg(args))),
  engineCommand('mute', ['unmute', 'microphone'], () => needCall(['active', 'hold'], 'noCall'), (e, args) => e.toggleMute(idArg(args))),
  engineCommand('dtmf', ['tones', 'keypad', 'digits'], () => needCall(['active'], 'noActive'), (e, args) => e.sendDtmf(String(args.digits ?? ''), idArg(args)), {
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
  engineCommand(
    'takeOver',
    ['calling here', 'phone'],
    () => (phone.status === 'elsewhere' ? true : why(phone.status === 'unconfigured' ? 'notConfigured' : 'notElsewhere')),
    (e) => e.takeOver(),
  ),
  // The dock's per-call buttons (end-and-accept, swap…): buttons run commands like every surface.
  engineCommand('callAction', [], () => true, (e, args) => e.itemAction(String(args.id), args.action as never), { hiddenInPalette: true }),
];

import { Notifications, Session, type CommandContext } from '../../kernel';
import { ContactsApi } from '../../contracts';
import type { PhoneEngine } from './engine/PhoneEngine';
import { cellNumber } from './model/transfer';
import type { CallSettings } from './settings/callSettings';

type Args = Readonly<Record<string, unknown>>;
type Ctx = Pick<CommandContext, 'services'>;
/** What a command needs from the telephony chunk (passed in, so tests can hand in fakes). */
export interface RunDeps {
  startEngine(services: Ctx['services']): Promise<PhoneEngine | null>;
  currentSettings(): CallSettings | null;
  callTarget: typeof import('./engine/callTarget').callTarget;
  destinationFrom: typeof import('./settings/callSettings').destinationFrom;
}
export type CommandRun = (deps: RunDeps, ctx: Ctx, args: Args) => Promise<unknown>;

const idArg = (args: Args) => (typeof args.id === 'string' ? args.id : undefined);

const onEngine =
  (work: (e: PhoneEngine, args: Args, deps: RunDeps, ctx: Ctx) => unknown): CommandRun =>
  async (deps, ctx, args) => {
    const e = await deps.startEngine(ctx.services);
    return e ? work(e, args, deps, ctx) : undefined;
  };

const onSettings =
  (work: (s: CallSettings, args: Args, deps: RunDeps, ctx: Ctx) => unknown): CommandRun =>
  async (deps, ctx, args) => {
    await deps.startEngine(ctx.services);
    const s = deps.currentSettings();
    return s ? work(s, args, deps, ctx) : undefined;
  };

const target = (deps: RunDeps, ctx: Ctx, value: unknown) => deps.callTarget(value, ctx.services.maybe(ContactsApi))?.target ?? '';

/**
 * What each telephony command does, by command name. The manifest (boot) keeps only ids, titles,
 * arguments and enablement; the work is here, in the chunk that loads after the first screen.
 */
export const commandRuns: Readonly<Record<string, CommandRun>> = {
  call: onEngine((e, a) => e.callChoice(a.target)),
  answer: onEngine((e, a) => e.accept(idArg(a))),
  decline: onEngine((e, a) => e.decline(idArg(a))),
  hangup: onEngine((e, a) => e.hangup(idArg(a))),
  hold: onEngine((e, a) => e.toggleHold(idArg(a))),
  mute: onEngine((e, a) => e.toggleMute(idArg(a))),
  dtmf: onEngine((e, a) => e.sendDtmf(String(a.digits ?? ''), idArg(a))),
  takeOver: onEngine((e) => e.takeOver()),
  transfer: onEngine((e, a, deps, ctx) => e.blindTransfer(target(deps, ctx, a.target), idArg(a))),
  transferToVoicemail: onEngine((e, a, deps, ctx) => e.transferToVoicemail(target(deps, ctx, a.target), idArg(a))),
  transferAttended: onEngine((e, a, deps, ctx) => e.startAttendedTransfer(target(deps, ctx, a.target), idArg(a))),
  completeTransfer: onEngine((e, a) => e.completeTransfer(idArg(a))),
  cancelTransfer: onEngine((e, a) => e.cancelTransfer(idArg(a))),
  record: onEngine((e, a) => e.toggleRecording(idArg(a))),
  merge: onEngine((e, a) => e.merge(idArg(a))),
  // Move the call to the user's own mobile: a blind transfer to the profile's personal number.
  moveToCell: async (deps, ctx, args) => {
    const cell = cellNumber(ctx.services.maybe(Session)?.profile);
    const e = await deps.startEngine(ctx.services);
    return e && cell ? e.blindTransfer(cell, idArg(args)) : undefined;
  },
  moveToDesk: onEngine((e, a) => e.moveToDesk(idArg(a))),
  callAction: onEngine((e, a) => e.itemAction(String(a.id), a.action as never)),
  notifications: async (_deps, ctx) => {
    if ((await Notification.requestPermission()) === 'granted') ctx.services.get(Notifications).toast({ tone: 'success', titleKey: 'telephony:reasons.notificationsOn' });
  },
  phoneLinks: async (_deps, ctx) => {
    // The browser asks the user to confirm; %s is the whole link (tel:… or sip:…).
    for (const scheme of ['tel', 'sip']) navigator.registerProtocolHandler(scheme, `${location.origin}/calls/dial?to=%s`);
    ctx.services.get(Notifications).toast({ titleKey: 'telephony:reasons.phoneLinksAsked' });
  },
  dndOn: onSettings((s) => s.setDnd(true)),
  dndOff: onSettings((s) => s.setDnd(false)),
  forwardOff: onSettings((s) => s.setForwardAlways(false)),
  forwardOn: onSettings(async (s, a, deps, ctx) => {
    const to = target(deps, ctx, a.to);
    const destination = deps.destinationFrom(to, await s.destinations().catch(() => [])) ?? { destination_type: 'phone', destination_id: null, destination_name: null, destination_parameter: to };
    const problem = await s.setForwardAlways(true, destination);
    if (problem && problem !== 'failed') ctx.services.get(Notifications).toast({ tone: 'error', titleKey: 'telephony:settings.forwardTitle', messageKey: `telephony:settings.problems.${problem}` });
  }),
};

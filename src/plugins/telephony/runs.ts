import i18next from 'i18next';
import { Notifications, Session, type CommandContext, type CommandRun, type LazyRuns, type PaletteEntity, type ServiceLookup } from '../../kernel';
import { ContactsApi } from '../../contracts';
import type { telephonyTable } from './commands';
import type { callTarget } from './engine/callTarget';
import type { PhoneEngine } from './engine/PhoneEngine';
import { isCallItemAction } from './model/callButtons';
import { connectionTestToast } from './model/connectionReport';
import { cellNumber } from './model/transfer';
import { DIAL_PATH } from './paths';
import type { CallSettings, destinationFrom } from './settings/callSettings';

/** What the commands need from the telephony chunk (handed in, so that tests can hand in fakes). */
export interface RunDeps {
  startEngine(services: ServiceLookup): Promise<PhoneEngine | null>;
  currentSettings(): CallSettings | null;
  callTarget: typeof callTarget;
  destinationFrom: typeof destinationFrom;
}

/**
 * What each telephony command of the table does (`go`, `dialpad` and `transferScreen` run at boot).
 * The manifest keeps titles, keys, arguments and enablement; the work is here, in the chunk that
 * loads after the first screen.
 */
export function makeRuns(deps: RunDeps): LazyRuns<typeof telephonyTable> {
  /** Starts the phone if it is not yet running; nothing happens when it cannot start. */
  const onEngine =
    <A,>(work: (e: PhoneEngine, args: A, ctx: CommandContext) => unknown): CommandRun<A> =>
    async (ctx, args) => {
      const e = await deps.startEngine(ctx.services);
      if (e) await work(e, args, ctx);
    };
  /** Do-not-disturb and forwarding, once the phone has started and read them. */
  const onSettings =
    <A,>(work: (s: CallSettings, args: A, ctx: CommandContext) => unknown): CommandRun<A> =>
    async (ctx, args) => {
      await deps.startEngine(ctx.services);
      const s = deps.currentSettings();
      if (s) await work(s, args, ctx);
    };
  /** A number typed, or the first number of a contact picked in the palette. */
  const target = (ctx: CommandContext, value: PaletteEntity | string | undefined) => deps.callTarget(value, ctx.services.maybe(ContactsApi))?.target ?? '';

  return {
    call: onEngine((e, a) => e.callChoice(a.target)),
    answer: onEngine((e, a) => e.accept(a.id)),
    decline: onEngine((e, a) => e.decline(a.id)),
    hangup: onEngine((e, a) => e.hangup(a.id)),
    hold: onEngine((e, a) => e.toggleHold(a.id)),
    mute: onEngine((e, a) => e.toggleMute(a.id)),
    dtmf: onEngine((e, a) => e.sendDtmf(a.digits ?? '', a.id)),
    takeOver: onEngine((e) => e.takeOver()),
    transfer: onEngine((e, a, ctx) => e.blindTransfer(target(ctx, a.target), a.id)),
    transferToVoicemail: onEngine((e, a, ctx) => e.transferToVoicemail(target(ctx, a.target), a.id)),
    transferAttended: onEngine((e, a, ctx) => e.startAttendedTransfer(target(ctx, a.target), a.id)),
    completeTransfer: onEngine((e, a) => e.completeTransfer(a.id)),
    cancelTransfer: onEngine((e, a) => e.cancelTransfer(a.id)),
    record: onEngine((e, a) => e.toggleRecording(a.id)),
    merge: onEngine((e, a) => e.merge(a.id)),
    // Move the call to the user's own mobile: a blind transfer to the profile's personal number.
    moveToCell: onEngine((e, a, ctx) => {
      const cell = cellNumber(ctx.services.maybe(Session)?.profile);
      if (cell) e.blindTransfer(cell, a.id);
    }),
    moveToDesk: onEngine((e, a) => e.moveToDesk(a.id)),
    // A button names its call and one of the actions callButtons.ts offers; anything else is no action.
    callAction: onEngine((e, a) => a.id !== undefined && a.action !== undefined && isCallItemAction(a.action) && e.itemAction(a.id, a.action)),
    notifications: async (ctx) => {
      if ((await Notification.requestPermission()) === 'granted') ctx.services.get(Notifications).toast({ tone: 'success', titleKey: 'telephony:reasons.notificationsOn' });
    },
    phoneLinks: (ctx) => {
      // The browser asks the user to confirm; %s is the whole link (tel:… or sip:…).
      for (const scheme of ['tel', 'sip']) navigator.registerProtocolHandler(scheme, `${location.origin}${DIAL_PATH}?to=%s`);
      ctx.services.get(Notifications).toast({ titleKey: 'telephony:reasons.phoneLinksAsked' });
    },
    // The test takes a few seconds: a lasting "testing…" toast, then the result in its place.
    testConnection: onEngine(async (e, _a, ctx) => {
      const notify = ctx.services.get(Notifications);
      const running = notify.toast({ titleKey: 'telephony:connectionTest.running', timeoutMs: null });
      const outcome = await e.testConnection().finally(() => notify.dismiss(running));
      notify.toast(connectionTestToast(outcome, i18next.language, i18next.t('telephony:connectionTest.notMeasured')));
    }),
    dndOn: onSettings((s) => s.setDnd(true)),
    dndOff: onSettings((s) => s.setDnd(false)),
    forwardOff: onSettings((s) => s.setForwardAlways(false)),
    forwardOn: onSettings(async (s, a, ctx) => {
      const to = target(ctx, a.to);
      const destination = deps.destinationFrom(to, await s.destinations().catch(() => [])) ?? { destination_type: 'phone', destination_id: null, destination_name: null, destination_parameter: to };
      const problem = await s.setForwardAlways(true, destination);
      if (problem && problem !== 'failed') ctx.services.get(Notifications).toast({ tone: 'error', titleKey: 'telephony:settings.forwardTitle', messageKey: `telephony:settings.problems.${problem}` });
    }),
  };
}

import { Phone } from 'lucide-react';
import { subscribe } from 'valtio';
import { definePlugin, Notifications, provide, Session, toDisposable } from '../../kernel';
import { TelephonyApi } from '../../contracts';
import { CALLS_PATH, DIAL_PATH, TRANSFER_PATH, loadLazy, stopEngineIfStarted, telephonyCommands, withEngine } from './commands';
import { DockHost } from './DockHost';
import { phone, resetPhone } from './state';

/** Telephony: a JsSIP phone registered through Kamailio, the call dock, the dialpad and call commands. */
export const telephonyPlugin = definePlugin({
  id: 'telephony',
  titleKey: 'telephony:title',
  i18n: {
    namespace: 'telephony',
    load: (lng) => import(`./locales/${lng}.json`).then((m: { default: Record<string, unknown> }) => m.default),
  },
  provides: [
    provide(TelephonyApi, (ctx) => ({
      async call(target, opts) {
        if (phone.status === 'unconfigured') {
          ctx.services.get(Notifications).toast({ tone: 'error', titleKey: 'telephony:reasons.notConfigured' });
          return;
        }
        await withEngine(ctx, (e) => e.call(target, opts));
      },
      onCallEnded: (listener) => {
        // Read from the calls' state (in the boot part), so listening loads nothing.
        let live = new Set<string>();
        return toDisposable(
          subscribe(phone, () => {
            const now = new Set(Object.values(phone.calls).filter((c) => c.state !== 'none').map((c) => c.id));
            const ended = [...live].some((id) => !now.has(id));
            live = now;
            if (ended) listener();
          }),
        );
      },
    })),
  ],
  routes: [
    { id: 'calls', path: CALLS_PATH, titleKey: 'telephony:title', component: () => loadLazy().then((m) => ({ default: m.CallsScreen })) },
    {
      id: 'calls.transfer',
      path: TRANSFER_PATH,
      titleKey: 'telephony:transferTitle',
      component: () => loadLazy().then((m) => ({ default: m.TransferScreen })),
      validateSearch: (s) => (typeof s.number === 'string' || typeof s.number === 'number' ? { number: String(s.number) } : {}),
    },
    {
      id: 'calls.dial',
      path: DIAL_PATH,
      titleKey: 'telephony:dialTitle',
      component: () => loadLazy().then((m) => ({ default: m.DialLinkScreen })),
      validateSearch: (s) => (typeof s.to === 'string' ? { to: s.to } : {}),
    },
    { id: 'calls.detail', path: `${CALLS_PATH}/$id`, titleKey: 'telephony:detailTitle', component: () => loadLazy().then((m) => ({ default: m.CallDetailScreen })) },
  ],
  nav: [{ id: 'calls', titleKey: 'telephony:nav', to: CALLS_PATH, icon: Phone, order: 15, command: 'telephony.go' }],
  panels: [{ id: 'telephony.dock', slot: 'callDock', component: DockHost }],
  commands: telephonyCommands,
  hotkeys: [
    // A call must be answerable and endable while typing (a chat message, a search): these chords
    // type nothing, so they also work in text fields.
    { command: 'telephony.answer', keys: '$mod+Shift+a', allowInInputs: true },
    { command: 'telephony.decline', keys: '$mod+Shift+d', allowInInputs: true },
    { command: 'telephony.hangup', keys: '$mod+Shift+e', allowInInputs: true },
    { command: 'telephony.hold', keys: '$mod+Shift+h', allowInInputs: true },
    { command: 'telephony.mute', keys: '$mod+Shift+m', allowInInputs: true },
    { command: 'telephony.dialpad', keys: '$mod+Shift+k' },
    { command: 'telephony.transferScreen', keys: '$mod+Shift+x' },
  ],
  activate(ctx) {
    // Every call command's availability reads the calls and the phone's status.
    ctx.commandsRead((onChange) => subscribe(phone, onChange));
    if (ctx.services.maybe(Session)?.config.sip.configured !== true) {
      phone.status = 'unconfigured';
      return toDisposable(resetPhone);
    }
    // After the first screen: JsSIP and the engine are not part of the boot bundle.
    ctx.afterFirstScreen(() => withEngine(ctx, () => undefined), { idle: true });
    return toDisposable(() => {
      stopEngineIfStarted();
      resetPhone();
    });
  },
});

export default telephonyPlugin;

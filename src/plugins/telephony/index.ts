import { Phone } from 'lucide-react';
import { subscribe } from 'valtio';
import { definePlugin, provide, Session, toDisposable } from '../../kernel';
import { TelephonyApi } from '../../contracts';
import { telephonyChunk } from './chunk';
import { telephonyCommands } from './commands';
import { CALLS_PATH, DIAL_PATH, TRANSFER_PATH } from './paths';
import { telephonyService } from './service';
import { phone, resetPhone } from './state';
import { DockHost } from './ui/DockHost';

/** Telephony: a JsSIP phone registered through Kamailio, the call dock, the dialpad and call commands. */
export const telephonyPlugin = definePlugin({
  id: 'telephony',
  titleKey: 'telephony:title',
  i18n: { namespace: 'telephony' },
  provides: [provide(TelephonyApi, telephonyService)],
  routes: [
    { id: 'calls', path: CALLS_PATH, titleKey: 'telephony:title', component: () => telephonyChunk.load().then((m) => ({ default: m.CallsScreen })) },
    {
      id: 'calls.transfer',
      path: TRANSFER_PATH,
      titleKey: 'telephony:transferTitle',
      component: () => telephonyChunk.load().then((m) => ({ default: m.TransferScreen })),
      validateSearch: (s) => (typeof s.number === 'string' || typeof s.number === 'number' ? { number: String(s.number) } : {}),
    },
    {
      id: 'calls.dial',
      path: DIAL_PATH,
      titleKey: 'telephony:dialTitle',
      component: () => telephonyChunk.load().then((m) => ({ default: m.DialLinkScreen })),
      validateSearch: (s) => (typeof s.to === 'string' ? { to: s.to } : {}),
    },
    { id: 'calls.detail', path: `${CALLS_PATH}/$id`, titleKey: 'telephony:detailTitle', component: () => telephonyChunk.load().then((m) => ({ default: m.CallDetailScreen })) },
  ],
  nav: [{ id: 'calls', titleKey: 'telephony:nav', to: CALLS_PATH, icon: Phone, order: 15, command: telephonyCommands.ids.go }],
  panels: [{ id: 'telephony.dock', slot: 'callDock', component: DockHost }],
  commands: telephonyCommands.commands,
  hotkeys: telephonyCommands.hotkeys,
  later: () => import('./later').then((m) => m.later),
  activate(ctx) {
    // Every call command's availability reads the calls and the phone's status.
    ctx.commandsRead((onChange) => subscribe(phone, onChange));
    if (ctx.services.maybe(Session)?.config.sip.configured !== true) {
      phone.status = 'unconfigured';
      return toDisposable(resetPhone);
    }
    // After the first screen: JsSIP and the engine are not part of the boot bundle.
    ctx.afterFirstScreen(() => telephonyChunk.withEngine(ctx.services, () => undefined), { idle: true });
    return toDisposable(() => {
      telephonyChunk.stop();
      resetPhone();
    });
  },
});

export default telephonyPlugin;

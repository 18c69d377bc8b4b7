import { definePlugin, toDisposable } from '../../kernel';
import { mobileCommands } from './commands';
import { MOBILE_PATH, resetMobileState } from './state';

/**
 * The mobile download page: the store links and a QR code that signs the mobile app in as the
 * user (a single-use code that the page renews before it expires). Reached from the apps menu and
 * the palette; everything but this manifest and the command table is one lazy chunk.
 */
export const mobilePlugin = definePlugin({
  id: 'mobile',
  titleKey: 'mobile:title',
  i18n: { namespace: 'mobile' },
  routes: [{ id: 'mobile', path: MOBILE_PATH, titleKey: 'mobile:title', component: () => import('./lazy').then(async (m) => (await m.strings(), { default: m.MobileScreen })) }],
  menus: [{ id: 'mobile.download', menu: 'appsMenu', command: mobileCommands.ids.go, order: 90 }],
  commands: mobileCommands.commands,
  hotkeys: mobileCommands.hotkeys,
  // A code left in memory after sign-out would be another user's in the next session.
  activate: () => toDisposable(resetMobileState),
});

export default mobilePlugin;

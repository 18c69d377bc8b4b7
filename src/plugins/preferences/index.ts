import { definePlugin } from '../../kernel';
import { preferencesCommands } from './commands';
import { palette, panelSearch, PREFERENCES_PATH } from './state';

/*
 * The boot part is this manifest, the command table and the state: the screen, its panels and
 * strings, the palette's panel entities and the settings' saving are the one lazy chunk, fetched
 * after the first screen has painted; the commands' words and the palette's panel provider are the
 * later part (later.ts). A panel is added in ui/registry.ts (see there).
 */
/** Preferences: one screen of panels (`/preferences?panel=<id>`), each a form saved on its own. */
export const preferencesPlugin = definePlugin({
  id: 'preferences',
  titleKey: 'preferences:title',
  i18n: { namespace: 'preferences' },
  routes: [
    { id: 'preferences', path: PREFERENCES_PATH, titleKey: 'preferences:title', validateSearch: panelSearch, component: () => import('./lazy').then(async (m) => (await m.strings(), { default: m.PreferencesScreen })) },
    // The specification's two old addresses lead to their panel.
    { id: 'preferences.profile', path: '/profile', titleKey: 'preferences:title', redirect: { to: PREFERENCES_PATH, search: { panel: 'profile' } } },
    { id: 'preferences.prefCalls', path: '/prefCalls', titleKey: 'preferences:title', redirect: { to: PREFERENCES_PATH, search: { panel: 'calling' } } },
  ],
  menus: [{ id: 'preferences.menu', menu: 'profileMenu', command: preferencesCommands.ids.go, order: 70 }],
  commands: preferencesCommands.commands,
  hotkeys: preferencesCommands.hotkeys,
  later: () => import('./later').then((m) => m.laterOf(preferencesCommands, palette)),
  activate(ctx) {
    ctx.afterFirstScreen((settled) => import('./lazy').then((m) => m.start(ctx.services, settled)), { settles: true });
  },
});

export default preferencesPlugin;

import { Hash } from 'lucide-react';
import { subscribe } from 'valtio';
import { definePlugin, provide, toDisposable } from '../../kernel';
import { SpeedDialApi } from '../../contracts';
import { speedDialCommands } from './commands';
import { speedDialService } from './service';
import { palette, sdState, SPEED_DIAL_PATH } from './state';
import { OverlayHost } from './ui/OverlayHost';

/**
 * Speed dial: the user's entries and the organisation's shared ones, dialled as `#<shortcut>`. The
 * boot part is this manifest, the command table, the state proxy and the overlay host; the list,
 * the screen, the form and the side panel are one lazy chunk, loaded after the first screen.
 */
export const speedDialPlugin = definePlugin({
  id: 'speed-dial',
  titleKey: 'speed-dial:title',
  feature: 'speedDial',
  i18n: { namespace: 'speed-dial' },
  provides: [provide(SpeedDialApi, speedDialService)],
  routes: [{ id: 'speed-dial', path: SPEED_DIAL_PATH, titleKey: 'speed-dial:title', component: () => import('./lazy').then(async (m) => (await m.strings(), { default: m.SpeedDialScreen })) }],
  nav: [{ id: 'speed-dial', titleKey: 'speed-dial:nav', to: SPEED_DIAL_PATH, icon: Hash, order: 17, command: speedDialCommands.ids.go }],
  // The form and the side panel open over any screen (from the palette, the dialpad, a contact).
  panels: [{ id: 'speed-dial.overlays', slot: 'callDock', component: OverlayHost }],
  menus: [{ id: 'speed-dial.new', menu: 'plusMenu', command: speedDialCommands.ids.new, order: 50 }],
  commands: speedDialCommands.commands,
  hotkeys: speedDialCommands.hotkeys,
  searchProviders: [{ id: 'speed-dial', kindKey: 'speed-dial:title', items: () => palette.entities, subscribe: (onChange) => toDisposable(subscribe(palette, onChange)) }],
  activate(ctx) {
    // The commands read whether the list is loaded.
    ctx.commandsRead((onChange) => subscribe(sdState, onChange));
    ctx.afterFirstScreen(async () => (await import('./lazy')).start(ctx.services));
  },
});

export default speedDialPlugin;

import { Hash } from 'lucide-react';
import { definePlugin, provide } from '../../kernel';
import { SpeedDialApi } from '../../contracts';
import { speedDialCommands } from './commands';
import { speedDialService } from './service';
import { SPEED_DIAL_PATH } from './state';
import { OverlayHost } from './ui/OverlayHost';

/**
 * Speed dial: the user's entries and the organisation's shared ones, dialled as `#<shortcut>`. The
 * boot part is this manifest, the command table, the state proxy and the overlay host; the
 * commands' words and enablement and the palette's provider are the later part (`later.ts`); the
 * list, the screen, the form and the side panel are one lazy chunk, loaded after the first screen.
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
  later: () => import('./later').then((m) => m.later),
  activate(ctx) {
    ctx.afterFirstScreen(async () => (await import('./lazy')).start(ctx.services));
  },
});

export default speedDialPlugin;

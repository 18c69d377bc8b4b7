import { definePlugin, toDisposable } from '../../kernel';
import { tutorialCommands } from './commands';
import { resetTutorialState } from './state';
import { TourHost } from './ui/TourHost';

/**
 * The tutorial: a tour of the frame after the first sign-in (uc-tutorial-completed), each step
 * pointing at the real part of the screen with the focus on it; "Show tutorial" replays it.
 */
export const tutorialPlugin = definePlugin({
  id: 'tutorial',
  titleKey: 'tutorial:title',
  i18n: { namespace: 'tutorial' },
  panels: [{ id: 'tutorial.tour', slot: 'callDock', component: TourHost, order: 90 }],
  commands: tutorialCommands.commands,
  hotkeys: tutorialCommands.hotkeys,
  later: () => import('./later').then((m) => m.later),
  activate(ctx) {
    ctx.afterFirstScreen(async () => (await import('./lazy')).startIfNew(ctx.services), { idle: true });
    return toDisposable(resetTutorialState);
  },
});

export default tutorialPlugin;

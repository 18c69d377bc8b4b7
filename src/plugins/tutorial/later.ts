import { type PluginLater } from '../../kernel';
import { tutorialCommands } from './commands';

/* The later part (loaded after the first screen): the words the palette finds each command by. */
export const later: PluginLater = {
  commands: tutorialCommands.later({
    show: { keywords: ['tutorial', 'tour', 'getting started', 'introduction', 'help'] },
  }),
};

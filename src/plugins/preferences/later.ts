import { subscribe } from 'valtio';
import { toDisposable, type PluginLater } from '../../kernel';
import type { preferencesCommands as Commands } from './commands';
import type { palette as Palette } from './state';

/**
 * The later part (loaded after the first screen): the words the palette finds each command by, and
 * the panels as palette entities. It is handed the boot part's table and store rather than
 * importing them: a module that the boot part, the lazy chunk and this part all import becomes a
 * chunk of its own, which cost the first screen more than moving the words saved.
 */
export function laterOf(preferencesCommands: typeof Commands, palette: typeof Palette): PluginLater {
  return {
    commands: preferencesCommands.later({
      go: { keywords: ['settings', 'options'] },
      changeHomePage: { keywords: ['start', 'landing'] },
      changeTheme: { keywords: ['dark', 'light', 'appearance', 'colour', 'color'] },
      openInboundRoutes: { keywords: ['forwarding', 'busy', 'no answer', 'offline', 'voicemail'] },
      openFindMe: { keywords: ['follow me', 'locations', 'mobile'] },
      setFindMeStrategy: { keywords: ['follow me', 'sequential', 'simultaneous', 'ring'] },
    }),
    // The lazy chunk builds the entities (one per panel the user has): this only hands them to the palette.
    searchProviders: [
      {
        id: 'preferences',
        kindKey: 'preferences:title',
        items: () => palette.entities,
        subscribe: (onChange) => toDisposable(subscribe(palette, onChange)),
      },
    ],
  };
}

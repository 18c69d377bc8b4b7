import { subscribe } from 'valtio';
import { toDisposable, type Enablement, type PluginLater } from '../../kernel';
import { TelephonyApi } from '../../contracts';
import { speedDialCommands } from './commands';
import { palette, sdState } from './state';

/*
 * The later part (loaded after the first screen): the words the palette finds each command by,
 * whether it may run (once the list is in), and the palette's entries.
 */

const loaded = (): Enablement => (sdState.items ? true : { reasonKey: 'speed-dial:reasons.loading' });

export const later: PluginLater = {
  commands: speedDialCommands.later({
    go: { keywords: ['speed dial', 'shortcuts', 'favourites'] },
    new: { keywords: ['add', 'speed dial', 'shortcut'] },
    panel: { keywords: ['speed dial', 'dial', 'shortcuts'], enabled: loaded },
    call: { enabled: (ctx) => (ctx.services.has(TelephonyApi) ? loaded() : { reasonKey: 'speed-dial:reasons.noTelephony' }) },
    edit: { enabled: loaded },
    delete: { enabled: loaded },
  }),
  // The entities are built by the lazy chunk once the list is in.
  searchProviders: [{ id: 'speed-dial', kindKey: 'speed-dial:title', items: () => palette.entities, subscribe: (onChange) => toDisposable(subscribe(palette, onChange)) }],
  activate(ctx) {
    // The commands read whether the list is loaded.
    ctx.commandsRead((onChange) => subscribe(sdState, onChange));
  },
};

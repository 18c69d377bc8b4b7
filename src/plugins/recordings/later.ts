import { subscribe } from 'valtio';
import { toDisposable, type Enablement, type PluginLater } from '../../kernel';
import { TelephonyApi } from '../../contracts';
import { recordingsCommands } from './commands';
import { palette, recState } from './state';

/*
 * The later part (loaded after the first screen): whether each command may run (once the list is
 * in), and the palette's recordings.
 */

const loaded = (): Enablement => (recState.items ? true : { reasonKey: 'recordings:reasons.loading' });

export const later: PluginLater = {
  commands: recordingsCommands.later({
    playPause: { enabled: loaded },
    download: { enabled: loaded },
    callBack: { enabled: (ctx) => (ctx.services.has(TelephonyApi) ? loaded() : { reasonKey: 'recordings:reasons.noTelephony' }) },
  }),
  // The entities are built by the lazy chunk once the list is in.
  searchProviders: [{ id: 'recordings', kindKey: 'recordings:title', items: () => palette.entities, subscribe: (onChange) => toDisposable(subscribe(palette, onChange)) }],
  activate(ctx) {
    // The commands read whether the list is loaded and which recording is selected.
    ctx.commandsRead((onChange) => subscribe(recState, onChange));
  },
};

import { Mic } from 'lucide-react';
import { subscribe } from 'valtio';
import { definePlugin, toDisposable } from '../../kernel';
import { recordingsCommands, visible } from './commands';
import { palette, recState, RECORDINGS_PATH } from './state';

/**
 * Call recordings: a filtered, paged list with an audio player. The boot part is this manifest, the
 * command table and the state proxy; the rest, strings included, is one lazy chunk (as voicemail's).
 */
export const recordingsPlugin = definePlugin({
  id: 'recordings',
  titleKey: 'recordings:title',
  routes: [{ id: 'recordings', path: `${RECORDINGS_PATH}/{-$id}`, titleKey: 'recordings:title', component: () => import('./lazy').then(async (m) => (await m.strings(), { default: m.RecordingsScreen })) }],
  nav: [{ id: 'recordings', titleKey: 'recordings:title', to: RECORDINGS_PATH, icon: Mic, order: 16, when: visible, command: recordingsCommands.ids.go }],
  commands: recordingsCommands.commands,
  hotkeys: recordingsCommands.hotkeys,
  searchProviders: [{ id: 'recordings', kindKey: 'recordings:title', items: () => palette.entities, subscribe: (onChange) => toDisposable(subscribe(palette, onChange)) }],
  activate(ctx) {
    // The commands read whether the list is loaded and which recording is selected.
    ctx.commandsRead((onChange) => subscribe(recState, onChange));
    // Whether the user may see recordings is known only once the settings have been fetched: until
    // then a "g r" pressed is held by the kernel, not dropped.
    ctx.afterFirstScreen(async (settled) => (await import('./lazy')).start(ctx.services, (v) => ctx.setContextKey('visible', v), settled), { settles: true });
  },
});

export default recordingsPlugin;

import { Mic } from 'lucide-react';
import { definePlugin } from '../../kernel';
import { recordingsCommands, visible } from './commands';
import { RECORDINGS_PATH } from './state';

/**
 * Call recordings: a filtered, paged list with an audio player. The boot part is this manifest, the
 * command table and the state proxy; the commands' enablement and the palette's provider are the
 * later part (`later.ts`); the rest, strings included, is one lazy chunk (as voicemail's).
 */
export const recordingsPlugin = definePlugin({
  id: 'recordings',
  titleKey: 'recordings:title',
  routes: [{ id: 'recordings', path: `${RECORDINGS_PATH}/{-$id}`, titleKey: 'recordings:title', component: () => import('./lazy').then(async (m) => (await m.strings(), { default: m.RecordingsScreen })) }],
  nav: [{ id: 'recordings', titleKey: 'recordings:title', to: RECORDINGS_PATH, icon: Mic, order: 16, when: visible, command: recordingsCommands.ids.go }],
  commands: recordingsCommands.commands,
  hotkeys: recordingsCommands.hotkeys,
  later: () => import('./later').then((m) => m.later),
  activate(ctx) {
    // Whether the user may see recordings is known only once the settings have been fetched: until
    // then a "g r" pressed is held by the kernel, not dropped.
    ctx.afterFirstScreen(async (settled) => (await import('./lazy')).start(ctx.services, (v) => ctx.setContextKey('visible', v), settled), { settles: true });
  },
});

export default recordingsPlugin;

import { Mic } from 'lucide-react';
import { subscribe } from 'valtio';
import { definePlugin, toDisposable, type CommandContribution, type WhenFn } from '../../kernel';
import { TelephonyApi } from '../../contracts';
import { palette, recState, RECORDINGS_PATH } from './state';

/* The boot part: this manifest and the state proxy. The rest, strings included, is one lazy chunk (see voicemail). */
const lazy = () => import('./lazy');

const visible: WhenFn = (ctx) => ctx.keys['recordings.visible'] === true;
const onScreen: WhenFn = (ctx) => visible(ctx) && ctx.route.startsWith(RECORDINGS_PATH);
const loaded = () => (recState.items ? true : { reasonKey: 'recordings:reasons.loading' });

/** name, hotkey, needs the list, where: 1 only on the screen; 2 listed in the palette only on the screen (see voicemail). */
const COMMANDS: ReadonlyArray<[name: string, keys?: string, needsItems?: 0 | 1, where?: 0 | 1 | 2]> = [
  ['go', 'g r'],
  ['open'],
  ['playPause', 'p', 1],
  ['download', 'Shift+D', 1, 2],
  ['callBack', 'c', 1, 2],
  ['next', 'j', 0, 1],
  ['previous', 'k', 0, 1],
];

const commands: CommandContribution[] = COMMANDS.map(([name, , needsItems, where]) => ({
  id: `recordings.${name}`,
  titleKey: `recordings:commands.${name}`,
  hiddenInPalette: name === 'open' ? true : where === 2 ? (ctx) => !onScreen(ctx) : false,
  when: where === 1 ? onScreen : visible,
  enabled:
    name === 'callBack'
      ? (ctx) => (ctx.services.has(TelephonyApi) ? loaded() : { reasonKey: 'recordings:reasons.noTelephony' })
      : needsItems
        ? loaded
        : undefined,
  run: async (ctx, args) => (await lazy()).run(name, ctx, args),
}));

/** Call recordings: a filtered, paged list with an audio player. */
export const recordingsPlugin = definePlugin({
  id: 'recordings',
  titleKey: 'recordings:title',
  routes: [{ id: 'recordings', path: `${RECORDINGS_PATH}/{-$id}`, titleKey: 'recordings:title', component: () => lazy().then(async (m) => (await m.strings(), { default: m.RecordingsScreen })) }],
  nav: [{ id: 'recordings', titleKey: 'recordings:title', to: RECORDINGS_PATH, icon: Mic, order: 16, when: visible, command: 'recordings.go' }],
  commands,
  hotkeys: COMMANDS.filter(([, keys]) => keys).map(([name, keys], i) => (i ? { command: `recordings.${name}`, keys: keys!, scope: 'recordings', when: onScreen } : { command: 'recordings.go', keys: keys! })),
  searchProviders: [{ id: 'recordings', kindKey: 'recordings:title', items: () => palette.entities, subscribe: (onChange) => toDisposable(subscribe(palette, onChange)) }],
  activate(ctx) {
    // The commands read whether the list is loaded and which recording is selected.
    ctx.commandsRead((onChange) => subscribe(recState, onChange));
    // Whether the user may see recordings is known only once the settings have been fetched: until
    // then a "g r" pressed is held by the kernel, not dropped.
    ctx.afterFirstScreen(async (settled) => (await lazy()).start(ctx.services, (v) => ctx.setContextKey('visible', v), settled), { settles: true });
  },
});

export default recordingsPlugin;

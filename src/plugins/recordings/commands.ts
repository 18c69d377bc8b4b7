import { defineCommands, Navigation, type CommandRow, type WhenFn } from '../../kernel';
import { loadLazy } from './chunk';
import { RECORDINGS_PATH } from './state';

export const visible: WhenFn = (ctx) => ctx.keys['recordings.visible'] === true;
const onScreen: WhenFn = (ctx) => visible(ctx) && ctx.route.startsWith(RECORDINGS_PATH);
/** A recording's id (an entity's action); without it the command acts on the recording shown. */
const recording = { id: 'string' } as const;

/*
 * As voicemail's: the commands on one recording are listed by the palette only on the screen, where it is in view; elsewhere they are a recording's actions.
 * Whether they may run comes with the later part (`later.ts`).
 */
export const recordingsTable = {
  go: { keys: 'g r', run: (ctx) => ctx.services.get(Navigation).navigate(RECORDINGS_PATH) },
  open: { listed: 'never', given: recording },
  playPause: { keys: 'p', scope: 'screen', given: recording },
  download: { keys: 'Shift+D', scope: 'screen', listed: 'screen', given: recording },
  callBack: { keys: 'c', scope: 'screen', listed: 'screen', given: recording },
  next: { keys: 'j', scope: 'screen', when: 'screen' },
  previous: { keys: 'k', scope: 'screen', when: 'screen' },
} as const satisfies Record<string, CommandRow>;

/** The rows' work (all but `go`) is in the lazy chunk, with the screen's strings. */
export const recordingsCommands = defineCommands('recordings', recordingsTable, {
  when: visible,
  screen: onScreen,
  lazy: () => loadLazy().then(async (m) => (await m.strings(), m.runs)),
});

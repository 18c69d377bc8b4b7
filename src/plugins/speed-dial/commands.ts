import { defineCommands, Navigation, type CommandRow, type WhenFn } from '../../kernel';
import { loadChunk } from './chunk';
import { SPEED_DIAL_PATH } from './state';

const onScreen: WhenFn = (ctx) => ctx.route.startsWith(SPEED_DIAL_PATH);
/** An entry's id (an entity's action, a row's button). */
const entry = { id: 'string' } as const;
/*
 * "Call", "Edit" and "Delete" act on one entry: they are its actions (palette ▸ entry ▸ Tab) and
 * its row's buttons, never listed alone. The dialpad runs `panel` (SPEED_DIAL_PANEL_COMMAND) and
 * a contact's "Add to speed dial" runs `add` (SPEED_DIAL_ADD_COMMAND) with the number. Their palette
 * words and whether they may run come with the later part (`later.ts`).
 */
export const speedDialTable = {
  go: { keys: 'g s', run: (ctx) => ctx.services.get(Navigation).navigate(SPEED_DIAL_PATH) },
  new: {},
  add: { listed: 'never', given: { number: 'string', label: 'string' } },
  panel: {},
  call: { listed: 'never', given: entry },
  edit: { listed: 'never', given: entry },
  delete: { listed: 'never', given: entry },
} as const satisfies Record<string, CommandRow>;

/**
 * The rows' work (all but `go`) is in the lazy chunk, with the screen's strings. Loaded through
 * chunk.ts: with the dynamic import here, the bundler split the state out of the boot chunk once the
 * later part shared it (issue 17).
 */
export const speedDialCommands = defineCommands('speed-dial', speedDialTable, {
  screen: onScreen,
  lazy: () => loadChunk().then((m) => m.runs),
});

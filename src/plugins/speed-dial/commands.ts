import { defineCommands, Navigation, type CommandRow, type Enablement, type WhenFn } from '../../kernel';
import { TelephonyApi } from '../../contracts';
import { sdState, SPEED_DIAL_PATH } from './state';

const onScreen: WhenFn = (ctx) => ctx.route.startsWith(SPEED_DIAL_PATH);
const loaded = (): Enablement => (sdState.items ? true : { reasonKey: 'speed-dial:reasons.loading' });
/** An entry's id (an entity's action, a row's button). */
const entry = { id: 'string' } as const;
/*
 * "Call", "Edit" and "Delete" act on one entry: they are its actions (palette ▸ entry ▸ Tab) and
 * its row's buttons, never listed alone. The dialpad runs `panel` (SPEED_DIAL_PANEL_COMMAND) and
 * a contact's "Add to speed dial" runs `add` (SPEED_DIAL_ADD_COMMAND) with the number.
 */
export const speedDialTable = {
  go: { keys: 'g s', keywords: ['speed dial', 'shortcuts', 'favourites'], run: (ctx) => ctx.services.get(Navigation).navigate(SPEED_DIAL_PATH) },
  new: { keywords: ['add', 'speed dial', 'shortcut'] },
  add: { listed: 'never', given: { number: 'string', label: 'string' } },
  panel: { keywords: ['speed dial', 'dial', 'shortcuts'], enabled: loaded },
  call: {
    listed: 'never',
    given: entry,
    enabled: (ctx) => (ctx.services.has(TelephonyApi) ? loaded() : { reasonKey: 'speed-dial:reasons.noTelephony' }),
  },
  edit: { listed: 'never', given: entry, enabled: loaded },
  delete: { listed: 'never', given: entry, enabled: loaded },
} as const satisfies Record<string, CommandRow>;

/** The rows' work (all but `go`) is in the lazy chunk, with the screen's strings. */
export const speedDialCommands = defineCommands('speed-dial', speedDialTable, {
  screen: onScreen,
  lazy: () => import('./lazy').then(async (m) => (await m.strings(), m.runs)),
});

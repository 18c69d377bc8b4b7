import type { LazyRuns } from '../../kernel';
import { TelephonyApi } from '../../contracts';
import type { historyTable } from './commands';
import { exportHistoryCsv } from './download';
import { invalidateHistory } from './load';
import { log } from './log';
import { historyState } from './state';

/*
 * The plugin's one lazy chunk: the screen (history is the home screen, so its strings are in
 * `locales/` and load at boot) and what the commands do beyond navigating, the CSV download with it.
 */
export { default as HistoryScreen } from './ui/HistoryScreen';

/** What each command of the table does (`go`, `showMissed` and `showRecents` navigate at boot). */
export const runs: LazyRuns<typeof historyTable> = {
  downloadCsv: (ctx) => exportHistoryCsv(ctx.services),
  callBack: async (ctx) => {
    const record = historyState.selected;
    const telephony = ctx.services.maybe(TelephonyApi);
    if (!record || !telephony) return;
    try {
      await telephony.call(record.phoneNumber, { displayName: record.cnam ?? undefined });
    } catch (err) {
      // Telephony tells the user why a call failed; here it is only recorded.
      log.error('call back failed', err);
    }
  },
  refresh: () => invalidateHistory(),
};

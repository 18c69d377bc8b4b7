import { History } from 'lucide-react';
import { subscribe } from 'valtio';
import { definePlugin, toDisposable } from '../../kernel';
import { TelephonyApi } from '../../contracts';
import { historyKeys } from './api';
import { HISTORY_PATH, historyCommands, onHistoryScreen } from './commands';
import { toUrlSearch, validateHistorySearch } from './filters';
import { useMissedBadge } from './queries';
import { boundQueryClient, historyState } from './store';

/** How long after a call ends the history asks the server once more (see TelephonyService.onCallEnded). */
const CALL_RECORD_LAG_MS = 2000;

/** Call history: a filtered list with a detail pane, CSV download and a missed-calls badge. */
export const historyPlugin = definePlugin({
  id: 'history',
  titleKey: 'history:title',
  i18n: {
    namespace: 'history',
    load: (lng) => import(`./locales/${lng}.json`).then((m: { default: Record<string, unknown> }) => m.default),
  },
  routes: [
    {
      id: 'history',
      path: HISTORY_PATH,
      home: true,
      titleKey: 'history:title',
      component: () => import('./HistoryScreen'),
      // The URL form: defaults stay out of the address bar.
      validateSearch: (search) => toUrlSearch(validateHistorySearch(search)),
    },
  ],
  nav: [
    {
      id: 'history',
      titleKey: 'history:nav',
      to: HISTORY_PATH,
      icon: History,
      order: 10,
      useBadge: useMissedBadge,
      badgeLabelKey: 'history:badge',
      command: 'history.go',
    },
  ],
  commands: historyCommands,
  hotkeys: [
    { command: 'history.go', keys: 'g h' },
    { command: 'history.showMissed', keys: 'g m' },
    { command: 'history.downloadCsv', keys: 'Shift+D', scope: 'history', when: onHistoryScreen },
    { command: 'history.callBack', keys: 'c', scope: 'history', when: onHistoryScreen },
  ],
  activate(ctx) {
    // "Call back" reads the selection: bound buttons, menus and the palette follow it.
    ctx.commandsRead((onChange) => subscribe(historyState, onChange));
    // A call just ended is in the history at once, not at the next 3-minute refresh; asked again
    // after CALL_RECORD_LAG_MS for the side that hung up, whose record may be filed just after.
    const refresh = () => void boundQueryClient()?.invalidateQueries({ queryKey: historyKeys.all });
    let again: ReturnType<typeof setTimeout> | undefined;
    const ended = ctx.services.maybe(TelephonyApi)?.onCallEnded(() => {
      refresh();
      clearTimeout(again);
      again = setTimeout(refresh, CALL_RECORD_LAG_MS);
    });
    return toDisposable(() => {
      ended?.dispose();
      clearTimeout(again);
    });
  },
});

export default historyPlugin;

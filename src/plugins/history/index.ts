import { History } from 'lucide-react';
import { subscribe } from 'valtio';
import { definePlugin, toDisposable } from '../../kernel';
import { HISTORY_PATH, historyCommands } from './commands';
import { toUrlSearch, validateHistorySearch } from './filters';
import { clearHistoryCache, refreshWhenCallsEnd, useMissedBadge } from './load';
import { historyState } from './state';

/** Call history: a filtered list with a detail pane, CSV download and a missed-calls badge. */
export const historyPlugin = definePlugin({
  id: 'history',
  titleKey: 'history:title',
  i18n: { namespace: 'history' },
  routes: [
    {
      id: 'history',
      path: HISTORY_PATH,
      home: true,
      titleKey: 'history:title',
      component: () => import('./lazy').then((m) => ({ default: m.HistoryScreen })),
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
      command: historyCommands.ids.go,
    },
  ],
  commands: historyCommands.commands,
  hotkeys: historyCommands.hotkeys,
  activate(ctx) {
    // "Call back" reads the selection: bound buttons, menus and the palette follow it.
    ctx.commandsRead((onChange) => subscribe(historyState, onChange));
    const refreshing = refreshWhenCallsEnd(ctx.services);
    // Another user signing in here must not see this one's lists, even for a moment.
    return toDisposable(() => (refreshing.dispose(), clearHistoryCache()));
  },
});

export default historyPlugin;

import { defineCommands, Navigation, type CommandContext, type CommandRow, type WhenFn } from '../../kernel';
import { HISTORY_PATH, TelephonyApi } from '../../contracts';
import { toUrlSearch, updateSearch, type HistorySearch, type HistoryView } from './filters';
import { historyState } from './state';

/** Declared with the other plugins' contracts: telephony's missed-call notification leads here. */
export { HISTORY_PATH };

export const onHistoryScreen: WhenFn = (ctx) => ctx.route.startsWith(HISTORY_PATH);

/** Switching view keeps the term and dates the user set on the screen. */
function showView(ctx: CommandContext, view: HistoryView): void {
  const base: HistorySearch = (onHistoryScreen(ctx.context) && historyState.search) || { filter: 'recents' };
  ctx.services.get(Navigation).navigate(HISTORY_PATH, { search: toUrlSearch(updateSearch(base, { filter: view })) });
}

export const historyTable = {
  go: { keys: 'g h', keywords: ['calls', 'call log', 'recent calls', 'history'], run: (ctx) => ctx.services.get(Navigation).navigate(HISTORY_PATH) },
  showMissed: { keys: 'g m', keywords: ['missed calls', 'unanswered'], run: (ctx) => showView(ctx, 'missed') },
  showRecents: { keywords: ['recent calls', 'all calls'], run: (ctx) => showView(ctx, 'recents') },
  downloadCsv: {
    keys: 'Shift+D',
    scope: 'screen',
    keywords: ['export', 'csv', 'spreadsheet', 'download'],
    enabled: () => (historyState.exporting ? { reasonKey: 'history:reasons.exporting' } : true),
  },
  callBack: {
    keys: 'c',
    scope: 'screen',
    when: 'screen',
    keywords: ['call', 'dial', 'return call', 'redial'],
    enabled: (ctx) => {
      if (!ctx.services.has(TelephonyApi)) return { reasonKey: 'history:reasons.noTelephony' };
      if (!historyState.selected) return { reasonKey: 'history:reasons.noSelection' };
      return true;
    },
  },
  refresh: { when: 'screen', keywords: ['reload', 'update'] },
} as const satisfies Record<string, CommandRow>;

/** Navigation runs at boot; the rest (the CSV download, calling back, refreshing) in the screen's chunk. */
export const historyCommands = defineCommands('history', historyTable, {
  screen: onHistoryScreen,
  lazy: () => import('./lazy').then((m) => m.runs),
});

import { Navigation, type CommandContext, type CommandContribution, type WhenFn } from '../../kernel';
import { HISTORY_PATH, TelephonyApi } from '../../contracts';
import { toUrlSearch, updateSearch, type HistorySearch, type HistoryView } from './filters';
import { historyKeys } from './api';
import { boundQueryClient, historyState } from './store';
import { log } from './log';

/** Declared with the other plugins' contracts: telephony's missed-call notification leads here. */
export { HISTORY_PATH };

export const onHistoryScreen: WhenFn = (ctx) => ctx.route.startsWith(HISTORY_PATH);

/** Switching view keeps the term and dates the user set on the screen. */
function showView(ctx: CommandContext, view: HistoryView): void {
  const base: HistorySearch = (onHistoryScreen(ctx.context) && historyState.search) || { filter: 'recents' };
  ctx.services.get(Navigation).navigate(HISTORY_PATH, { search: toUrlSearch(updateSearch(base, { filter: view })) });
}

export const historyCommands: readonly CommandContribution[] = [
  {
    id: 'history.go',
    titleKey: 'history:commands.go',
    keywords: ['calls', 'call log', 'recent calls', 'history'],
    run: (ctx) => ctx.services.get(Navigation).navigate(HISTORY_PATH),
  },
  {
    id: 'history.showMissed',
    titleKey: 'history:commands.showMissed',
    keywords: ['missed calls', 'unanswered'],
    run: (ctx) => showView(ctx, 'missed'),
  },
  {
    id: 'history.showRecents',
    titleKey: 'history:commands.showRecents',
    keywords: ['recent calls', 'all calls'],
    run: (ctx) => showView(ctx, 'recents'),
  },
  {
    id: 'history.downloadCsv',
    titleKey: 'history:commands.downloadCsv',
    keywords: ['export', 'csv', 'spreadsheet', 'download'],
    enabled: () => (historyState.exporting ? { reasonKey: 'history:reasons.exporting' } : true),
    // Loaded on first use: papaparse is not needed to boot.
    run: async (ctx) => (await import('./download')).exportHistoryCsv(ctx.services),
  },
  {
    id: 'history.callBack',
    titleKey: 'history:commands.callBack',
    keywords: ['call', 'dial', 'return call', 'redial'],
    when: onHistoryScreen,
    enabled: (ctx) => {
      if (!ctx.services.has(TelephonyApi)) return { reasonKey: 'history:reasons.noTelephony' };
      if (!historyState.selected) return { reasonKey: 'history:reasons.noSelection' };
      return true;
    },
    run: async (ctx) => {
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
  },
  {
    id: 'history.refresh',
    titleKey: 'history:commands.refresh',
    keywords: ['reload', 'update'],
    when: onHistoryScreen,
    run: async () => {
      await boundQueryClient()?.invalidateQueries({ queryKey: historyKeys.all });
    },
  },
];

import i18next from 'i18next';
import { Api, Notifications, Session, type ServiceLookup } from '../../kernel';
import { fetchAllHistory } from './api';
import { buildHistoryCsv, csvFileName, csvLabels } from './csv';
import { defaultFilter } from './filters';
import { historyState } from './state';
import { log } from './log';

/** Hands a file to the browser's download manager. */
export function saveFile(name: string, content: string, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // Some browsers start the download after the click returns; revoking at once can cancel it.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export interface ExportDeps {
  save?: typeof saveFile;
  now?: () => Date;
}

/**
 * Downloads every record of the current filter (or of the default one when the screen was never
 * opened) as CSV, with progress in the store for the screen to show.
 */
export async function exportHistoryCsv(services: ServiceLookup, deps: ExportDeps = {}): Promise<void> {
  if (historyState.exporting) return;
  const now = deps.now?.() ?? new Date();
  const filter = historyState.filter ?? defaultFilter(now);
  const notifier = services.maybe(Notifications);
  const t = i18next.getFixedT(null, 'history');
  historyState.exporting = { loaded: 0, total: null };
  try {
    const records = await fetchAllHistory(services.get(Api), services.get(Session).userId, filter, {
      now,
      onProgress: (p) => (historyState.exporting = { loaded: p.loaded, total: p.total }),
    });
    (deps.save ?? saveFile)(csvFileName(now), await buildHistoryCsv(records, csvLabels(t)), 'text/csv;charset=utf-8');
    notifier?.announce(t('export.done', { count: records.length }));
  } catch (err) {
    log.error('call history export failed', err);
    notifier?.toast({ titleKey: 'history:export.failedTitle', messageKey: 'history:export.failedMessage', tone: 'error' });
  } finally {
    historyState.exporting = null;
  }
}

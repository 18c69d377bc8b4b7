import { isoDay } from './filters';
import type { HistoryRecord } from './model';

/** Column titles and values in the user's language. */
export interface CsvLabels {
  header: { dateTime: string; number: string; name: string; direction: string; disposition: string; duration: string };
  direction: Record<HistoryRecord['direction'], string>;
  disposition: Record<HistoryRecord['disposition'], string>;
}

type Translate = (key: string) => string;

/** Keys under the `history` namespace, so a `t` bound to it (or with the prefix) gives the labels. */
export function csvLabels(t: Translate): CsvLabels {
  return {
    header: {
      dateTime: t('csv.dateTime'),
      number: t('csv.number'),
      name: t('csv.name'),
      direction: t('csv.direction'),
      disposition: t('csv.disposition'),
      duration: t('csv.duration'),
    },
    direction: { inbound: t('direction.inbound'), outbound: t('direction.outbound') },
    disposition: { ANSWERED: t('disposition.answered'), UNANSWERED: t('disposition.unanswered') },
  };
}

/**
 * Caller names come from the network, so a cell starting like a spreadsheet formula is defused.
 * Phone numbers (+14155550142) start with + too and are left alone.
 */
const FORMULA = /^[=@\t\r]|^[+-](?!\d[\d\s().-]*$)/;

/** A byte-order mark lets spreadsheet programs read the UTF-8 names of every language correctly. */
const BOM = '\uFEFF';

/**
 * The CSV library loads when a download asks for it: the history screen is the first screen, and
 * the library (6 kB gzipped) would otherwise load with it on every sign-in.
 */
export async function buildHistoryCsv(records: readonly HistoryRecord[], labels: CsvLabels): Promise<string> {
  const { default: Papa } = await import('papaparse');
  const h = labels.header;
  const body = Papa.unparse(
    {
      fields: [h.dateTime, h.number, h.name, h.direction, h.disposition, h.duration],
      data: records.map((r) => [
        r.dateTime,
        r.phoneNumber,
        r.cnam ?? '',
        labels.direction[r.direction],
        labels.disposition[r.disposition],
        r.duration,
      ]),
    },
    { escapeFormulae: FORMULA, newline: '\r\n' },
  );
  // With no rows Papa ends the header with a line break; with rows it does not. Make it uniform.
  return BOM + body.replace(/\r\n$/, '');
}

/** `call-history-YYYY-MM-DD.csv`, dated with the local day of the export. */
export function csvFileName(now: Date): string {
  return `call-history-${isoDay(now)}.csv`;
}

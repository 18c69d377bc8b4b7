import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import { buildHistoryCsv, csvFileName, csvLabels } from './csv';
import { toHistoryRecord } from './model';
import { wire } from './test-fixtures';

/** A `t` over the English file, as i18next would resolve nested keys. */
const t = (key: string) => key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], en) as string;
const labels = csvLabels(t);

describe('buildHistoryCsv', () => {
  it('writes a translated header and one row per call', async () => {
    const csv = await buildHistoryCsv(
      [
        toHistoryRecord(wire()),
        toHistoryRecord(wire({ id: 2, direction: 'outbound', disposition: 'UNANSWERED', dest_phone: '1002', cnam: null, duration: 0 })),
      ],
      labels,
    );
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      'Date and time (UTC),Number,Name,Direction,Disposition,Duration',
      '2024-03-05T14:30:00.000Z,+14155550142,Ada Lovelace,Incoming,Answered,00:03:05',
      '2024-03-05T14:30:00.000Z,1002,,Outgoing,Unanswered,00:00:00',
    ]);
  });

  it('quotes commas and quotes in names so the file parses back', async () => {
    const csv = await buildHistoryCsv([toHistoryRecord(wire({ cnam: 'Lovelace, "Ada"' }))], labels);
    const parsed = Papa.parse<string[]>(csv.slice(1).trim());
    expect(parsed.data[1]?.[2]).toBe('Lovelace, "Ada"');
  });

  it('defuses formulas in names but keeps +numbers', async () => {
    const csv = await buildHistoryCsv([toHistoryRecord(wire({ cnam: '=HYPERLINK("x")', source_phone: '+14155550142' }))], labels);
    const row = Papa.parse<string[]>(csv.slice(1).trim()).data[1]!;
    expect(row[1]).toBe('+14155550142');
    expect(row[2]).toBe(`'=HYPERLINK("x")`);
  });

  it('writes just the header for an empty period', async () => {
    expect((await buildHistoryCsv([], labels)).slice(1)).toBe('Date and time (UTC),Number,Name,Direction,Disposition,Duration');
  });
});

describe('csvFileName', () => {
  it('is dated with the local day', () => {
    expect(csvFileName(new Date(2024, 2, 5, 23, 59))).toBe('call-history-2024-03-05.csv');
  });
});

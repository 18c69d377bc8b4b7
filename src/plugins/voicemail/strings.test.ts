import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../kernel/i18n';

/* This plugin has no boot `locales/` (tests/i18n.test.ts checks those): its lazily loaded `strings/` get the same check here. */
const here = import.meta.dirname;
const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(obj: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object') for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
    else out.set(key, String(v));
  }
  return out;
}
const read = (file: string) => flatten(JSON.parse(readFileSync(file, 'utf8')));
const bases = (m: Map<string, string>) => new Set([...m.keys()].map((k) => k.replace(PLURAL, '')));
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();

describe('voicemail strings', () => {
  const en = read(join(here, 'strings', 'en.json'));
  for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
    it(`${lang} has every key with the same placeholders`, () => {
      const file = join(here, 'strings', `${lang}.json`);
      expect(existsSync(file)).toBe(true);
      const tr = read(file);
      expect([...bases(en)].filter((k) => !bases(tr).has(k)), 'missing').toEqual([]);
      expect([...bases(tr)].filter((k) => !bases(en).has(k)), 'extra').toEqual([]);
      const wrong = [...en].filter(([k, v]) => !PLURAL.test(k) && placeholders(tr.get(k)!).join() !== placeholders(v).join());
      expect(wrong.map(([k]) => k)).toEqual([]);
      for (const [k, v] of tr) if (k.endsWith('_other')) expect(placeholders(v), k).toEqual(placeholders(en.get(k)!));
    });
  }

  it('every key the code names exists in English', () => {
    const all = bases(en);
    const used = new Set<string>();
    for (const f of readdirSync(here).filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.test.ts'))) {
      const src = readFileSync(join(here, f), 'utf8');
      for (const m of src.matchAll(/'voicemail:([A-Za-z_.]+)'/g)) used.add(m[1]!);
      for (const m of src.matchAll(/\bt\('([A-Za-z_.]+)'/g)) used.add(m[1]!);
    }
    for (const c of ['go', 'open', 'playPause', 'toggleRead', 'markAllRead', 'delete', 'download', 'callBack', 'next', 'previous']) used.add(`commands.${c}`);
    for (const g of ['ALL', 'UNREAD', 'READ']) used.add(`filters.groups.${g}`);
    for (const s of ['none', 'inProgress', 'failed', 'succeeded']) used.add(`transcript.${s}`);
    expect([...used].filter((k) => !all.has(k)).sort()).toEqual([]);
  });
});

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../kernel/i18n';

/*
 * tests/i18n.test.ts checks every `locales/` folder; the lazily loaded `strings/` folder of this
 * plugin gets the same check here, and every key the code uses must exist in English.
 */
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
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();

describe('messaging strings', () => {
  const en = read(join(here, 'strings', 'en.json'));
  for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
    it(`${lang} has every key with the same placeholders`, () => {
      const file = join(here, 'strings', `${lang}.json`);
      expect(existsSync(file), `${file} missing`).toBe(true);
      const tr = read(file);
      const missing = [...en.keys()].filter((k) => !PLURAL.test(k) && !tr.has(k));
      const wrong = [...en].filter(([k, v]) => tr.has(k) && placeholders(tr.get(k)!).join() !== placeholders(v).join()).map(([k]) => k);
      expect(missing, 'missing keys').toEqual([]);
      expect(wrong, 'placeholders differ').toEqual([]);
      expect([...tr.keys()].filter((k) => !en.has(k)), 'keys English does not have').toEqual([]);
    });
  }

  it('every key the code names exists in English (boot locales or strings)', () => {
    const all = new Set([...en.keys(), ...read(join(here, 'locales', 'en.json')).keys()]);
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) sources.push(readFileSync(p, 'utf8'));
      }
    };
    walk(here);
    const used = new Set<string>();
    for (const src of sources) {
      for (const m of src.matchAll(/'messaging:([A-Za-z.]+)'/g)) used.add(m[1]!);
      for (const m of src.matchAll(/\bt\('([A-Za-z.]+)'/g)) used.add(m[1]!);
    }
    // Keys built at run time.
    for (const s of ['available', 'away', 'busy', 'donotdisturb', 'lunch', 'invisible', 'custom', 'unavailable']) used.add(`presence.${s}`);
    for (const s of ['sending', 'delivered', 'received', 'failed', 'cancel']) used.add(`status.${s}`);
    for (const g of ['all', 'unread', 'muted']) used.add(`chat.group.${g}`);
    for (const r of ['offline', 'noUnread']) used.add(`reasons.${r}`);
    for (const c of ['go', 'newChat', 'message', 'markAllRead', 'setPresence']) used.add(`commands.${c}`);
    expect(used.size).toBeGreaterThan(40);
    expect([...used].filter((k) => !all.has(k)).sort()).toEqual([]);
  });
});

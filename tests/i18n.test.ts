import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../src/kernel/i18n';
import { flatten, keyBases, placeholders, PLURAL } from './i18nFiles';

const root = resolve(import.meta.dirname, '..', 'src');

function localeDirs(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (!e.isDirectory() || e.name === 'node_modules') continue;
    const p = join(dir, e.name);
    // `locales/` load at boot; `strings/` are a plugin's lazily loaded screen strings: both ship in every language.
    if ((e.name === 'locales' || e.name === 'strings') && existsSync(join(p, 'en.json'))) out.push(p);
    else out.push(...localeDirs(p));
  }
  return out;
}

describe('translations', () => {
  const dirs = localeDirs(root);
  it('exist for the shell, the palette and every plugin', () => {
    expect(dirs.length).toBeGreaterThanOrEqual(3);
  });
  for (const dir of dirs) {
    const en = flatten(JSON.parse(readFileSync(join(dir, 'en.json'), 'utf8')));
    for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
      it(`${dir.slice(root.length + 1)}: ${lang} has every key with the same placeholders`, () => {
        const file = join(dir, `${lang}.json`);
        expect(existsSync(file), `${file} missing`).toBe(true);
        const tr = flatten(JSON.parse(readFileSync(file, 'utf8')));
        const trBases = new Map<string, string>();
        for (const [k, v] of tr) trBases.set(k.replace(PLURAL, ''), v);
        const missing: string[] = [];
        const wrong: string[] = [];
        for (const [key, text] of en) {
          const base = key.replace(PLURAL, '');
          const plural = PLURAL.test(key);
          const got = plural ? trBases.get(base) : tr.get(key);
          if (got === undefined) {
            missing.push(key);
            continue;
          }
          // Plural forms may drop the number ("No results"); the `other` form keeps every placeholder.
          const compare = plural ? (key.endsWith('_other') ? tr.get(key) : undefined) : got;
          if (compare !== undefined && placeholders(compare).join() !== placeholders(text).join()) wrong.push(`${key}: ${compare}`);
          if (plural && key.endsWith('_other') && compare === undefined) missing.push(key);
        }
        expect(missing, 'missing keys').toEqual([]);
        expect(wrong, 'placeholders differ').toEqual([]);
        const enBases = keyBases(en);
        expect([...keyBases(tr)].filter((k) => !enBases.has(k)), 'keys English does not have').toEqual([]);
      });
    }
  }
});

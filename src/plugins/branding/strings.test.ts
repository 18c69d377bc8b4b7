import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyBases, keysNamedInSources, readStrings } from '../../../tests/i18nFiles';

/* tests/i18n.test.ts checks every language of `locales/` and `strings/`; here: no key the code names is missing in English. */
const here = import.meta.dirname;

describe('branding strings', () => {
  it('every key the code names exists in English', () => {
    const all = new Set([...keyBases(readStrings(join(here, 'locales', 'en.json'))), ...keyBases(readStrings(join(here, 'strings', 'en.json')))]);
    const used = keysNamedInSources(here, 'branding');
    for (const c of ['upload', 'remove']) used.add(`commands.${c}`);
    expect([...used].filter((k) => !all.has(k)).sort()).toEqual([]);
  });
});

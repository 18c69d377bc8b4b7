import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyBases, keysNamedInSources, readStrings } from '../../../tests/i18nFiles';
import { STEPS } from './steps';

/* tests/i18n.test.ts checks every language of `locales/` and `strings/`; here: no key the code names is missing in English. */
const here = import.meta.dirname;

describe('tutorial strings', () => {
  it('every key the code names exists in English, every step has its title and text', () => {
    const all = new Set([...keyBases(readStrings(join(here, 'locales', 'en.json'))), ...keyBases(readStrings(join(here, 'strings', 'en.json')))]);
    const used = keysNamedInSources(here, 'tutorial');
    used.add('commands.show');
    for (const s of STEPS) used.add(`steps.${s.id}.title`).add(`steps.${s.id}.text`);
    expect([...used].filter((k) => !all.has(k)).sort()).toEqual([]);
  });
});

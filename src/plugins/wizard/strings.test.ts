import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROW_REFUSALS, WIZARD_STEPS } from '../../wire/wizard';
import { keyBases, keysNamedInSources, readStrings } from '../../../tests/i18nFiles';

/* tests/i18n.test.ts checks every language of `locales/` and `strings/`; here: no key the code names is missing in English. */
const here = import.meta.dirname;

describe('wizard strings', () => {
  it('every key the code names exists in English', () => {
    const all = new Set([...keyBases(readStrings(join(here, 'locales', 'en.json'))), ...keyBases(readStrings(join(here, 'strings', 'en.json')))]);
    const used = keysNamedInSources(here, 'wizard');
    // Keys built at run time: the command titles, the steps' names, the refusals' reasons, the errors kept in the state.
    for (const c of ['go', 'welcome', 'company', 'upload', 'users', 'next', 'back', 'downloadCsv']) used.add(`commands.${c}`);
    for (const s of WIZARD_STEPS) used.add(`steps.${s}`);
    for (const r of ROW_REFUSALS) used.add(`refusals.${r}`);
    for (const k of ['upload.failed', 'users.loadFailed', 'users.refused', 'users.saveFailed']) used.add(k);
    expect([...used].filter((k) => !all.has(k)).sort()).toEqual([]);
  });
});

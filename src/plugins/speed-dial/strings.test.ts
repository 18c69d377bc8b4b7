import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyBases, keysNamedInSources, readStrings } from '../../../tests/i18nFiles';

/* tests/i18n.test.ts checks every language of `locales/` and `strings/`; here: no key the code names is missing in English. */
const here = import.meta.dirname;

describe('speed-dial strings', () => {
  it('every key the code names exists in English', () => {
    const all = new Set([...keyBases(readStrings(join(here, 'locales', 'en.json'))), ...keyBases(readStrings(join(here, 'strings', 'en.json')))]);
    const used = keysNamedInSources(here, 'speed-dial');
    // Keys built at run time: the command titles, and the form's messages (model.ts names them without the namespace).
    for (const c of ['go', 'new', 'add', 'panel', 'call', 'edit', 'delete']) used.add(`commands.${c}`);
    for (const k of ['shortcutRange', 'shortcutInUse', 'noFreeShortcut', 'numberRequired', 'numberChars', 'numberLong', 'labelLong', 'limit', 'sharedNotAllowed', 'notYours', 'saveFailed']) used.add(`errors.${k}`);
    expect([...used].filter((k) => !all.has(k)).sort()).toEqual([]);
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyBases, keysNamedInSources, readStrings } from '../../../tests/i18nFiles';

/* tests/i18n.test.ts checks every language of `locales/`; here: no key the code names is missing in English. */
const here = import.meta.dirname;

describe('dashboard strings', () => {
  it('every key the code names exists in English', () => {
    const all = keyBases(readStrings(join(here, 'locales', 'en.json')));
    const used = keysNamedInSources(here, 'dashboard');
    // Keys built at run time.
    for (const c of ['go', 'joinMeeting']) used.add(`commands.${c}`);
    for (const g of ['user', 'favorites', 'personal', 'all']) used.add(`contacts.groups.${g}`);
    for (const d of ['in', 'out', 'missed']) used.add(`feed.call.${d}`);
    expect([...used].filter((k) => !all.has(k)).sort()).toEqual([]);
  });
});

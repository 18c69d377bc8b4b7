import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyBases, keysNamedInSources, readStrings } from '../../../tests/i18nFiles';

/* tests/i18n.test.ts checks every language of `locales/` and `strings/`; here: no key the code names is missing in English. */
const here = import.meta.dirname;

describe('voicemail strings', () => {
  it('every key the code names exists in English', () => {
    const all = new Set([...keyBases(readStrings(join(here, 'strings', 'en.json')))]);
    const used = keysNamedInSources(here, 'voicemail');
    // Keys built at run time.
    for (const c of ['go', 'open', 'playPause', 'toggleRead', 'markAllRead', 'delete', 'download', 'callBack', 'next', 'previous']) used.add(`commands.${c}`);
    for (const g of ['ALL', 'UNREAD', 'READ']) used.add(`filters.groups.${g}`);
    for (const s of ['none', 'inProgress', 'failed', 'succeeded']) used.add(`transcript.${s}`);
    expect([...used].filter((k) => !all.has(k)).sort()).toEqual([]);
  });
});

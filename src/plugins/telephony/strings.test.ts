import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyBases, keysNamedInSources, readStrings } from '../../../tests/i18nFiles';

/* tests/i18n.test.ts checks every language of `locales/` and `strings/`; here: no key the code names is missing in English. */
const here = import.meta.dirname;

describe('telephony strings', () => {
  it('every key the code names exists in English', () => {
    const all = new Set([...keyBases(readStrings(join(here, 'strings', 'en.json'))), ...keyBases(readStrings(join(here, 'locales', 'en.json')))]);
    const used = keysNamedInSources(here, 'telephony');
    // Keys built at run time.
    for (const r of ['busy', 'declined', 'notFound', 'noAnswer', 'unavailable', 'other']) used.add(`errors.callFailed.${r}`);
    for (const h of ['ended', 'failed', 'declined', 'missed']) used.add(`announce.${h}`).add(`dock.ended.${h}`);
    for (const a of ['endAndAccept', 'holdAndAccept', 'swap', 'end', 'dismiss']) used.add(`dock.actions.${a}`);
    for (const s of ['ringing', 'onHold']) used.add(`dock.${s}`);
    for (const r of ['notConfigured', 'elsewhere', 'notConnected', 'connecting', 'busy', 'noIncoming', 'noCall', 'noActive', 'notElsewhere']) used.add(`reasons.${r}`);
    expect(used.size).toBeGreaterThan(40);
    expect([...used].filter((k) => !all.has(k)).sort()).toEqual([]);
  });
});

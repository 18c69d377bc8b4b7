import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyBases, keysNamedInSources, readStrings } from '../../../tests/i18nFiles';

/* tests/i18n.test.ts checks every language of `locales/` and `strings/`; here: no key the code names is missing in English. */
const here = import.meta.dirname;

describe('recordings strings', () => {
  it('every key the code names exists in English', () => {
    const all = new Set([...keyBases(readStrings(join(here, 'strings', 'en.json')))]);
    const used = keysNamedInSources(here, 'recordings');
    // Keys built at run time.
    for (const c of ['go', 'open', 'playPause', 'download', 'callBack', 'next', 'previous']) used.add(`commands.${c}`);
    for (const r of ['all', 'past-week', 'two-weeks', 'past-month', 'custom']) used.add(`filters.ranges.${r}`);
    for (const d of ['IN', 'OUT']) used.add(`direction.${d}`);
    for (const st of ['notPlaying', 'loading', 'playing', 'paused', 'failed']) used.add(`player.states.${st}`);
    for (const a of ['loading', 'playing', 'paused', 'ended', 'failed']) used.add(`player.announce.${a}`);
    expect([...used].filter((k) => !all.has(k)).sort()).toEqual([]);
  });
});

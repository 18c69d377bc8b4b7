import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyBases, keysNamedInSources, readStrings } from '../../../tests/i18nFiles';
import { meetingsTable } from './commands';

/* tests/i18n.test.ts checks every language of `locales/` and `strings/`; here: no key the code names is missing in English. */
const here = import.meta.dirname;

describe('meetings strings', () => {
  it('every key the code names exists in English', () => {
    const all = new Set([...keyBases(readStrings(join(here, 'strings', 'en.json'))), ...keyBases(readStrings(join(here, 'locales', 'en.json')))]);
    const used = keysNamedInSources(here, 'meetings');
    // Keys built at run time.
    for (const c of Object.keys(meetingsTable)) used.add(`commands.${c}`);
    for (const f of ['all', 'e', 'p', 'c']) used.add(`filters.${f}`);
    for (const o of ['0', '1', '2', '3']) used.add(`modal.occurs.${o}`);
    for (const o of ['1', '2', '3']) used.add(`detail.occurs.${o}`);
    for (const e of ['nameRequired', 'badTime', 'endTooSoon', 'tooLong', 'durationZero', 'weekdayRequired', 'bookmark', 'pin', 'password', 'tooManyInvitees']) used.add(`errors.${e}`);
    for (const k of ['early', 'ended', 'noId']) used.add(`join.${k}`);
    expect([...used].filter((k) => !all.has(k)).sort()).toEqual([]);
  });
  it('boot and chunk strings share no top-level key (the chunk is merged into the same namespace: a string and an object under one name break both)', () => {
    const top = (dir: string) => new Set([...readStrings(join(here, dir, 'en.json')).keys()].map((k) => k.split('.')[0]!));
    const boot = top('locales');
    expect([...top('strings')].filter((k) => boot.has(k))).toEqual([]);
  });
});

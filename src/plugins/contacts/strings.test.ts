import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyBases, keysNamedInSources, readStrings } from '../../../tests/i18nFiles';
import { contactsTable } from './commands';

/* tests/i18n.test.ts checks every language of `locales/` and `strings/`; here: which keys are where. */
const here = import.meta.dirname;
const boot = keyBases(readStrings(join(here, 'locales', 'en.json')));
const chunk = keyBases(readStrings(join(here, 'strings', 'en.json')));

/**
 * The files the manifest reaches without the lazy chunk (the later part too: it comes after the boot
 * strings, before the chunk's): what they name shows before the chunk's strings are in.
 */
const BOOT_FILES = ['index.ts', 'commands.ts', 'directory.ts', 'entry.ts', 'later.ts', 'route.ts', 'search.ts', 'service.ts', 'state.ts', 'target.ts'];

describe('contacts strings', () => {
  it('the boot files name only boot strings (locales/), every command has its title there', () => {
    const named = new Set<string>();
    for (const f of BOOT_FILES) for (const m of readFileSync(join(here, f), 'utf8').matchAll(/'contacts:([A-Za-z_.]+)'/g)) named.add(m[1]!);
    // Built at run time: `contacts:reasons.${key}` and each row's `contacts:commands.<name>`.
    for (const m of readFileSync(join(here, 'later.ts'), 'utf8').matchAll(/reason\('(\w+)'\)/g)) named.add(`reasons.${m[1]}`);
    for (const name of Object.keys(contactsTable)) named.add(`commands.${name}`);
    expect([...named].filter((k) => !boot.has(k)).sort()).toEqual([]);
  });

  it('every key the code names exists in English, in one part only', () => {
    const used = keysNamedInSources(here, 'contacts');
    const missing = [...used].filter((k) => !boot.has(k) && !chunk.has(k) && ![...boot, ...chunk].some((b) => b.startsWith(`${k}.`)));
    expect(missing.sort()).toEqual([]);
    expect([...boot].filter((k) => chunk.has(k))).toEqual([]);
  });
});

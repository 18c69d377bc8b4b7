import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Plural suffixes of i18next keys (`count_one`, `count_other`…). */
export const PLURAL = /_(zero|one|two|few|many|other)$/;

/** A translation file's keys as dotted paths. */
export function flatten(obj: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object') for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
    else out.set(key, String(v));
  }
  return out;
}

export const readStrings = (file: string): Map<string, string> => flatten(JSON.parse(readFileSync(file, 'utf8')));

/** The keys without their plural suffixes. */
export const keyBases = (m: Map<string, string>): Set<string> => new Set([...m.keys()].map((k) => k.replace(PLURAL, '')));

export const placeholders = (s: string): string[] => [...s.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]!).sort();

/**
 * The keys a plugin's code names literally: `'<namespace>:a.b'` anywhere, and `t('a.b')` (its own
 * namespace's `t`). Keys built at run time are the caller's to add.
 */
export function keysNamedInSources(dir: string, namespace: string): Set<string> {
  const used = new Set<string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$|test-fakes/.test(e.name)) {
        const src = readFileSync(p, 'utf8');
        for (const m of src.matchAll(new RegExp(`'${namespace}:([A-Za-z_.]+)'`, 'g'))) used.add(m[1]!);
        for (const m of src.matchAll(/\bt\('([A-Za-z_.]+)'/g)) used.add(m[1]!);
      }
    }
  };
  walk(dir);
  return used;
}

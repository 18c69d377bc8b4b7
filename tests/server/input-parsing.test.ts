/**
 * Every request input is read through a schema (parseOrThrow), with one zod flavour: a cast on
 * `request.params/query/body` lets unchecked values reach SQL, and classic zod would be a second
 * dialect next to the wire's zod/mini.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = path.resolve(import.meta.dirname, '../../server');
const sources = (readdirSync(SERVER, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => ({ file: f, text: readFileSync(path.join(SERVER, f), 'utf8') }));

describe('server input parsing', () => {
  it('casts no request input to a type', () => {
    const casts = sources.flatMap(({ file, text }) =>
      [...text.matchAll(/request\.(params|query|body)\b[^;\n]{0,20}?\)?\s+as\s+[{A-Z]/g)].map((m) => `${file}: ${m[0]}`),
    );
    expect(casts).toEqual([]);
  });

  it('uses zod/mini only', () => {
    expect(sources.filter(({ text }) => /from 'zod'/.test(text)).map(({ file }) => file)).toEqual([]);
  });
});

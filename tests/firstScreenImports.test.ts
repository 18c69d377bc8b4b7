/**
 * What the first screen loads (bench/bundle.ts: the entry, the boot chunk with every plugin's
 * manifest, and the history screen) must not reach the wire schemas' validator, zod: twice a
 * plugin's boot file importing a `src/wire` module put it on every first screen (+10 kB gzipped,
 * issue 17). The boot graph is followed through static value imports only: `import type` and
 * dynamic `import()` (the lazy chunks) do not load code before the first screen.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROOTS = ['src/main.tsx', 'src/shell/boot.tsx', 'src/plugins/index.ts', 'src/plugins/history/lazy.ts'];
const FORBIDDEN = /^zod(\/|$)/;

function resolve(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (/\.(ts|tsx)$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

/** The modules a file loads when it runs: value imports and re-exports, not types, not `import()`. */
function staticValueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: string[] = [];
  for (const st of source.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const clause = st.importClause;
      const typeOnly = clause?.isTypeOnly || (clause && !clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) out.push(st.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) && !st.isTypeOnly) {
      out.push(st.moduleSpecifier.text);
    }
  }
  return out;
}

/** Each forbidden import reached from the roots, with the chain of files that leads to it. */
function forbiddenReached(): string[] {
  const seen = new Map<string, string | null>();
  const queue: string[] = [];
  for (const r of ROOTS) {
    const file = path.join(ROOT, r);
    seen.set(file, null);
    queue.push(file);
  }
  const found: string[] = [];
  const chain = (file: string): string => {
    const parts: string[] = [];
    for (let f: string | null | undefined = file; f; f = seen.get(f)) parts.unshift(path.relative(ROOT, f));
    return parts.join(' → ');
  };
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const spec of staticValueImports(file)) {
      if (FORBIDDEN.test(spec)) found.push(`${chain(file)} → ${spec}`);
      if (!spec.startsWith('.')) continue;
      const target = resolve(file, spec);
      if (target && !seen.has(target)) {
        seen.set(target, file);
        queue.push(target);
      }
    }
  }
  return found;
}

describe('the first screen', () => {
  it('loads no zod: boot files import wire constants from modules without schemas, or lazily', () => {
    expect(forbiddenReached()).toEqual([]);
  });
});

/**
 * The login page's JavaScript (issue 17, `login_js_gzip_kb`): what the entry and the login page
 * import statically must not reach the app: the router, the query cache, the palette, the plugins,
 * the frame, zod, or React Aria's index (which would lead the bundler to every component). Their
 * lazy parts (dynamic imports) and type-only imports load nothing and are not followed.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The modules a file imports for their values: static imports and re-exports, not `import type`. */
function valueImports(file: string): string[] {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: string[] = [];
  for (const st of src.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const clause = st.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause && !clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) out.push(st.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) && !st.isTypeOnly) {
      out.push(st.moduleSpecifier.text);
    }
  }
  return out;
}

function resolve(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (/\.(ts|tsx)$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

/** Every source file and package a set of files reaches through value imports. */
function reach(entries: string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of valueImports(file)) {
      if (!spec.startsWith('.')) packages.add(spec);
      else {
        const target = resolve(file, spec);
        if (target) visit(target);
      }
    }
  };
  for (const e of entries) visit(path.join(ROOT, e));
  return { files, packages };
}

describe('the login page loads none of the app', () => {
  const { files, packages } = reach(['src/main.tsx', 'src/shell/LoginPage.tsx']);
  const rel = [...files].map((f) => path.relative(ROOT, f).split(path.sep).join('/'));

  it('imports no router, query cache, zod or React Aria index', () => {
    expect([...packages].filter((p) => /^(@tanstack\/|zod|cmdk$|react-aria-components$)/.test(p))).toEqual([]);
  });

  it('reaches no plugin, palette, frame or app router', () => {
    expect(rel.filter((f) => /^src\/(plugins|palette)\/|^src\/shell\/(AppFrame|router|boot|shellPlugin)\.tsx?$/.test(f))).toEqual([]);
  });

  it('is found by following the entry (the walk sees the login page and the session check)', () => {
    expect(rel).toEqual(expect.arrayContaining(['src/shell/start.tsx', 'src/shell/session.ts', 'src/shell/LoginPage.tsx', 'src/kernel/api.ts']));
  });
});

/**
 * One plugin shape (issue 17; docs/ARCHITECTURE.md, "The plugin anatomy"): a newcomer copies a
 * plugin, so every plugin must be the same to copy. This test reads each plugin folder and fails on
 * the shapes that existed before: helpers and tables above the manifest, commands built by hand or
 * from positional tuples, several ways of loading lazy code, hand-written store resets, argument
 * guards in command runs.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', 'src', 'plugins');
// `index/` is the product's, beside the plugin list (index.ts): every plugin's boot strings, one module per language.
const plugins = readdirSync(ROOT).filter((d) => d !== 'index' && statSync(join(ROOT, d)).isDirectory());

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !/test-|fixtures|testRooms|engineTests/.test(f) ? [p] : [];
  });
}
const read = (p: string) => readFileSync(p, 'utf8');
const rel = (p: string) => p.slice(ROOT.length + 1);

it('finds the product plugins', () => {
  expect(plugins).toEqual(expect.arrayContaining(['contacts', 'history', 'messaging', 'recordings', 'telephony', 'voicemail']));
});

describe.each(plugins)('%s', (id) => {
  const dir = join(ROOT, id);
  const files = sources(dir);

  it('has the anatomy: index.ts, commands.ts, state.ts, lazy.ts, log.ts and ui/, and no second name for them', () => {
    for (const f of ['index.ts', 'commands.ts', 'state.ts', 'lazy.ts', 'log.ts']) expect(existsSync(join(dir, f)), `${id}/${f}`).toBe(true);
    expect(existsSync(join(dir, 'ui')) && statSync(join(dir, 'ui')).isDirectory(), `${id}/ui/`).toBe(true);
    // The names the three earlier generations used for the same things.
    for (const f of ['store.ts', 'data.ts', 'actions.ts', 'queries.ts', 'commandRuns.ts', 'manifest.ts']) expect(existsSync(join(dir, f)), `${id}/${f}`).toBe(false);
    // Screens and components live in ui/.
    const stray = files.filter((f) => f.endsWith('.tsx') && !rel(f).includes('/ui/') && !rel(f).includes('/emoji/'));
    expect(stray.map(rel)).toEqual([]);
  });

  it('index.ts is the manifest and nothing else', () => {
    const file = ts.createSourceFile('index.ts', read(join(dir, 'index.ts')), ts.ScriptTarget.Latest, true);
    const others = file.statements.filter((s) => {
      if (ts.isImportDeclaration(s) || ts.isExportAssignment(s)) return false;
      if (ts.isVariableStatement(s) && s.declarationList.declarations.length === 1) {
        const init = s.declarationList.declarations[0]!.initializer;
        return !(init && ts.isCallExpression(init) && init.expression.getText(file) === 'definePlugin');
      }
      return true;
    });
    expect(others.map((s) => s.getText(file).split('\n')[0])).toEqual([]);
  });

  it('declares its commands with defineCommands in commands.ts, and builds none by hand', () => {
    expect(read(join(dir, 'commands.ts'))).toMatch(/defineCommands\(\s*'/);
    const byHand = files.filter((f) => /\bCommandContribution\b/.test(read(f)));
    expect(byHand.map(rel)).toEqual([]);
  });

  it('loads lazy code two ways: its later part (later.ts, from the manifest) and its one chunk (lazy.ts)', () => {
    const dynamic = files.flatMap((f) => [...read(f).matchAll(/\bimport\(\s*([^)]*)\)/g)].map((m) => `${f.slice(dir.length + 1)}: ${m[1]}`));
    // A library that one rare command needs (papaparse for history's CSV) may load when that command
    // runs, by its package name: it is not plugin code, and the chunk would otherwise carry it.
    const odd = dynamic.filter((d) => !/: '\.\/lazy'$/.test(d) && d !== "index.ts: './later'" && !/: '[a-z@][^./'][^']*'$/.test(d));
    // Boot strings come through the product's one loader (src/plugins/index.ts), not a table per manifest.
    expect(dynamic.filter((d) => d.includes('locales'))).toEqual([]);
    expect(odd).toEqual([]);
    // The chunk's runs, typed from the table (directly, or by the factory that makes them).
    expect(read(join(dir, 'lazy.ts'))).toMatch(/export const runs\b/);
    expect(files.some((f) => /LazyRuns<typeof \w+Table>/.test(read(f))), 'runs typed as LazyRuns<typeof …Table>').toBe(true);
  });

  it('state.ts creates and resets its store from one initial-state factory', () => {
    const state = read(join(dir, 'state.ts'));
    const factories = [...state.matchAll(/export const (initial\w*State) = \(\) =>/g)].map((m) => m[1]!);
    expect(factories.length, 'an initial…State() factory').toBeGreaterThan(0);
    for (const f of factories) {
      expect(state, `the store is made from ${f}()`).toMatch(new RegExp(`proxy\\(${f}\\(\\)\\)`));
      expect(state, `the reset assigns ${f}()`).toMatch(new RegExp(`Object\\.assign\\([^;]*${f}\\(\\)`));
    }
  });

  it('command runs take typed arguments: no typeof guards on args, no casts to never', () => {
    const guards = files.flatMap((f) => [...read(f).matchAll(/typeof (?:args|a)\.\w+ ===|\b(?:args|a)\.\w+ as never/g)].map((m) => `${rel(f)}: ${m[0]}`));
    expect(guards).toEqual([]);
  });
});

/**
 * The layers and who may import whom (docs/ARCHITECTURE.md, "Layers"). The best property of this
 * codebase, that no plugin imports another and the kernel knows no plugin, held by discipline
 * alone; this test holds it. Every relative import (static, dynamic, `export … from`, type-only)
 * of every source file is resolved to the area it lands in and checked against the rules.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

/** An area of the code: a layer, or one plugin (`plugins/<id>`). */
export type Area = string;

/** Where a file belongs. `null`: outside every rule (node_modules, config files at the top). */
export function areaOf(file: string): Area | null {
  // A trailing slash, so that a folder itself (`../contacts`, `../kernel`) counts as inside it.
  const rel = `${path.relative(ROOT, file).split(path.sep).join('/')}/`;
  if (['src/main.tsx/', 'src/main/', 'src/plugins/index.ts/', 'src/plugins/index/', 'src/plugins/'].includes(rel)) return 'app';
  const plugin = /^src\/plugins\/([^/]+)\//.exec(rel);
  if (plugin) return `plugins/${plugin[1]}`;
  for (const layer of ['kernel', 'palette', 'shell', 'wire', 'contracts', 'ui']) if (rel.startsWith(`src/${layer}/`)) return layer;
  if (rel.startsWith('server/')) return 'server';
  if (rel.startsWith('tests/')) return 'tests';
  if (rel.startsWith('e2e/')) return 'e2e';
  if (rel.startsWith('bench/')) return 'bench';
  return null;
}

/** May code in `from` import code in `to`? The rules of docs/ARCHITECTURE.md. */
export function allowed(from: Area, to: Area): boolean {
  if (from === to) return true;
  if (from.startsWith('plugins/')) return to === 'kernel' || to === 'wire' || to === 'contracts' || to === 'ui';
  switch (from) {
    case 'wire':
      return false;
    // Widgets shared by screens (the virtualised grid list): React only, no product code.
    case 'ui':
      return false;
    // What plugins know of each other: types and service keys, made with the kernel's serviceKey.
    case 'contracts':
      return to === 'kernel' || to === 'wire';
    case 'kernel':
      return to === 'wire';
    case 'palette':
      return to === 'kernel';
    case 'shell':
      return to === 'kernel' || to === 'palette' || to === 'wire' || to === 'contracts' || to === 'ui';
    // The two files that put the product together: the plugin list and the entry point.
    case 'app':
      return to === 'shell' || to === 'kernel' || to.startsWith('plugins/');
    case 'server':
      return to === 'wire';
    // Suites that test across areas or drive the running product.
    case 'tests':
    case 'e2e':
    case 'bench':
      return true;
    default:
      return false;
  }
}

/**
 * Test files next to the code may reach beyond their area only where listed, each with its reason.
 * Keys: the importing test file; values: the areas it may import besides its own.
 */
const TEST_ALLOW: Record<string, { areas: Area[]; why: string }> = {
  'src/plugins/telephony/plugin.test.ts': { areas: ['palette', 'shell', 'app'], why: 'boots the whole product (every plugin, the shell and the palette) to check the manifests together' },
  'src/plugins/history/ui/HistoryScreen.test.tsx': { areas: ['shell'], why: "uses the shell's navigator to reproduce navigation while the list loads" },
  'src/plugins/messaging/engine/ChatEngine.connection.test.ts': { areas: ['shell'], why: "feeds the engine's connection states to the shell's banner store" },
};

const isTestFile = (rel: string) => /\.test\.tsx?$/.test(rel);
/** Every plugin's strings test reads every language file through tests/i18nFiles: one rule, not one line per plugin. */
const stringsTestReadsFiles = (rel: string, to: Area) => to === 'tests' && /^src\/plugins\/[^/]+\/strings\.test\.ts$/.test(rel);

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) sourceFiles(full, out);
    else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** Every module a file names: imports, re-exports, dynamic imports, `import type`. */
export function importsOf(text: string): string[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles.map((f) => f.fileName);
}

/** The kernel's two entry points: the boot one and the one for lazily loaded code. */
const KERNEL_ENTRIES = new Set(['src/kernel', 'src/kernel/index', 'src/kernel/index.ts', 'src/kernel/lazy', 'src/kernel/lazy.ts']);

/** An import into the kernel from outside it that names a file other than its two entry points. */
function deepKernelImport(file: string, spec: string): boolean {
  const target = path.relative(ROOT, path.resolve(path.dirname(file), spec)).split(path.sep).join('/');
  return target.startsWith('src/kernel/') && !KERNEL_ENTRIES.has(target);
}

export interface Violation {
  file: string;
  imports: string;
  from: Area;
  to: Area;
}

/** The imports of the given files that break the rules. */
export function violations(files: string[], read: (file: string) => string = (f) => readFileSync(f, 'utf8')): Violation[] {
  const out: Violation[] = [];
  for (const file of files) {
    const from = areaOf(file);
    if (!from) continue;
    const rel = path.relative(ROOT, file).split(path.sep).join('/');
    for (const spec of importsOf(read(file))) {
      if (!spec.startsWith('.')) continue;
      const to = areaOf(path.resolve(path.dirname(file), spec));
      // Suites may test the kernel's parts one by one; product code goes through its entry points.
      if (to === 'kernel' && !['kernel', 'tests', 'e2e', 'bench'].includes(from) && deepKernelImport(file, spec)) {
        out.push({ file: rel, imports: spec, from, to: 'kernel (not an entry point: import from kernel or kernel/lazy)' });
        continue;
      }
      if (!to || allowed(from, to)) continue;
      if (isTestFile(rel) && (TEST_ALLOW[rel]?.areas.includes(to) || stringsTestReadsFiles(rel, to))) continue;
      out.push({ file: rel, imports: spec, from, to });
    }
  }
  return out;
}

const ALL = ['src', 'server', 'tests', 'e2e', 'bench'].flatMap((d) => sourceFiles(path.join(ROOT, d)));

describe('layers', () => {
  it('every import in the code keeps to the rules', () => {
    expect(violations(ALL)).toEqual([]);
  });

  it('every allowance for a test file is still needed (a stale one would hide a new violation)', () => {
    const strict = violations(
      Object.keys(TEST_ALLOW).map((f) => path.join(ROOT, f)),
      (f) => readFileSync(f, 'utf8'),
    );
    // Checked without the allow-list: each listed file must still make the import it is allowed.
    const needed = new Set<string>();
    for (const rel of Object.keys(TEST_ALLOW)) {
      const file = path.join(ROOT, rel);
      const from = areaOf(file)!;
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue;
        const to = areaOf(path.resolve(path.dirname(file), spec));
        if (to && !allowed(from, to)) needed.add(`${rel} → ${to}`);
      }
    }
    const listed = Object.entries(TEST_ALLOW).flatMap(([rel, a]) => a.areas.map((to) => `${rel} → ${to}`));
    expect(listed.filter((l) => !needed.has(l))).toEqual([]);
    expect(strict).toEqual([]);
  });

  it.each([
    ['a plugin importing another plugin', 'src/plugins/telephony/x.ts', "import { contactsPlugin } from '../contacts';", 'plugins/contacts'],
    ['the kernel importing a plugin', 'src/kernel/x.ts', "export { x } from '../plugins/history/x';", 'plugins/history'],
    ['the kernel importing the shell', 'src/kernel/x.ts', "const m = await import('../shell/router');", 'shell'],
    ['the kernel importing a plugin contract', 'src/kernel/x.ts', "import type { TelephonyService } from '../contracts';", 'contracts'],
    ['a contract importing a plugin', 'src/contracts/x.ts', "import type { Call } from '../plugins/telephony/state';", 'plugins/telephony'],
    ['the palette importing wire', 'src/palette/x.ts', "import type { X } from '../wire/calling';", 'wire'],
    ['wire importing the kernel', 'src/wire/x.ts', "import { k } from '../kernel';", 'kernel'],
    ['the shell importing a plugin', 'src/shell/x.tsx', "import { y } from '../plugins/voicemail/ui/List';", 'plugins/voicemail'],
    ['the server importing client code', 'server/x.ts', "import { z } from '../src/kernel';", 'kernel'],
    ['a plugin test reaching another plugin', 'src/plugins/history/y.test.ts', "import { z } from '../contacts/model';", 'plugins/contacts'],
  ])('refuses %s', (_name, file, text, to) => {
    expect(violations([path.join(ROOT, file)], () => text)).toEqual([expect.objectContaining({ to })]);
  });

  it('lets a plugin use the kernel (both entries), wire, contracts, shared widgets and its own files', () => {
    const text = "import { lazyStrings } from '../../../kernel/lazy';\nimport { VirtualGridList } from '../../../ui/VirtualGridList';\nimport { k } from '../../../kernel';\nimport type { W } from '../../../wire/calling';\nimport { TelephonyApi } from '../../../contracts';\nimport { own } from './model';";
    expect(violations([path.join(ROOT, 'src/plugins/telephony/engine/x.ts')], () => text)).toEqual([]);
  });
});

describe('e2e specs', () => {
  it('every spec runs under the CSP guard (it imports test from ./csp-guard, not from @playwright/test)', () => {
    const specs = sourceFiles(path.join(ROOT, 'e2e')).filter((f) => f.endsWith('.spec.ts'));
    expect(specs.length).toBeGreaterThan(0);
    const unguarded = specs.filter((f) => importsOf(readFileSync(f, 'utf8')).includes('@playwright/test')).map((f) => path.relative(ROOT, f));
    expect(unguarded).toEqual([]);
  });
});

describe('logging', () => {
  it("plugins log through their logger (ctx.log or the plugin's log.ts), never console.* directly", () => {
    const plugins = sourceFiles(path.join(ROOT, 'src', 'plugins')).filter((f) => !isTestFile(f));
    const direct = plugins.filter((f) => /\bconsole\.(log|info|warn|error|debug)\(/.test(readFileSync(f, 'utf8'))).map((f) => path.relative(ROOT, f));
    expect(direct).toEqual([]);
  });
});

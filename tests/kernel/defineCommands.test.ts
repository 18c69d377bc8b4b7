/**
 * One command table per plugin (issue 17, "one plugin shape"): a row names its keys, where they
 * work, whether the palette lists it and how it runs; the helper expands the rows into the kernel's
 * commands and hotkeys, loads the lazy chunk on a lazy command's first run, and refuses arguments
 * of the wrong type before the run sees them.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { defineCommands, definePlugin, Kernel, type CommandFailure, type ContextSnapshot, type LazyRuns } from '../../src/kernel';
import { features } from './fixtures';

afterEach(() => vi.restoreAllMocks());

const onScreen = (ctx: ContextSnapshot) => ctx.route.startsWith('/beta');
const table = {
  go: { keys: 'g b', run: () => undefined },
  remove: { keys: 'Delete', scope: 'screen', listed: 'screen', given: { id: 'string' } },
  next: { keys: 'j', scope: 'screen', when: 'screen' },
  open: { listed: 'never', given: { ids: 'strings' } },
} as const;

function setup(runs: LazyRuns<typeof table>) {
  const lazy = vi.fn(async () => runs);
  const beta = defineCommands('beta', table, { screen: onScreen, lazy });
  const failures: CommandFailure[] = [];
  const kernel = new Kernel({ features, mac: false, onCommandFailure: (f) => failures.push(f) });
  kernel.load([definePlugin({ id: 'beta', titleKey: 'beta:title', commands: beta.commands, hotkeys: beta.hotkeys })]);
  return { kernel, beta, lazy, failures };
}

const noRuns: LazyRuns<typeof table> = { remove: () => undefined, next: () => undefined, open: () => undefined };

it('expands each row into a command (id, title key, listing, when) and its hotkeys (scope, when)', () => {
  const { beta } = setup(noRuns);
  expect(beta.ids).toEqual({ go: 'beta.go', remove: 'beta.remove', next: 'beta.next', open: 'beta.open' });
  expect(beta.commands.map((c) => [c.id, c.titleKey])).toEqual([
    ['beta.go', 'beta:commands.go'],
    ['beta.remove', 'beta:commands.remove'],
    ['beta.next', 'beta:commands.next'],
    ['beta.open', 'beta:commands.open'],
  ]);
  const at = (route: string) => ({ route }) as ContextSnapshot;
  const byId = Object.fromEntries(beta.commands.map((c) => [c.id, c]));
  const hidden = (id: string, route: string) => {
    const h = byId[id]!.hiddenInPalette;
    return typeof h === 'function' ? h(at(route)) : (h ?? false);
  };
  expect([hidden('beta.go', '/x'), hidden('beta.remove', '/x'), hidden('beta.remove', '/beta'), hidden('beta.open', '/beta')]).toEqual([false, true, false, true]);
  expect(byId['beta.next']!.when!(at('/x'))).toBe(false);
  expect(byId['beta.next']!.when!(at('/beta/3'))).toBe(true);
  expect(byId['beta.go']!.when).toBeUndefined();
  expect(beta.hotkeys.map((h) => [h.command, h.keys, h.scope ?? 'global', h.when?.(at('/x')) ?? true])).toEqual([
    ['beta.go', 'g b', 'global', true],
    ['beta.remove', 'Delete', 'beta', false],
    ['beta.next', 'j', 'beta', false],
  ]);
});

it('a lazy command loads the chunk on its first run and runs its row there with the arguments given', async () => {
  const removed: unknown[] = [];
  const { kernel, lazy } = setup({ ...noRuns, remove: (_ctx, args) => void removed.push(args.id) });
  expect(lazy).not.toHaveBeenCalled();
  await expect(kernel.run('beta.remove', { id: '7' })).resolves.toBe(true);
  await expect(kernel.run('beta.remove', {})).resolves.toBe(true);
  expect(removed).toEqual(['7', undefined]);
  expect(lazy).toHaveBeenCalledTimes(2);
});

it('an argument of the wrong type fails the run, which never sees it', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const seen: unknown[] = [];
  const { kernel, failures } = setup({ ...noRuns, remove: (_ctx, args) => void seen.push(args), open: (_ctx, args) => void seen.push(args) });
  await expect(kernel.run('beta.remove', { id: 7 })).resolves.toBe(false);
  await expect(kernel.run('beta.open', { ids: ['a', 3] })).resolves.toBe(false);
  await expect(kernel.run('beta.open', { ids: ['a', 'b'] })).resolves.toBe(true);
  expect(seen).toEqual([{ ids: ['a', 'b'] }]);
  expect(failures.map((f) => [f.commandId, String(f.error)])).toEqual([
    ['beta.remove', 'TypeError: beta.remove: argument "id" must be a string'],
    ['beta.open', 'TypeError: beta.open: argument "ids" must be a list of strings'],
  ]);
});

it('a screen-bound row without the table screen is refused when the table is defined', () => {
  expect(() => defineCommands('gamma', { next: { keys: 'j', scope: 'screen' } })).toThrow('gamma.next: a screen-bound row needs the table\'s screen');
});

// Type-level: a run the table does not have, or one it lacks, or a wrong argument type, fails the type check.
// @ts-expect-error — `remove` and `open` are missing
export const missing: LazyRuns<typeof table> = { next: () => undefined };
export const misspelt: LazyRuns<typeof table> = {
  ...noRuns,
  // @ts-expect-error — no such row
  nxt: () => undefined,
};
export const wrongType: LazyRuns<typeof table> = {
  ...noRuns,
  // @ts-expect-error — `id` is a string
  remove: (_ctx, args) => void ((n: number) => n)(args.id),
};

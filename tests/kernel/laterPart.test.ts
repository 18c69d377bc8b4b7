// @vitest-environment jsdom
/**
 * A plugin's later part (PluginManifest.later, issue 17): what the first screen does not need loads
 * after it has painted. Until it is in, the plugin's commands are not available yet but nothing is
 * lost: a run waits for the part, a hotkey is held and runs once it is in.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { allFeatures, defineCommands, definePlugin, HotkeyManager, Kernel, NOT_LOADED, toDisposable, type PluginLater } from '../../src/kernel';

const table = {
  go: { keys: 'g l', run: 'later' },
  send: { given: { id: 'string' }, run: 'later' },
  open: { keys: 'o' },
} as const;

function setup(load: () => Promise<PluginLater>) {
  const cmds = defineCommands('lp', table, { lazy: async () => ({ open: () => void ran.push('open (lazy chunk)') }) });
  const ran: string[] = [];
  const stopped = vi.fn();
  let selected = false;
  const later = vi.fn(load);
  const plugin = definePlugin({ id: 'lp', titleKey: 'lp', commands: cmds.commands, hotkeys: cmds.hotkeys, later });
  const part = (): PluginLater => ({
    commands: cmds.later({
      go: { run: () => void ran.push('go') },
      send: { keywords: ['post', 'mail'], enabled: () => (selected ? true : { reasonKey: 'lp:none' }), run: (_ctx, args) => void ran.push(`send ${args.id ?? ''}`) },
    }),
    searchProviders: [{ id: 'lp.things', kindKey: 'lp:kind', items: () => [] }],
    activate: () => toDisposable(stopped),
  });
  const kernel = new Kernel({ features: allFeatures(true), mac: false });
  return { kernel, plugin, ran, part, later, stopped, select: () => (selected = true) };
}

describe("a plugin's later part", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('loads 300 ms after activation; its commands are "still loading" until then, and follow its behaviours after', async () => {
    let t!: ReturnType<typeof setup>;
    t = setup(async () => t.part());
    t.kernel.load([t.plugin]);
    const send = t.kernel.commands.get('lp.send')!.item;
    expect(t.kernel.enablement(send)).toEqual(NOT_LOADED);
    expect(t.kernel.keywordsOf(send)).toEqual([]);
    expect(t.kernel.isSettling).toBe(true);
    expect(t.kernel.searchProviders.has('lp.things')).toBe(false);
    await vi.advanceTimersByTimeAsync(299);
    expect(t.later).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(t.later).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(0);
    expect(t.kernel.isSettling).toBe(false);
    expect(t.kernel.searchProviders.has('lp.things')).toBe(true);
    expect(t.kernel.keywordsOf(send)).toEqual(['post', 'mail']);
    expect(t.kernel.enablement(send)).toEqual({ reasonKey: 'lp:none' });
    t.select();
    expect(t.kernel.enablement(send)).toBe(true);
    expect(await t.kernel.run('lp.send', { id: 'm1' })).toBe(true);
    expect(await t.kernel.run('lp.open')).toBe(true);
    expect(t.ran).toEqual(['send m1', 'open (lazy chunk)']);
  });

  it('a run before it is in waits for it instead of being refused', async () => {
    let t!: ReturnType<typeof setup>;
    t = setup(async () => t.part());
    t.kernel.load([t.plugin]);
    const run = t.kernel.run('lp.go', {}, 'button');
    expect(t.later).toHaveBeenCalledOnce();
    expect(await run).toBe(true);
    expect(t.ran).toEqual(['go']);
    await vi.advanceTimersByTimeAsync(300);
    expect(t.later).toHaveBeenCalledOnce();
  });

  it('a hotkey pressed before it is in is held and runs once it is in', async () => {
    let t!: ReturnType<typeof setup>;
    t = setup(async () => t.part());
    t.kernel.load([t.plugin]);
    const manager = new HotkeyManager(t.kernel, window);
    try {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'g', bubbles: true, cancelable: true }));
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'l', bubbles: true, cancelable: true }));
      await vi.advanceTimersByTimeAsync(0);
      expect(t.ran).toEqual([]);
      await vi.advanceTimersByTimeAsync(300);
      await vi.waitFor(() => expect(t.ran).toEqual(['go']));
    } finally {
      manager.dispose();
    }
  });

  it('checks what callers pass against the table before a later run', async () => {
    let t!: ReturnType<typeof setup>;
    t = setup(async () => t.part());
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    t.kernel.load([t.plugin]);
    t.select();
    expect(await t.kernel.run('lp.send', { id: 42 })).toBe(false);
    expect(t.ran).toEqual([]);
    error.mockRestore();
  });

  it('a part that failed to load is tried again by the next run; the failure is reported, not thrown', async () => {
    let fail = true;
    let t!: ReturnType<typeof setup>;
    t = setup(async () => {
      if (fail) throw new Error('chunk failed to load');
      return t.part();
    });
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failures: string[] = [];
    t.kernel = new Kernel({ features: allFeatures(true), mac: false, onCommandFailure: (f) => void failures.push(f.commandId) });
    t.kernel.load([t.plugin]);
    await vi.advanceTimersByTimeAsync(300);
    expect(t.kernel.isSettling).toBe(false);
    expect(t.kernel.enablement(t.kernel.commands.get('lp.go')!.item)).toEqual(NOT_LOADED);
    expect(await t.kernel.run('lp.go')).toBe(false);
    expect(failures).toEqual(['lp.go']);
    fail = false;
    expect(await t.kernel.run('lp.go')).toBe(true);
    expect(t.ran).toEqual(['go']);
    error.mockRestore();
  });

  it('disposes what it added with the plugin, back to the empty state', async () => {
    let t!: ReturnType<typeof setup>;
    t = setup(async () => t.part());
    const before = t.kernel.sizes();
    t.kernel.load([t.plugin]);
    await vi.advanceTimersByTimeAsync(300);
    expect(t.kernel.searchProviders.has('lp.things')).toBe(true);
    t.kernel.dispose();
    expect(t.stopped).toHaveBeenCalledOnce();
    expect(t.kernel.sizes()).toEqual(before);
  });
});

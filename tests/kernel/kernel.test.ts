import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { allFeatures, BootError, definePlugin, Kernel, serviceKey, toDisposable } from '../../src/kernel';
import { features, fullPlugin, Greeter } from './fixtures';

describe('kernel boot validation', () => {
  it('registers every kind of contribution and disposes back to the empty state', () => {
    const kernel = new Kernel({ features, mac: false });
    const before = kernel.sizes();
    const disposed = vi.fn();
    const plugin = { ...fullPlugin(), activate: (ctx: Parameters<NonNullable<ReturnType<typeof fullPlugin>['activate']>>[0]) => {
      ctx.setContextKey('ready', true);
      return toDisposable(disposed);
    } };
    kernel.load([plugin]);
    const loaded = kernel.sizes();
    for (const key of Object.keys(before)) expect(loaded[key], key).toBeGreaterThan(before[key]!);
    expect(kernel.get(Greeter).greet('ann')).toBe('hi ann');
    expect(kernel.context.keys['alpha.ready']).toBe(true);
    kernel.dispose();
    expect(kernel.sizes()).toEqual(before);
    expect(disposed).toHaveBeenCalledOnce();
  });

  it('gates plugins and commands by feature flags', () => {
    const kernel = new Kernel({ features: { ...allFeatures(true), speedDial: false }, mac: false });
    kernel.load([fullPlugin(), definePlugin({ id: 'gated', titleKey: 'x', feature: 'speedDial', commands: [{ id: 'gated.x', titleKey: 'x', run: () => undefined }] })]);
    expect(kernel.commands.has('alpha.go')).toBe(true);
    expect(kernel.commands.has('alpha.gated')).toBe(false);
    expect(kernel.hotkeys.has('alpha.gated')).toBe(false);
    expect(kernel.plugins.has('gated')).toBe(false);
  });

  it('fails loudly, listing every problem, and registers nothing', () => {
    const kernel = new Kernel({ features, mac: false });
    const a = fullPlugin('alpha');
    const b = definePlugin({
      id: 'beta',
      titleKey: 'beta:title',
      requires: [serviceKey('nobody.provides')],
      commands: [{ id: 'alpha.go', titleKey: 'x', run: () => undefined }, { id: 'beta.go', titleKey: 'x', run: () => undefined }],
      panels: [{ id: 'beta.panel', slot: 'nowhere' as never, component: () => null }],
      hotkeys: [{ command: 'beta.go', keys: 'G A' }, { command: 'beta.missing', keys: 'x' }],
      routes: [{ id: 'beta.r', path: '/alpha', titleKey: 'x', component: async () => ({ default: () => null }) }],
    });
    let error: unknown;
    try {
      kernel.load([a, b]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BootError);
    const problems = (error as BootError).problems.join('\n');
    expect(problems).toContain('duplicate command id "alpha.go"');
    expect(problems).toContain('requires service "nobody.provides"');
    expect(problems).toContain('unknown slot "nowhere"');
    expect(problems).toContain('collides with "alpha.go"');
    expect(problems).toContain('unknown command "beta.missing"');
    expect(problems).toContain('route path "/alpha"');
    expect(kernel.sizes().commands).toBe(0);
  });

  it('treats $mod and Control as the same keys on Linux, but allows them in different scopes', () => {
    const kernel = new Kernel({ features, mac: false });
    const mk = (id: string, keys: string, scope?: string) =>
      definePlugin({ id, titleKey: id, commands: [{ id: `${id}.c`, titleKey: id, run: () => undefined }], hotkeys: [{ command: `${id}.c`, keys, scope }] });
    expect(() => kernel.load([mk('p1', '$mod+k'), mk('p2', 'Control+K')])).toThrow(BootError);
    expect(() => kernel.load([mk('p1', '$mod+k'), mk('p2', 'Control+K', 'list')])).not.toThrow();
  });

  it('rejects a plugin whose id duplicates one already loaded', () => {
    const kernel = new Kernel({ features, mac: false });
    kernel.load([fullPlugin()]);
    expect(() => kernel.load([fullPlugin()])).toThrow(/duplicate plugin id "alpha"/);
  });
});

describe('commands', () => {
  it('read live state at run time and refuse disabled runs', async () => {
    const kernel = new Kernel({ features, mac: false });
    const seen: unknown[] = [];
    kernel.load([
      definePlugin({
        id: 'p',
        titleKey: 'p',
        commands: [
          { id: 'p.echo', titleKey: 'echo', run: (ctx, args) => void seen.push([ctx.source, ctx.context.route, args.x]) },
          { id: 'p.off', titleKey: 'off', enabled: () => ({ reasonKey: 'p:why' }), run: () => void seen.push('off ran') },
          { id: 'p.hidden', titleKey: 'hidden', when: (c) => c.route === '/nowhere', run: () => void seen.push('hidden ran') },
        ],
      }),
    ]);
    kernel.context.route = '/history';
    expect(await kernel.run('p.echo', { x: 1 }, 'palette')).toBe(true);
    kernel.context.route = '/contacts';
    await kernel.run('p.echo', { x: 2 }, 'hotkey');
    expect(await kernel.run('p.off')).toBe(false);
    expect(await kernel.run('p.hidden')).toBe(false);
    expect(seen).toEqual([
      ['palette', '/history', 1],
      ['hotkey', '/contacts', 2],
    ]);
    expect(kernel.enablement(kernel.commands.get('p.off')!.item)).toEqual({ reasonKey: 'p:why' });
  });
});

describe('work after the first screen (PluginContext.afterFirstScreen)', () => {
  function plugin(start: (settled: () => void) => (() => void) | void | Promise<(() => void) | void>, settles = false) {
    return definePlugin({ id: 'late', titleKey: 'x', activate: (ctx) => ctx.afterFirstScreen(start, { settles }) });
  }
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('starts 300 ms after activation and stops with the plugin', async () => {
    const kernel = new Kernel({ features, mac: false });
    const stop = vi.fn();
    const start = vi.fn(() => stop);
    kernel.load([plugin(start)]);
    await vi.advanceTimersByTimeAsync(299);
    expect(start).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(start).toHaveBeenCalledOnce();
    expect(stop).not.toHaveBeenCalled();
    kernel.dispose();
    expect(stop).toHaveBeenCalledOnce();
  });

  it('does not start when the plugin goes first, and stops work that was still loading when it went', async () => {
    const early = vi.fn();
    const k1 = new Kernel({ features, mac: false });
    k1.load([plugin(early)]);
    k1.dispose();
    await vi.advanceTimersByTimeAsync(1000);
    expect(early).not.toHaveBeenCalled();

    let finishLoading!: () => void;
    const stop = vi.fn();
    const k2 = new Kernel({ features, mac: false });
    k2.load([plugin(() => new Promise<() => void>((resolve) => (finishLoading = () => resolve(stop))))]);
    await vi.advanceTimersByTimeAsync(300);
    k2.dispose();
    finishLoading();
    await vi.advanceTimersByTimeAsync(0);
    expect(stop).toHaveBeenCalledOnce();
  });

  it('with settles, the kernel is settling until the work says it knows, or fails', async () => {
    let know!: () => void;
    const k1 = new Kernel({ features, mac: false });
    k1.load([plugin((settled) => void (know = settled), true)]);
    expect(k1.isSettling).toBe(true);
    await vi.advanceTimersByTimeAsync(300);
    expect(k1.isSettling).toBe(true);
    know();
    await vi.advanceTimersByTimeAsync(0);
    expect(k1.isSettling).toBe(false);

    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const k2 = new Kernel({ features, mac: false });
    k2.load([plugin(() => Promise.reject(new Error('chunk failed to load')), true)]);
    await vi.advanceTimersByTimeAsync(300);
    expect(k2.isSettling).toBe(false);
    expect(error).toHaveBeenCalledOnce();
    error.mockRestore();
  });
});

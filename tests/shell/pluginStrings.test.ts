import { describe, expect, it } from 'vitest';
import { allFeatures, BootError, definePlugin, Kernel } from '../../src/kernel';
import { plugins } from '../../src/plugins';
import { addPluginStrings } from '../../src/shell/pluginStrings';

describe("the plugins' strings at boot", () => {
  it('every product plugin with strings gets its loader from the plugin list', () => {
    const withStrings = plugins.filter((p) => p.i18n);
    expect(withStrings.length).toBeGreaterThan(10);
    for (const p of withStrings) expect(typeof p.i18n!.load, p.id).toBe('function');
  });

  it('a manifest whose strings have no loader stops the boot, naming it, instead of showing keys', () => {
    const kernel = new Kernel({ features: allFeatures(true), mac: false });
    kernel.load([definePlugin({ id: 'stray', titleKey: 'stray:title', i18n: { namespace: 'stray' } })]);
    expect(() => addPluginStrings(kernel)).toThrow(BootError);
    expect(() => addPluginStrings(kernel)).toThrow(/"stray" has no loader/);
  });
});

// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';

/*
 * tinykeys and the kernel read the platform when they load, so each case sets it first and loads
 * them afresh: on a Mac the preferences are ⌘, (the platform's convention), elsewhere Ctrl+,.
 */
async function onPlatform(platform: string) {
  vi.resetModules();
  vi.spyOn(navigator, 'platform', 'get').mockReturnValue(platform);
  const kernelModule = await import('../../kernel');
  const { preferencesTable } = await import('./commands');
  const ran: string[] = [];
  const kernel = new kernelModule.Kernel({ features: kernelModule.allFeatures(true) });
  kernel.load([
    kernelModule.definePlugin({
      id: 'preferences',
      titleKey: 'preferences:title',
      commands: [{ id: 'preferences.go', titleKey: 'go', run: () => void ran.push('go') }],
      hotkeys: [{ command: 'preferences.go', keys: preferencesTable.go.keys }],
    }),
  ]);
  managers.push(new kernelModule.HotkeyManager(kernel, window));
  const press = (init: KeyboardEventInit) => window.dispatchEvent(new KeyboardEvent('keydown', { key: ',', code: 'Comma', bubbles: true, cancelable: true, ...init }));
  return { ran, press, shown: kernelModule.bindingToKeys(preferencesTable.go.keys) };
}

const managers: { dispose(): void }[] = [];
afterEach(() => {
  managers.splice(0).forEach((m) => m.dispose());
  vi.restoreAllMocks();
});

describe('the preferences hotkey', () => {
  // On each platform: what it is called, the modifier that opens the preferences, and the one that does nothing.
  it.each([
    ['a Mac', '⌘', 'MacIntel', 'metaKey', 'ctrlKey'],
    ['Linux', 'Ctrl', 'Linux x86_64', 'ctrlKey', 'metaKey'],
  ] as const)('on %s it is shown and pressed as %s then ","; the other modifier does nothing', async (_name, cap, platform, opens, other) => {
    const { ran, press, shown } = await onPlatform(platform);
    expect(shown).toEqual([[cap, ',']]);
    press({ [other]: true });
    press({ [opens]: true });
    await vi.waitFor(() => expect(ran).toEqual(['go']));
  });
});
